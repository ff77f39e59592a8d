// Package subtests jitters a delay; its one test has a subtest that checks only the bounds
// and one that checks the spread, so which subtests -run picks decides the verdicts.
package subtests

import (
	"math/rand/v2"
	"time"
)

// Jitter returns a delay uniform in [d/2, d).
func Jitter(d time.Duration) time.Duration {
	return d/2 + time.Duration(rand.Float64()*float64(d/2))
}
