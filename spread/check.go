package spread

import (
	"testing"
)

// Check runs the default battery of checks (bounds, distinct, mean, coverage, fit, lattice,
// independence) on xs against the declared distribution, and fails t with one report that
// explains every failing check: the observed statistic, its limit, the false-failure rate and
// how the limit was derived, how far outside it the statistic is, the kind of broken randomness
// it suggests, a histogram of the sample, and the seed and command that replay the test.
//
// By construction Check fails a correct implementation with probability at most the
// false-failure rate (default 1e-9 for the whole call; see FalseFailureRate), so a test built on
// it does not flake. Input it cannot judge (see Analyze) fails t with the reason; a nil t,
// with no test to fail, panics with a message that says so (as do CheckLoop and CheckFleet).
//
// Check records the call's false-failure rate with t.Attr("spreadcheck.alpha", ...), so that
// go test -json carries it and the spreadcheck command can compare a test's observed failure
// rate with the rate its checks allow.
func Check[T Number](t testing.TB, xs []T, want Dist[T], opts ...Option) {
	needTest(t, "Check(nil, ...)")
	t.Helper()
	r, err := Analyze(xs, want, opts...)
	fail(t, r, err)
}
