// Package fakeclock lets code that waits on time be tested in virtual time.
// The code takes a Clock instead of calling package time; production
// passes Real(), and a test passes a Fake, which moves only when the test
// advances it and then fires timers, tickers, sleeps and AfterFunc
// callbacks in time order, with the semantics of package time (Go 1.23
// timers: a ticker holds at most one pending tick, Stop and Reset discard
// an unreceived value).
//
// # In a synctest bubble: the normal way
//
// From outside the runtime, a test cannot tell whether a goroutine has
// reached its next receive, so a test that starts a loop and then advances
// a fake clock races the loop and now and then loses a tick. Only
// testing/synctest can tell. Test runs a test in a synctest bubble, and
// there each Advance calls synctest.Wait before it fires the first due
// instant and again after each instant: a loop started just before
// Advance has armed its ticker, each tick has been handled before the next
// one fires, and Advance returns once the goroutines it woke are blocked
// again. Every run does the same thing.
//
// synctest.Wait counts a goroutine asleep on the bubble's own clock
// (time.Sleep, time.After) as settled. The Fake's time and the bubble's
// are independent: Advance moves only the Fake, and the bubble's clock
// moves, as always, when every goroutine in the bubble is blocked.
//
// # Outside a bubble
//
// A Fake made by NewFake fires the same events in the same order: every
// value of an instant is sent before the next instant fires, AfterFunc
// callbacks run on the advancing goroutine and have returned when Advance
// returns, and Stop and Reset never let a stale value through. What it
// cannot promise is that a goroutine reading a channel has run. Before
// advancing, wait with WaitArmed until the goroutine has armed its timer;
// after, wait for its effect (a channel, a sync.WaitGroup). A reader that
// falls behind finds one pending tick, the oldest, and the rest dropped,
// exactly as with time.Ticker.
//
// # Dropped ticks cost nothing
//
// A ticker whose reader is behind drops its ticks until the reader takes
// the one it holds. The Fake does not fire those ticks one by one: before
// each instant, such a ticker jumps to its first tick at or after the next
// instant at which anything else happens (or past the end of the Advance),
// keeping its phase, its held tick and the order of ties. So
// NewTicker(time.Nanosecond) and an Advance of an hour cost one instant,
// not 3.6e12, and a loop that reads a fast ticker and then sleeps costs an
// instant or two per sleep.
//
// # Concurrent use
//
// A Fake is safe for concurrent use, outside a bubble, and its advances add
// up: two goroutines that each advance it by 1ms a thousand times move it
// by exactly 2s, and an AfterFunc callback that advances it inside another
// Advance adds its own duration. In a bubble, advance from one goroutine at
// a time (synctest.Wait allows no more).
//
// # Fleets
//
// A Fleet runs many copies of one loop in one virtual timeline, each with
// its own *rand.Rand derived from the fleet's seed, started in lockstep
// (or staggered: Starts tells when each copy started), and returns every
// copy's event times, or streams them to a Sink in time order. Run takes
// the loop's own code and runs it in synctest bubbles (one per core without
// a Sink), one goroutine, one Fake and one context per copy, moving the
// copies in rounds: each fires the next instant of every copy of a tile of
// 256 at once and ends with one settle, so that the events depend on the
// seed alone, and each tile runs through its rounds before the next, so
// that the goroutines it wakes stay in the caches. Its cost is the
// goroutines' wake-ups, two per event of a jitter + ticker loop, and the
// timer such a loop makes at each sleep: in CPU time under twice what the
// same wake-ups cost with no clock at all (the docs' fleet table), so
// ten thousand copies for a thousand intervals, ten million events, take
// about 16 s of CPU and 8 s on two cores. RunSchedule
// takes the loop as its schedule (the next event from the last) and runs
// it with no goroutine per copy, spread over the cores, for fleets of a
// hundred thousand. A test that runs both on one seed and compares them
// keeps the schedule true to the code (examples/loops does so for every
// shape). A copy that panics or makes events without letting time move is
// stopped with a *FleetError that names it and the seed that replays it.
// A fleet has at most 1<<20 (1,048,576) copies: a larger one would not fit
// in memory, and Starts, Run and RunSchedule return an error for it.
//
// # fakeclock or testing/synctest
//
// Code that calls package time directly needs no Clock: test it inside
// synctest.Test, where package time itself is virtual. Use fakeclock when
// the code takes a clock or must let production choose one, when a test
// must stop time at an instant of its choosing and look (a bubble's clock
// jumps ahead by itself whenever everything is blocked), when a test needs
// WaitArmed's report of what is armed, or to drive many loops in one
// timeline from one goroutine. Test is a bubble, so code in it may use
// both.
package fakeclock
