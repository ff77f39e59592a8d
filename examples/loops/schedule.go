package loops

import (
	"math/rand/v2"
	"time"
)

// The loops as their schedules, for fleets too large for a goroutine each
// (fakeclock.Fleet.RunSchedule): a copy's next event from its last, drawing
// from r exactly as the loop does, so that the same seed gives the same
// events (TestSchedulesMatchLoops checks it on every shape). The loops that
// keep to a shape of package spread run as their declaration's Next
// (spread.JitterTicker(interval, interval).Next for JitterTicker): the
// declaration a fleet is checked against also drives it.

// SleepAfterWorkSchedule is SleepAfterWork's schedule, which no declaration
// of package spread describes (it is one of the wrong ways): an event at
// the start and one every interval after, since do takes no virtual time.
func SleepAfterWorkSchedule(interval time.Duration) func(*rand.Rand) func(time.Duration) time.Duration {
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
