package loops

import (
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// The loops as their schedules, for fleets too large for a goroutine each
// (fakeclock.Fleet.RunSchedule): each gives a copy's next event from its
// last, drawing from r exactly as the loop does, so that the same seed
// gives the same events (TestSchedulesMatchLoops checks it on every shape).

// SleepAfterWorkSchedule is SleepAfterWork's schedule: an event at the
// start and one every interval after, since do takes no virtual time.
func SleepAfterWorkSchedule(interval time.Duration) fakeclock.Schedule {
	return func(*rand.Rand) func(time.Duration) time.Duration {
		first := true
		return func(last time.Duration) time.Duration {
			if first {
				first = false
				return last
			}
			return last + interval
		}
	}
}

// TickerSchedule is Ticker's: the start, then the ticker's grid.
func TickerSchedule(interval time.Duration) fakeclock.Schedule {
	return SleepAfterWorkSchedule(interval)
}

// RandomSleepSchedule is RandomSleep's: the start, then a random sleep in
// [0, 2*interval) after each event.
func RandomSleepSchedule(interval time.Duration) fakeclock.Schedule {
	return func(r *rand.Rand) func(time.Duration) time.Duration {
		first := true
		return func(last time.Duration) time.Duration {
			if first {
				first = false
				return last
			}
			return last + randN(r, 2*interval)
		}
	}
}

// JitterTickerSchedule is JitterTicker's: event k at start + k*interval
// plus a random sleep in [0, interval).
func JitterTickerSchedule(interval time.Duration) fakeclock.Schedule {
	return JitterWindowSchedule(interval, interval)
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

// ReoffsetSchedule is Reoffset's: each batch starts a random sleep in
// [0, interval) after the previous batch's last interval ends, and makes
// Batch events one interval apart.
func ReoffsetSchedule(interval time.Duration) fakeclock.Schedule {
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

// ReoffsetTickerSchedule is ReoffsetTicker's: batch m starts at
// start + m*(Batch+1)*interval plus a random offset in [0, interval), drawn
// as the batch begins, and makes Batch events one interval apart.
func ReoffsetTickerSchedule(interval time.Duration) fakeclock.Schedule {
	return func(r *rand.Rand) func(time.Duration) time.Duration {
		m, j := time.Duration(-1), Batch
		var start, batchStart time.Duration
		return func(last time.Duration) time.Duration {
			if m < 0 {
				start = last
			}
			if j == Batch {
				m, j = m+1, 0
				batchStart = start + m*(Batch+1)*interval + randN(r, interval)
			}
			j++
			return batchStart + time.Duration(j-1)*interval
		}
	}
}
