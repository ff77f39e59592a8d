package fakeclock

import (
	"context"
	"time"
)

// Clock is the part of package time that code under test needs. Real
// returns the one backed by package time; NewFake returns one that moves
// only when a test advances it. Each method behaves like the package time
// function of the same name.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Since returns the time elapsed since t.
	Since(t time.Time) time.Duration
	// Until returns the duration until t.
	Until(t time.Time) time.Duration
	// Sleep pauses the calling goroutine for at least d.
	Sleep(d time.Duration)
	// After returns a channel that receives the current time after d.
	After(d time.Duration) <-chan time.Time
	// Tick returns a channel that receives ticks every d; nil if d <= 0.
	Tick(d time.Duration) <-chan time.Time
	// NewTimer returns a Timer that sends the current time on its C after d.
	NewTimer(d time.Duration) *Timer
	// NewTicker returns a Ticker that sends the time on its C every d.
	// It panics if d <= 0, as time.NewTicker does.
	NewTicker(d time.Duration) *Ticker
	// AfterFunc calls f after d and returns a Timer whose Stop cancels the call.
	AfterFunc(d time.Duration, f func()) *Timer
	// WithDeadline is context.WithDeadline measured on this clock; for a timeout d, pass
	// Now().Add(d).
	WithDeadline(parent context.Context, deadline time.Time) (context.Context, context.CancelFunc)
}

// Timer is a single event, like time.Timer: its C receives the time once
// the duration has elapsed (C is nil for a Timer made by AfterFunc). The C
// of a Fake's timer or ticker is buffered, so len(C) is 1 while a value
// waits, where package time's channels report 0; receiving, Stop and Reset
// behave the same.
type Timer struct {
	// C delivers the time at which the timer fired.
	C <-chan time.Time

	real *time.Timer
	fake *timer
}

// Stop prevents the Timer from firing. It returns true if the call stops
// the timer, false if the timer has already expired (and its value was
// received) or been stopped. As with Go 1.23 timers, a value that was sent
// but not yet received is discarded, and Stop then returns true.
func (t *Timer) Stop() bool {
	switch {
	case t.fake != nil:
		return t.fake.f.stop(t.fake)
	case t.real != nil:
		return t.real.Stop()
	}
	panic("fakeclock: Stop called on uninitialized Timer")
}

// Reset changes the timer to expire after d. It returns true if the timer
// had been active (or held an unreceived value, which is discarded), false
// if it had expired or been stopped, as time.Timer.Reset does. An active
// AfterFunc timer reset to d <= 0 is due, not yet run, as in package time:
// its func runs in its own goroutine once the runtime next checks its
// timers (in a bubble, once every goroutine has blocked), or at the next
// Advance, so a Stop right after the Reset still stops it.
func (t *Timer) Reset(d time.Duration) bool {
	switch {
	case t.fake != nil:
		return t.fake.f.reset(t.fake, d, 0, false)
	case t.real != nil:
		return t.real.Reset(d)
	}
	panic("fakeclock: Reset called on uninitialized Timer")
}

// Ticker delivers ticks at intervals, like time.Ticker: its C holds at
// most one pending tick, and ticks are dropped while the reader is slow.
type Ticker struct {
	// C delivers the ticks.
	C <-chan time.Time

	real *time.Ticker
	fake *timer
}

// Stop turns off the ticker and discards a pending tick; no more ticks are
// sent. It does not close C.
func (t *Ticker) Stop() {
	switch {
	case t.fake != nil:
		t.fake.f.stop(t.fake)
	case t.real != nil:
		t.real.Stop()
	default:
		panic("fakeclock: Stop called on uninitialized Ticker")
	}
}

// Reset stops the ticker, discards a pending tick and sets its period to
// d: the next tick arrives d from now. It panics if d <= 0, as
// time.Ticker.Reset does.
func (t *Ticker) Reset(d time.Duration) {
	if d <= 0 {
		panic("fakeclock: non-positive interval for Ticker.Reset")
	}
	switch {
	case t.fake != nil:
		t.fake.f.reset(t.fake, d, d, false)
	case t.real != nil:
		t.real.Reset(d)
	default:
		panic("fakeclock: Reset called on uninitialized Ticker")
	}
}

// Real returns the Clock backed by package time: each method calls the
// function of the same name, and nothing is added.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) Since(t time.Time) time.Duration        { return time.Since(t) }
func (realClock) Until(t time.Time) time.Duration        { return time.Until(t) }
func (realClock) Sleep(d time.Duration)                  { time.Sleep(d) }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

func (realClock) Tick(d time.Duration) <-chan time.Time { return time.Tick(d) }

func (realClock) NewTimer(d time.Duration) *Timer {
	t := time.NewTimer(d)
	return &Timer{C: t.C, real: t}
}

func (realClock) NewTicker(d time.Duration) *Ticker {
	t := time.NewTicker(d)
	return &Ticker{C: t.C, real: t}
}

func (realClock) AfterFunc(d time.Duration, f func()) *Timer {
	return &Timer{real: time.AfterFunc(d, f)}
}

func (realClock) WithDeadline(parent context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(parent, deadline)
}
