// Package onlyfailing has a draw that only a test failing every run reaches, and one that a
// flaky test reaches: no healthy test covers the first, and the second's test is too flaky
// for 20 runs to tell a mutant by.
package onlyfailing

import (
	"math/rand/v2"
	"time"
)

// Jitter returns a number in [0, n).
func Jitter(n int) int {
	return rand.IntN(n)
}

// Spread returns a delay in [0, d).
func Spread(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}
