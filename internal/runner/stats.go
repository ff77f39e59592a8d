package runner

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the confidence level of every interval the runner reports.
const Confidence = 0.95

// Interval returns the two-sided 95% Clopper-Pearson confidence interval for a failure rate
// after k failures in n runs: it covers the true rate in at least 95% of sessions, whatever the
// rate (the tests check this by exact enumeration). After 0 failures in 500 runs it is
// [0, 0.74%].
//
// The one-sided bound 1 - 0.05^(1/n) (0.6% after 500 runs) is tighter at k = 0, but switching
// to it only when k = 0 lowers the coverage of the whole procedure to 93.9% at n = 500, so the
// runner does not: it states that bound as what the runs can detect (see RunsToDetect).
func Interval(k, n int) (lo, hi float64, err error) {
	if n < 1 || k < 0 || k > n {
		return 0, 0, fmt.Errorf("runner: interval for %d failures in %d runs: want 0 <= k <= n and n >= 1", k, n)
	}
	tail := (1 - Confidence) / 2
	lo, hi = 0, 1
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(tail)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - tail)
	}
	return lo, hi, nil
}

// DetectableRate returns the smallest flake rate that n runs see at least once with 95%
// probability: 1 - 0.05^(1/n), 0.6% for 500 runs. It is the inverse of RunsToDetect.
func DetectableRate(n int) float64 {
	if n < 1 {
		return 1
	}
	return -math.Expm1(math.Log(1-Confidence) / float64(n))
}

// RunsToDetect returns how many runs it takes to see at least one failure of a test that fails
// at the given rate, with 95% probability: the smallest n with (1-rate)^n <= 0.05.
func RunsToDetect(rate float64) (int, error) {
	if math.IsNaN(rate) || rate <= 0 || rate >= 1 {
		return 0, fmt.Errorf("runner: flake rate %v is outside (0, 1)", rate)
	}
	n := math.Ceil(math.Log(1-Confidence) / math.Log1p(-rate))
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("runner: a flake rate of %g needs more than %d runs to detect", rate, math.MaxInt32)
	}
	return max(int(n), 1), nil
}

// TailProb returns the probability of k or more failures in n runs of a test whose failure
// rate is p: how surprising the observed failures would be if the test failed only as often as
// its own sizing allows.
func TailProb(k, n int, p float64) float64 {
	switch {
	case k <= 0:
		return 1
	case k > n:
		return 0
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	// P(X >= k) for X ~ Binomial(n, p) is the regularized incomplete beta I_p(k, n-k+1).
	return mathext.RegIncBeta(float64(k), float64(n-k+1), p)
}

// AllowedRate returns the failure rate per run that checks sized at the given false-failure
// rates allow together: 1 - prod(1 - alpha_i).
func AllowedRate(alphas []float64) float64 {
	// Sum log1p(-a) rather than multiplying, so that rates like 1e-9 do not vanish in 1 - x.
	s := 0.0
	for _, a := range alphas {
		s += math.Log1p(-a)
	}
	return -math.Expm1(s)
}
