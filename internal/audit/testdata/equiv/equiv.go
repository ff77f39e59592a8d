// Package equiv holds a draw for each way a mutant can be equivalent, and two that are not:
// a value discarded, a range of one value, a value truncated away, a value clamped away
// (for every class, and for all but sign-flip), a value overwritten before use (which the
// compiler compiles away), and a live draw.
package equiv

import (
	"math"
	"math/rand/v2"
	"time"
)

// Warm draws and discards the value.
func Warm() {
	_ = rand.Float64()
}

// Zero draws from a range of one value.
func Zero() int {
	return rand.IntN(1)
}

// Broken meant full jitter, but converts the draw to an integer before scaling it: every
// value in [0, 1) truncates to 0.
func Broken(d time.Duration) time.Duration {
	return time.Duration(rand.Float64()) * d
}

// AtLeastOne clamps a draw in [0, 1) to 1.
func AtLeastOne() float64 {
	return math.Max(rand.Float64(), 1)
}

// Floor clamps a draw in [0, 4) to 0 from above: a negated draw gets through.
func Floor() int {
	return min(rand.IntN(4), 0)
}

// Spaced had its jitter switched off by overwriting it; the draw was left in.
func Spaced(d time.Duration) time.Duration {
	j := rand.Float64()
	j = 0.5
	return time.Duration(j * float64(d))
}

// Live is full jitter.
func Live(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}
