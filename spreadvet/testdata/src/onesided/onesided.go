// Package onesided offsets delays from their anchors.
package onesided

import (
	"math/rand/v2"
	"time"
)

// PlusMinus25 should spread d by ±25%, but only adds.
func PlusMinus25(d time.Duration) time.Duration { // want PlusMinus25:"random\\(rand.Float64\\)"
	f := float64(d)
	// ±25% jitter
	f += rand.Float64() * 0.25 * f // want `one-sided offset: the comment says ± but rand.Float64\(\) \* 0.25 \* f never changes sign`
	return time.Duration(f)
}

// Scale multiplies d by 1 ± 10% (it says), but the factor is in [1, 1.1).
func Scale(d float64) float64 { // want Scale:"random\\(rand.Float64, Uniform\\[1\\*\\$0, 1.1\\*\\$0\\)\\)"
	return d * (1 + 0.1*rand.Float64()) // want `one-sided offset: the comment says ± but \(1 \+ 0.1\*rand.Float64\(\)\) never changes sign`
}

// Up adds a one-sided jitter on top of d, it says, but the offset goes both ways.
func Up(d float64) float64 { // want Up:"random\\(rand.Float64, Uniform\\[0.9\\*\\$0, 1.1\\*\\$0\\)\\)"
	return d + (2*rand.Float64()-1)*0.1*d // want `two-sided offset: the comment says one-sided but \(2\*rand.Float64\(\)-1\)\*0.1\*d takes both signs`
}

// Not flagged: symmetric jitter written correctly, each way.

// Symmetric spreads d by ±25%.
func Symmetric(d float64) float64 { // want Symmetric:"random\\(rand.Float64, Uniform\\[0.75\\*\\$0, 1.25\\*\\$0\\)\\)"
	return d + (2*rand.Float64()-1)*0.25*d
}

// SymmetricInt spreads d by ± j nanoseconds.
func SymmetricInt(d, j time.Duration) time.Duration { // want SymmetricInt:"random\\(rand.N, Uniform\\[-1\\*\\$1\\+1\\*\\$0, 1\\*\\$0\\+1\\*\\$1\\)\\)"
	return d + rand.N(2*j) - j
}

// Interval is ±factor around the current interval, as in cenkalti/backoff.
func Interval(factor, random float64, current time.Duration) time.Duration {
	delta := factor * float64(current)
	lo := float64(current) - delta
	hi := float64(current) + delta
	return time.Duration(lo + (random * (hi - lo + 1)))
}

// Full jitter is [0, d): no claim of symmetry.
func Full(d float64) float64 { // want Full:"random\\(rand.Float64, Uniform\\[0, 1\\*\\$0\\)\\)"
	return rand.Float64() * d
}

// RandSymBand returns a random symmetric positive definite band matrix (as gonum's lapack
// tests do): its diagonal gets n plus a draw. "Symmetric" is about the matrix, not the
// offset: not flagged.
func RandSymBand(n int, rnd *rand.Rand) []float64 { // want RandSymBand:"random\\(rand.Float64\\)"
	ab := make([]float64, n)
	for i := range ab {
		ab[i] = float64(n) + rnd.Float64()
	}
	return ab
}

// CoinFlip spreads d by ± j with a coin flip, a symmetric offset written another way: not
// flagged.
func CoinFlip(d, j time.Duration) time.Duration { // want CoinFlip:"random\\(rand.Float64\\)"
	if rand.Float64() < 0.5 {
		return d + j
	}
	return d - j
}
