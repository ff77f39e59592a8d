package sizing

import (
	"fmt"
	"math"
)

// Sidak returns the per-part false-failure rate a that gives a total rate of alpha over k
// independent parts: 1 - (1 - a)^k = alpha.
//
// It is computed as -expm1(log1p(-alpha)/k), which keeps full precision at alpha = 1e-12,
// where the textbook form 1 - (1 - alpha)^(1/k) loses most of its digits.
func Sidak(alpha float64, k int) (float64, error) {
	if err := checkAlpha(alpha); err != nil {
		return 0, err
	}
	if k < 1 {
		return 0, fmt.Errorf("sizing: Sidak over k = %d parts, want k >= 1", k)
	}
	if k == 1 {
		return alpha, nil // exactly, where the formula could round up by an ulp
	}
	return -math.Expm1(math.Log1p(-alpha) / float64(k)), nil
}

// Combine returns the total false-failure rate 1 - prod(1 - a_i) of independent parts with
// rates alphas. It returns 0 for no parts and NaN if any rate is NaN or outside [0, 1].
func Combine(alphas ...float64) float64 {
	var logPass float64 // log of the probability that every part passes
	for _, a := range alphas {
		if math.IsNaN(a) || a < 0 || a > 1 {
			return math.NaN()
		}
		logPass += math.Log1p(-a)
	}
	return -math.Expm1(logPass)
}

// SuiteAlpha returns the false-failure rate of one check when a suite of checks checks is run
// runs times and the whole series may fail with probability total: Sidak(total, checks*runs).
func SuiteAlpha(total float64, checks, runs int) (float64, error) {
	if checks < 1 || runs < 1 {
		return 0, fmt.Errorf("sizing: SuiteAlpha with checks = %d and runs = %d, want both >= 1", checks, runs)
	}
	if checks > math.MaxInt/runs {
		return 0, fmt.Errorf("sizing: SuiteAlpha: checks*runs = %d*%d overflows int", checks, runs)
	}
	return Sidak(total, checks*runs)
}
