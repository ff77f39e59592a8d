package sizing

import "github.com/spreadcheck/spreadcheck/internal/sizing"

// The domain every function of the package accepts.
const (
	// MinAlpha is the smallest false-failure rate the package sizes a check for. No test needs
	// a rate anywhere near it (the default of package spread is 1e-9 for a whole call), and
	// below it the exact computations would reach the end of float64's range.
	MinAlpha = sizing.MinAlpha
	// MaxN is the largest sample size the package accepts: 2^53, where float64 still counts
	// every integer.
	MaxN = sizing.MaxN
)

// An InputError reports an argument outside a function's domain, or an answer that would be
// out of range (not finite, or beyond MaxN). Func names the function, Reason what is wrong.
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

// Bonferroni returns alpha/k, the share of each of k checks that may depend on each other,
// so that together they fail with probability at most alpha.
func Bonferroni(alpha float64, k int) (float64, error) { return sizing.Bonferroni(alpha, k) }

// MeanZ returns the two-sided tolerance z*sd/sqrt(n) on the mean of n draws from a
// distribution with standard deviation sd, z the normal quantile of alpha/2: the check fails
// when |mean - mu| > tol. It is the central-limit approximation, not a bound; for the
// uniform distribution it is conservative whenever alpha <= 0.07.
func MeanZ(sd float64, n int, alpha float64) (float64, error) { return sizing.MeanZ(sd, n, alpha) }

// MeanSampleSize returns the n at which a two-sided z check of the mean at false-failure rate
// alpha detects a true shift of the mean by shift with probability 1-beta, for draws with
// standard deviation sd: ceil(((z_{alpha/2} + z_beta) sd / shift)^2), at least 1.
func MeanSampleSize(sd, shift, alpha, beta float64) (int, error) {
	return sizing.MeanSampleSize(sd, shift, alpha, beta)
}

// RepeatsLimit returns the smallest m with P(R >= m) <= alpha, where R = n - (number of
// distinct values) counts the repeats among n independent draws from w equally likely values
// (or values of probability at most 1/w each): the check fails when R >= m.
func RepeatsLimit(w float64, n int, alpha float64) (m int, err error) {
	m, _, err = sizing.RepeatsLimit(w, n, alpha)
	return m, err
}

// AscentsInterval returns the acceptance interval [lo, hi] for the number of ascents
// (x[i+1] > x[i]) among n independent draws from one continuous distribution: the check
// fails when it is below lo or above hi, each with probability <= alpha/2 (a value read from
// a clock climbs, and fails it). It returns a *TooSmallError when no count could fail.
func AscentsInterval(n int, alpha float64) (lo, hi int, err error) {
	lo, hi, _, err = sizing.AscentsInterval(n, alpha)
	return lo, hi, err
}

// KSCritical returns the smallest d with P(D_n >= d) <= alpha for the two-sided
// Kolmogorov-Smirnov statistic D_n = sup|F_n - F| of n i.i.d. values from a continuous F: a
// fit check fails when D_n >= d. d is exact, or a proven bound a little above it.
func KSCritical(n int, alpha float64) (d float64, err error) {
	d, _, err = sizing.KSCritical(n, alpha)
	return d, err
}

// ClopperPearson returns the two-sided Clopper-Pearson interval for a rate after k events in n
// trials (a test that failed k times in n runs), at confidence 1 - alpha: it covers the true
// rate in at least that share of samples, whatever the rate. It returns an *InputError unless
// 1 <= n <= 2^32, 0 <= k <= n and alpha is in [MinAlpha, 1).
func ClopperPearson(k, n int, alpha float64) (lo, hi float64, err error) {
	return sizing.ClopperPearson(k, n, alpha)
}
