package sizing

import (
	"math"
)

// Bonferroni returns the per-part false-failure rate alpha/k that gives a total rate of at
// most alpha over k parts, whatever their dependence: P(any part fails) <= k (alpha/k) by the
// union bound. It is the split for the statistics of one sample, which are dependent.
//
// It returns an *InputError when alpha/k falls below MinAlpha.
func Bonferroni(alpha float64, k int) (float64, error) {
	if err := checkAlpha("Bonferroni", alpha); err != nil {
		return 0, err
	}
	if k < 1 {
		return 0, inputErr("Bonferroni", "k = %d parts, want k >= 1", k)
	}
	a := alpha / float64(k)
	if a < MinAlpha {
		return 0, inputErr("Bonferroni", "alpha/k = %.3g/%d is below MinAlpha = 1e-300", alpha, k)
	}
	return a, nil
}

// Sidak returns the per-part false-failure rate a that gives a total rate of alpha over k
// independent parts: 1 - (1 - a)^k = alpha. It is the split for independent runs, each on its
// own seed; it is larger than Bonferroni's alpha/k by a relative (k-1) alpha/2 at most, and
// holds only under independence.
//
// It is computed as -expm1(log1p(-alpha)/k), which keeps full precision at alpha = 1e-12,
// where the textbook form 1 - (1 - alpha)^(1/k) loses most of its digits. It returns an
// *InputError when the share falls below MinAlpha.
func Sidak(alpha float64, k int) (float64, error) {
	if err := checkAlpha("Sidak", alpha); err != nil {
		return 0, err
	}
	if k < 1 {
		return 0, inputErr("Sidak", "k = %d parts, want k >= 1", k)
	}
	if k == 1 {
		return alpha, nil // exactly, where the formula could round up by an ulp
	}
	a := -math.Expm1(math.Log1p(-alpha) / float64(k))
	if a < MinAlpha {
		return 0, inputErr("Sidak", "the share of alpha = %.3g over k = %d parts is below MinAlpha = 1e-300", alpha, k)
	}
	return a, nil
}

// Combine returns the total false-failure rate 1 - prod(1 - a_i) of independent parts with
// rates alphas, and 0 for no parts. It returns an *InputError if a rate is not in [0, 1].
func Combine(alphas ...float64) (float64, error) {
	var logPass float64 // log of the probability that every part passes
	for i, a := range alphas {
		if math.IsNaN(a) || a < 0 || a > 1 {
			return 0, inputErr("Combine", "alphas[%d] = %v is outside [0, 1]", i, a)
		}
		logPass += math.Log1p(-a)
	}
	return -math.Expm1(logPass), nil
}

// SuiteAlpha returns the false-failure rate of one check when a suite of checks checks is run
// runs times, each run on its own seed, and the whole series may fail with probability total.
// The runs are independent, so they share total by Sidak; the checks of one run may depend on
// each other, so they share a run's rate by Bonferroni: Bonferroni(Sidak(total, runs), checks).
func SuiteAlpha(total float64, checks, runs int) (float64, error) {
	if checks < 1 || runs < 1 {
		return 0, inputErr("SuiteAlpha", "checks = %d and runs = %d, want both >= 1", checks, runs)
	}
	run, err := Sidak(total, runs)
	if err != nil {
		return 0, err
	}
	return Bonferroni(run, checks)
}
