// Package loops holds the shapes of a loop that does a thing once per
// interval, forever, as a fleet of agents runs it, each written against
// fakeclock.Clock so that a test drives it in virtual time: sleep after
// work, a ticker, a random sleep, jitter plus a ticker (over the whole
// interval or a window of it), and a fixed ticker re-offset by a random
// sleep every 32 ticks, alone (Reoffset) or inside an outer ticker
// (ReoffsetTicker). Each has its schedule (the next event from the last)
// for fleets too large for a goroutine each, and the names are those of
// the spread.Schedule that declares the shape: loops.Reoffset follows
// spread.Reoffset, loops.ReoffsetTicker spread.ReoffsetTicker.
//
// Each loop calls do at each event and returns when ctx is done. Its
// randomness comes from the *rand.Rand (math/rand/v2) it is given, as a
// duration in [0, n) from r.Int64N(n), so that a test can seed it and
// replay it. A *rand.Rand is not safe for concurrent use: give each loop
// its own. Production passes fakeclock.Real() and a generator seeded from
// the global source, which Go seeds at random when the program starts:
//
//	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
//	go loops.JitterTicker(ctx, fakeclock.Real(), time.Minute, r, poll)
//
// (or rand.New(rand.NewChaCha8(seed)) with a seed read from crypto/rand,
// where the loops' phases must not be guessable).
package loops

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// randN returns a random duration in [0, n) from r.
func randN(r *rand.Rand, n time.Duration) time.Duration {
	return time.Duration(r.Int64N(int64(n)))
}

// sleep waits d on c, or until ctx is done; it reports whether d passed.
func sleep(ctx context.Context, c fakeclock.Clock, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// wait receives from tick, or returns false once ctx is done.
func wait(ctx context.Context, tick <-chan time.Time) bool {
	select {
	case <-tick:
		return true
	case <-ctx.Done():
		return false
	}
}

// SleepAfterWork does the thing, then sleeps interval: the time do takes
// adds to the period, so it runs less often than once per interval.
func SleepAfterWork(ctx context.Context, c fakeclock.Clock, interval time.Duration, do func()) {
	for ctx.Err() == nil {
		do()
		if !sleep(ctx, c, interval) {
			return
		}
	}
}

// Ticker does the thing, then waits for the next tick: it stays on the
// ticker's grid however long do takes (up to one interval).
func Ticker(ctx context.Context, c fakeclock.Clock, interval time.Duration, do func()) {
	tick := c.NewTicker(interval)
	defer tick.Stop()
	for ctx.Err() == nil {
		do()
		if !wait(ctx, tick.C) {
			return
		}
	}
}

// RandomSleep does the thing, then sleeps a random duration in
// [0, 2*interval): one event per interval on average, with hot and cold
// runs.
func RandomSleep(ctx context.Context, c fakeclock.Clock, interval time.Duration, r *rand.Rand, do func()) {
	for ctx.Err() == nil {
		do()
		if !sleep(ctx, c, randN(r, 2*interval)) {
			return
		}
	}
}

// JitterTicker sleeps a random duration in [0, interval), does the thing,
// then waits for the next tick: the k-th event falls in
// [k*interval, (k+1)*interval), and two events are 0 to 2 intervals apart.
func JitterTicker(ctx context.Context, c fakeclock.Clock, interval time.Duration, r *rand.Rand, do func()) {
	JitterWindow(ctx, c, interval, interval, r, do)
}

// JitterWindow is JitterTicker with its random sleep drawn from [0, window)
// rather than the whole interval: "jitter only half the interval", or "a
// fixed 100 ms window", to bound the time between two events. One loop
// keeps its pace, but a fleet started in lockstep stays packed into the
// window's share of every interval.
func JitterWindow(ctx context.Context, c fakeclock.Clock, interval, window time.Duration, r *rand.Rand, do func()) {
	tick := c.NewTicker(interval)
	defer tick.Stop()
	for ctx.Err() == nil {
		if !sleep(ctx, c, randN(r, window)) {
			return
		}
		do()
		if !wait(ctx, tick.C) {
			return
		}
	}
}

// Batch is how many fixed ticks Reoffset and ReoffsetTicker run between two
// random offsets.
const Batch = 32

// Reoffset runs batches of Batch fixed ticks, each after a random sleep in
// [0, interval): its gaps are one interval within a batch and one to two
// between batches, Batch events per Batch + 1/2 intervals on average, and
// its pace drifts like a random sleep's, one sleep per batch. Its schedule
// is spread.Reoffset(interval, Batch).
func Reoffset(ctx context.Context, c fakeclock.Clock, interval time.Duration, r *rand.Rand, do func()) {
	for ctx.Err() == nil {
		if !sleep(ctx, c, randN(r, interval)) || !batch(ctx, c, interval, do) {
			return
		}
	}
}

// ReoffsetTicker is Reoffset inside an outer ticker: it starts a batch every
// Batch+1 intervals, each offset by a random sleep in [0, interval), so
// that event j of batch m is at m*(Batch+1)*interval + offset_m +
// j*interval: exactly Batch events per Batch+1 intervals, on a fixed pace.
// Its schedule is spread.ReoffsetTicker(interval, Batch).
func ReoffsetTicker(ctx context.Context, c fakeclock.Clock, interval time.Duration, r *rand.Rand, do func()) {
	outer := c.NewTicker((Batch + 1) * interval)
	defer outer.Stop()
	for ctx.Err() == nil {
		if !sleep(ctx, c, randN(r, interval)) || !batch(ctx, c, interval, do) {
			return
		}
		if !wait(ctx, outer.C) {
			return
		}
	}
}

// batch does the thing Batch times on a fixed ticker.
func batch(ctx context.Context, c fakeclock.Clock, interval time.Duration, do func()) bool {
	tick := c.NewTicker(interval)
	defer tick.Stop()
	for range Batch {
		do()
		if !wait(ctx, tick.C) {
			return false
		}
	}
	return true
}
