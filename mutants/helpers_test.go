package mutants

import "time"

// steppingNow returns the Now of a clock that starts at start and advances by step after
// each reading: a deterministic fine clock for ClockSource (a step of zero is a clock too
// coarse to move between calls).
func steppingNow(start time.Time, step time.Duration) func() time.Time {
	return (&steppingClock{now: start, step: step}).Now
}
