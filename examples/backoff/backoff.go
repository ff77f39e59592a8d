// Package backoff holds the common retry backoff schemes, written as a small real package
// whose randomness is injected, so that its tests can seed it and replay a failure.
//
// Full, Equal and Decorrelated are the jitter schemes from Marc Brooker's writing on backoff at
// AWS; Percent is the common "+-p of the delay" jitter. ClockJitter is a bug that shipped
// in a real ad platform: a "random" sign read from a clock, one value on every call.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Full returns a wait anywhere in [0, d): the widest spread, and no minimum gap.
func Full(r *rand.Rand, d time.Duration) time.Duration {
	return time.Duration(r.Int64N(int64(d)))
}

// Equal keeps half of d as a floor and randomises the other half: a wait in [d/2, d).
func Equal(r *rand.Rand, d time.Duration) time.Duration {
	return d/2 + time.Duration(r.Int64N(int64(d-d/2)))
}

// Percent returns d spread by a fraction p either way: a wait in [d(1-p), d(1+p)).
func Percent(r *rand.Rand, d time.Duration, p float64) time.Duration {
	lo := time.Duration(float64(d) * (1 - p))
	hi := time.Duration(float64(d) * (1 + p))
	return lo + time.Duration(r.Int64N(int64(hi-lo)))
}

// Decorrelated is decorrelated jitter: each wait is drawn from [Base, 3 x the previous wait),
// capped at Cap. The zero previous wait counts as Base.
type Decorrelated struct {
	Base, Cap time.Duration
	R         *rand.Rand
	prev      time.Duration
}

// Next returns the next wait.
func (d *Decorrelated) Next() time.Duration {
	d.prev = DecorrelatedStep(d.R, d.Base, d.prev, d.Cap)
	return d.prev
}

// DecorrelatedStep returns the wait that follows a wait of prev: uniform over
// [base, 3 max(prev, base)), capped at limit.
func DecorrelatedStep(r *rand.Rand, base, prev, limit time.Duration) time.Duration {
	prev = max(prev, base)
	return min(limit, base+time.Duration(r.Int64N(int64(3*prev-base))))
}

// ClockJitter is the story's bug, kept to show that the kit catches it: "+-25%" jitter whose
// sign is the parity of the clock's nanoseconds. On a clock with microsecond resolution the
// parity never changes (a constant); on a fine clock it yields two values, one of them a
// quarter past the ceiling.
func ClockJitter(now func() time.Time, d time.Duration) time.Duration {
	jitter := float64(d) * 0.25 * (2*float64(now().UnixNano()%2) - 1)
	return d + time.Duration(jitter)
}
