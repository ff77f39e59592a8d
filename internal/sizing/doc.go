// Package sizing turns a false-failure rate into the limits of statistical checks, and back
// into the sample size a check needs: every limit of package spread's checks, of the runner's
// flake reports and of the audit's verdicts. The public package sizing exports the few
// functions a user sizes a check of their own with; the rest serve the module alone.
//
// Every function here answers one question: given a target false-failure rate alpha (the
// probability that a check fails one run on a correct implementation), a sample size n and a
// declared distribution, where must the limit of a check sit? The answers are exact where an
// exact computation is affordable (dynamic programs, the Marsaglia-Tsang-Wang matrix, Eulerian
// numbers) and otherwise a proven bound (Hoeffding, Bernstein, DKW-Massart, Chernoff), never an
// asymptotic quantile taken at a tail where it is too permissive.
//
// # One contract
//
// Every exported function returns its results, then a method string when it chooses between
// methods (so that a report can say how its limit was derived), then an error:
//
//	tol, err := sizing.MeanZ(sd, n, alpha)
//	m, method, err := sizing.RepeatsLimit(w, n, alpha)
//	lo, hi, method, err := sizing.AscentsInterval(n, alpha)
//
// A result is always a finite number: never NaN or an infinity, never a panic or a hang, on
// any input. Two kinds of error, both typed so that a caller can branch on them with
// errors.As:
//
//   - *TooSmallError: the input is fine but n is too small for any sample to fail the check at
//     alpha; Need is the smallest n that works.
//   - *InputError: an argument is outside the function's domain (NaN, a rate outside
//     [MinAlpha, 1), n outside [1, MaxN], a support of fewer than two values, ...), or the
//     answer would not be finite.
//
// Answers are cached per input where the first call costs more than a microsecond; every call
// returns values of its own (a copy of a cached slice, a fresh error), so the package is safe
// for concurrent use and nothing a caller does to an answer reaches another caller.
//
// # Rates over runs
//
// A test run many times fails k times in n runs. ClopperPearson, BinomialTail, FisherGreater,
// FisherLess, FisherTwoSided and NewcombeInterval say what such counts show: the interval of
// the failure rate, whether the failures exceed what a test's own sizing allows, and whether
// two samples of runs (before and after a fix, replays and the main runs, a mutant and the
// baseline) fail at the same rate. Their counts are runs: ClopperPearson and the Fisher tests
// take up to 2^32 of them.
//
// The package has no dependency on package testing: it is the statistics only.
package sizing
