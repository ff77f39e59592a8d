package testreport

import (
	"fmt"
	"math"
)

// Confidence is the confidence level of every interval the runner reports: the two-sided
// Clopper-Pearson interval of a failure rate (sizing.ClopperPearson), which covers the true rate
// in at least 95% of sessions whatever the rate, and Newcombe's interval of a change in rate
// (sizing.NewcombeInterval). After 0 failures in 500 runs the first is [0, 0.74%].
//
// The one-sided bound 1 - 0.05^(1/n) (0.6% after 500 runs) is tighter at 0 failures, but
// switching to it only then lowers the coverage of the whole procedure to 93.9% at n = 500, so
// the runner does not: it states that bound as what the runs can detect (see RunsToDetect).
const Confidence = 0.95

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
