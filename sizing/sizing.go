package sizing

import "github.com/spreadcheck/spreadcheck/internal/sizing"

// An InputError reports an argument outside a function's domain (a NaN, a rate outside
// [1e-300, 1), a sample size beyond 2^53, ...), or an answer that would be out of range. Func
// names the function, Reason what is wrong.
type InputError = sizing.InputError

// A TooSmallError reports that a sample of N values is too small to size a check at Alpha:
// no outcome of the sample could make the check fail. Need is the smallest sample size at
// which the check can fail at that rate. Package spread returns it too.
type TooSmallError = sizing.TooSmallError

// SuiteAlpha returns the false-failure rate of one check when a suite of checks checks is run
// runs times, each run on its own seed, and the whole series may fail with probability total.
// The runs are independent, so they share total by Sidak; the checks of one run may depend on
// each other, so they share a run's rate by Bonferroni: Bonferroni(Sidak(total, runs), checks).
func SuiteAlpha(total float64, checks, runs int) (float64, error) {
	return sizing.SuiteAlpha(total, checks, runs)
}

// MeanSampleSize returns the n at which a two-sided z check of the mean at false-failure rate
// alpha detects a true shift of the mean by shift with probability 1-beta, for draws with
// standard deviation sd: ceil(((z_{alpha/2} + z_beta) sd / shift)^2), at least 1.
func MeanSampleSize(sd, shift, alpha, beta float64) (int, error) {
	return sizing.MeanSampleSize(sd, shift, alpha, beta)
}

// ClopperPearson returns the two-sided Clopper-Pearson interval for a rate after k events in n
// trials (a test that failed k times in n runs), at confidence 1 - alpha: it covers the true
// rate in at least that share of samples, whatever the rate. It returns an *InputError unless
// 1 <= n <= 2^32, 0 <= k <= n and alpha is in [1e-300, 1).
func ClopperPearson(k, n int, alpha float64) (lo, hi float64, err error) {
	return sizing.ClopperPearson(k, n, alpha)
}
