// Package jitter is the module a suggested spread.Check is proven on: the fixed test passes
// this jitter and fails a collapsed one, which the blind test passes.
package jitter

import (
	"math/rand/v2"
	"time"
)

// Equal waits at least half of d and jitters the other half.
func Equal(r *rand.Rand, d time.Duration) time.Duration {
	return d/2 + time.Duration(r.Int64N(int64(d/2)))
}
