package loops

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// The loops written the wrong way, each a small variant of a shape of the package, for the
// claims' tests to show that the checks reject them.

// withWork returns do followed by work of the given duration on c: the thing takes time.
func withWork(c fakeclock.Clock, work time.Duration, do func()) func() {
	return func() {
		do()
		c.Sleep(work)
	}
}

// jitterAfterWork jitters after the thing instead of before it: do, sleep, wait for the tick.
// Every copy does the thing on the tick, so a fleet started together stays together.
func jitterAfterWork(ctx context.Context, c fakeclock.Clock, r *rand.Rand, do func()) {
	tick := c.NewTicker(interval)
	defer tick.Stop()
	for ctx.Err() == nil {
		do()
		if !sleep(ctx, c, randN(r, interval)) || !wait(ctx, tick.C) {
			return
		}
	}
}

// jitterAfterWork's schedule is TickerSchedule: its draws never move an event.

// jitterThenSleep jitters, does the thing, then sleeps an interval: a jitter without a ticker,
// so that the sleeps add up and the k-th event leaves the k-th interval.
func jitterThenSleep(ctx context.Context, c fakeclock.Clock, r *rand.Rand, do func()) {
	for ctx.Err() == nil {
		if !sleep(ctx, c, randN(r, interval)) {
			return
		}
		do()
		if !sleep(ctx, c, interval) {
			return
		}
	}
}

// randomSleepOver returns a random sleep loop whose sleeps are drawn from [0, n) plus extra:
// rand.N(interval) (twice the rate), or rand.N(2*interval) + interval/2 (a pace that slips).
func randomSleepOver(n, extra time.Duration) fakeclock.Loop {
	return func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, do func()) {
		for ctx.Err() == nil {
			do()
			if !sleep(ctx, c, randN(r, n)+extra) {
				return
			}
		}
	}
}

// alternatingSleep sleeps a quarter interval and then seven quarters, by turns: the right mean
// and the right range, but no hot or cold run, as a sleep read from a clock that steps round
// the range would be.
func alternatingSleep(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, do func()) {
	for k := 0; ctx.Err() == nil; k++ {
		do()
		d := interval / 4
		if k%2 == 1 {
			d = 7 * interval / 4
		}
		if !sleep(ctx, c, d) {
			return
		}
	}
}

// reoffsetOverTwo re-offsets by a sleep in [0, 2*interval): Batch events per Batch + 1
// intervals on average, not per Batch + 1/2.
func reoffsetOverTwo(ctx context.Context, c fakeclock.Clock, r *rand.Rand, do func()) {
	for ctx.Err() == nil {
		if !sleep(ctx, c, randN(r, 2*interval)) || !batch(ctx, c, interval, do) {
			return
		}
	}
}

// reoffsetAfterBatch runs its batch first and re-offsets after it: a fleet started together
// makes its first batch together.
func reoffsetAfterBatch(ctx context.Context, c fakeclock.Clock, r *rand.Rand, do func()) {
	for ctx.Err() == nil {
		if !batch(ctx, c, interval, do) || !sleep(ctx, c, randN(r, interval)) {
			return
		}
	}
}

// reoffsetAfterBatchSchedule is its schedule: a batch from the start, then each batch a
// random sleep in [0, interval) after the previous batch's last interval.
func reoffsetAfterBatchSchedule(r *rand.Rand) func(time.Duration) time.Duration {
	j := -1
	return func(last time.Duration) time.Duration {
		switch j++; {
		case j == 0:
			return last
		case j < Batch:
			return last + interval
		}
		j = 0
		return last + interval + randN(r, interval)
	}
}
