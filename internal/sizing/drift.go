package sizing

import (
	"math"
)

// UniformSumTol returns the two-sided tolerance on the sum S of k independent draws, each
// uniform over the w integers 0..w-1 (rand.N(w) on nanoseconds): P(|S - k(w-1)/2| >= tol) <=
// alpha. It sizes the drift of a loop that sleeps a random duration: after k sleeps its clock
// is S past its start, and S wanders like sqrt(k).
//
// It is a proven bound, tol = sd sqrt(2 k ln(2/alpha)) with sd^2 = (w^2-1)/12 the variance of
// one draw, from Chernoff's inequality and the fact that a uniform draw over equally spaced
// values is strictly sub-Gaussian: its centred moment generating function is
// sinh(w x)/(w sinh x) with x = lambda/2, and by the product sinh(y)/y = prod(1 + y^2/(j pi)^2)
// each factor of the ratio is (1 + w^2 a)/(1 + a) <= exp((w^2-1) a) with a = x^2/(j pi)^2,
// so the ratio is at most exp((w^2-1) x^2/6) = exp(lambda^2 sd^2/2). It is 5% (alpha = 1e-12)
// to 10% (alpha = 1e-6) wider than the normal quantile, and never too narrow, however small k.
// For w = 1 the sum is constant and tol is 1/2: any deviation fails.
func UniformSumTol(w uint64, k int, alpha float64) (float64, error) {
	if w < 1 {
		return 0, inputErr("UniformSumTol", "w = %d values, want w >= 1", w)
	}
	if err := checkN("UniformSumTol", k); err != nil {
		return 0, err
	}
	if err := checkAlpha("UniformSumTol", alpha); err != nil {
		return 0, err
	}
	if w == 1 {
		// The sum is the constant 0: any deviation fails, and the integers deviate by 1 or more.
		return 0.5, nil
	}
	wf := float64(w)
	sd := math.Sqrt((wf - 1) * (wf + 1) / 12) // (w^2-1)/12 without overflow for w near 2^63
	l := math.Ln2 - math.Log(alpha)           // ln(2/alpha)
	return finite("UniformSumTol", "tolerance", sd*math.Sqrt(2*float64(k)*l))
}
