// Package bidder is the retry backoff of an ad platform's bidder as it shipped and as it was
// fixed: a ±25% jitter whose sign came from the parity of a clock reading, so that it returned
// one value on every call while its test (ten draws into a set, then only "not negative")
// passed, and the full-jitter fix. Its tests replay that history with package mutants: the
// weak test, the fixed test the team wrote after (bounds, half distinct, mean within 5%) and a
// test written with spread.Check, each run against the four mutant classes.
package bidder

import (
	"math"
	"math/rand/v2"
	"time"
)

// Config is a retry policy: exponential backoff from BaseDelay, doubling per attempt,
// capped at MaxDelay, then jittered.
type Config struct {
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// Jitter spreads the capped delay; nil leaves it as it is.
	Jitter func(delay time.Duration) time.Duration
}

// CalculateDelay returns the wait before retry attempt (0 for the first retry).
func CalculateDelay(cfg Config, attempt int) time.Duration {
	delay := float64(cfg.BaseDelay) * math.Pow(2, float64(attempt))
	d := time.Duration(min(delay, float64(cfg.MaxDelay)))
	if cfg.Jitter == nil {
		return d
	}
	return cfg.Jitter(d)
}

// A Clock tells the time; the shipped jitter read one.
type Clock interface {
	Now() time.Time
}

// ShippedJitter returns the jitter as it shipped: ±25% of the delay, up or down by the
// parity of the clock's nanoseconds. On a clock whose readings are all even (a microsecond
// clock, as in production) it is 0.75 * delay on every call; on any clock it can push the
// wait a quarter past the configured ceiling.
func ShippedJitter(clock Clock) func(delay time.Duration) time.Duration {
	return func(d time.Duration) time.Duration {
		delay := float64(d)
		// Add jitter (±25%)
		jitter := delay * 0.25 * (2*float64(clock.Now().UnixNano()%2) - 1)
		delay += jitter
		if delay < 0 { // the defensive branch that covered for the symptom
			delay = 0
		}
		return time.Duration(delay)
	}
}

// FullJitter returns the fix: a wait anywhere in [0, delay), drawn from r. Scaling the
// delay down makes the ceiling a real maximum and never gives a negative wait.
func FullJitter(r *rand.Rand) func(delay time.Duration) time.Duration {
	return func(d time.Duration) time.Duration {
		return time.Duration(r.Float64() * float64(d))
	}
}
