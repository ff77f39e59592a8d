// Package pick chooses with a draw function that its callers pass as an argument, as
// samber/lo's Sample passes its IntN to SampleBy: a draw or another package's wrapper named
// as an argument (Sample, Any, Seeded, Jittered) is a site at the argument; the calls through
// the parameter in SampleBy and Scale are not, so that what a test passes instead (a
// function that always picks the first) is left alone. First passes a function that is no
// draw, Local a function of this package whose own draw is the site.
package pick

import (
	"math/rand/v2"

	"example.com/funcarg/randutil"
)

// gen returns an index in [0, n).
type gen func(n int) int

// SampleBy returns the element of xs at the index that g gives.
func SampleBy[T any](xs []T, g gen) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	return xs[g(len(xs))]
}

// Sample returns a random element of xs.
func Sample[T any](xs []T) T { return SampleBy(xs, randutil.IntN) }

// Any returns a random element of xs.
func Any(xs []int) int { return SampleBy(xs, rand.IntN) }

// Seeded returns an element of xs drawn from r.
func Seeded(xs []int, r *rand.Rand) int { return SampleBy(xs, r.IntN) }

// Scale returns d scaled by a factor in [0.5, 1.5) that u gives.
func Scale(d float64, u func() float64) float64 { return d * (0.5 + u()) }

// Jittered returns d with a random factor in [0.5, 1.5).
func Jittered(d float64) float64 { return Scale(d, rand.Float64) }

func first(int) int { return 0 }

// First returns the first element of xs.
func First(xs []int) int { return SampleBy(xs, first) }

func local(n int) int { return rand.IntN(n) }

// Local returns a random element of xs through a function of this package.
func Local(xs []int) int { return SampleBy(xs, local) }
