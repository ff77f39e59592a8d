// Package fakeclock lets code that waits on time be tested in virtual time:
// code takes a Clock instead of calling package time, production passes
// Real(), and a test passes a Fake that moves only when the test advances
// it, firing timers, tickers, sleeps and AfterFunc callbacks in time order
// with the semantics of package time (Go 1.23 timers).
//
// # Fake inside a synctest bubble: the normal way
//
// A test cannot tell, from outside the runtime, whether a goroutine has
// reached its next receive: a test that starts a loop and then advances a
// fake clock races the loop, and loses ticks now and then. Only
// testing/synctest can tell, so Test runs the test in a synctest bubble
// and there each Advance waits until every goroutine of the bubble is
// blocked before it fires the first due instant, and again after each
// instant. A loop started just before Advance has armed its ticker; a tick
// has been handled before the next fires; AfterFunc callbacks have
// returned when Advance does. Each run does the same thing.
//
// # Fake outside a bubble
//
// A Fake made by NewFake fires the same events in the same order, each
// channel value is sent before the next instant's, AfterFunc callbacks
// run on the advancing goroutine, and Stop and Reset never let a stale
// value through. What it cannot promise is that the goroutine reading a
// channel has run: before advancing, wait for the goroutine to arm its
// timer with WaitArmed, and after, wait for its effect (a channel, a
// sync.WaitGroup). Otherwise a reader that is behind finds one pending
// tick and the rest dropped, exactly as with time.Ticker.
//
// # fakeclock or testing/synctest alone
//
// Code that calls package time directly needs no Clock: run its test in
// synctest.Test, where package time itself is virtual. Use fakeclock when
// the code already takes a clock, when production must be able to swap
// it, when a test needs to stop time at a chosen instant and look (the
// bubble's time moves by itself whenever every goroutine is blocked), or
// when a test drives many loops in one timeline from the test goroutine.
// The two work together: Test is a synctest bubble, so code in it may use
// both, with the Fake's time and the bubble's time independent.
package fakeclock
