package loops

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

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

// ReoffsetDrifting is Reoffset without its outer ticker, the first way of
// re-offsetting: a random sleep in [0, interval), then Batch events on a
// fixed ticker, and again. Its gaps are one interval within a batch and one
// to two between batches, Batch events per Batch + 1/2 intervals on
// average; its pace drifts like a random sleep's, one sleep per batch.
func ReoffsetDrifting(ctx context.Context, c fakeclock.Clock, interval time.Duration, r *rand.Rand, do func()) {
	for ctx.Err() == nil {
		if !sleep(ctx, c, randN(r, interval)) || !batch(ctx, c, interval, do) {
			return
		}
	}
}

// JitterWindowSchedule is JitterWindow's schedule: event k at start +
// k*interval plus a random sleep in [0, window).
func JitterWindowSchedule(interval, window time.Duration) fakeclock.Schedule {
	return func(r *rand.Rand) func(time.Duration) time.Duration {
		k, start := time.Duration(-1), time.Duration(0)
		return func(last time.Duration) time.Duration {
			if k++; k == 0 {
				start = last
			}
			return start + k*interval + randN(r, window)
		}
	}
}

// ReoffsetDriftingSchedule is ReoffsetDrifting's: each batch starts a
// random sleep in [0, interval) after the previous batch's last interval
// ends, and makes Batch events one interval apart.
func ReoffsetDriftingSchedule(interval time.Duration) fakeclock.Schedule {
	return func(r *rand.Rand) func(time.Duration) time.Duration {
		j, first := Batch, true
		var batchStart time.Duration
		return func(last time.Duration) time.Duration {
			if j == Batch {
				if !first { // a batch's last interval ends one interval after its last event
					last += interval
				}
				batchStart, j, first = last+randN(r, interval), 0, false
			}
			j++
			return batchStart + time.Duration(j-1)*interval
		}
	}
}
