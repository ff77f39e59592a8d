package sizing

import (
	"math"
)

// StuckBitsLimit sizes the lattice check: of the first bits binary digits of the position of
// each of n values in their range, B counts those on which all n values agree (a stuck bit of
// the source, or the missing low bits of a generator with too few). It returns the smallest b
// with P(B >= b) <= alpha: the check fails when B >= b.
//
// The bound holds for any distribution whose values land in each set of b digit patterns with
// probability at most 2^-b (1 + slack): for n draws of a uniform position on a grid of W cells,
// slack = 2^(bits+1)/W; for a position within r of a continuous uniform, slack = 2^(bits+1) r.
// Then n values agree on a given set S of b digits with probability sum_c q_c^n <=
// max_c q_c^(n-1), and by the union bound over the C(bits, b) sets,
//
//	P(B >= b) <= C(bits, b) (2^-b (1 + slack))^(n-1),
//
// which StuckBitsTail returns. It returns a *TooSmallError when no b up to bits meets alpha,
// and an *InputError for bits outside [1, 64] or slack outside [0, 1).
func StuckBitsLimit(bits, n int, alpha, slack float64) (int, error) {
	if err := checkStuckBits("StuckBitsLimit", bits, n, slack); err != nil {
		return 0, err
	}
	if err := checkAlpha("StuckBitsLimit", alpha); err != nil {
		return 0, err
	}
	la := math.Log(alpha) - logMargin
	for b := 1; b <= bits; b++ {
		if stuckBitsLogBound(bits, n, b, slack) <= la {
			return b, nil
		}
	}
	// The bound at b falls as n grows, below alpha from 1 + (ln C(bits, b) - ln alpha) / (b ln 2
	// - ln(1 + slack)) on: the smallest over b is the n needed.
	need := math.Inf(1)
	for b := 1; b <= bits; b++ {
		need = min(need, 1+math.Ceil((logChoose(bits, b)-la)/(float64(b)*math.Ln2-math.Log1p(slack))))
	}
	return 0, tooSmall("StuckBitsLimit", "lattice", n, needInt(need), alpha)
}

// StuckBitsTail returns the bound on P(B >= b) of StuckBitsLimit, at most 1: the probability
// that n values agree on b or more of their first bits binary digits.
func StuckBitsTail(bits, n, b int, slack float64) (float64, error) {
	if err := checkStuckBits("StuckBitsTail", bits, n, slack); err != nil {
		return 0, err
	}
	if b <= 0 {
		return 1, nil
	}
	if b > bits {
		return 0, nil
	}
	// P(B >= b) <= P(B >= b') for b' <= b: the least of the bounds so far.
	best := 0.0
	for k := 1; k <= b; k++ {
		best = min(best, stuckBitsLogBound(bits, n, k, slack))
	}
	return math.Exp(best), nil
}

func checkStuckBits(fn string, bits, n int, slack float64) error {
	if bits < 1 || bits > 64 {
		return inputErr(fn, "bits = %d, want 1 <= bits <= 64", bits)
	}
	if math.IsNaN(slack) || slack < 0 || slack >= 1 {
		return inputErr(fn, "slack = %v, want 0 <= slack < 1", slack)
	}
	return checkN(fn, n)
}

// stuckBitsLogBound returns the log of C(bits, b) (2^-b (1 + slack))^(n-1).
func stuckBitsLogBound(bits, n, b int, slack float64) float64 {
	return logChoose(bits, b) + float64(n-1)*(math.Log1p(slack)-float64(b)*math.Ln2)
}

// logChoose returns ln C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
