// Package sizing turns a false-failure rate into the limit of a statistical check, and back
// into the sample size a check needs: the arithmetic behind package spread's checks, for a
// test that sizes a check of its own.
//
// Every function takes a target false-failure rate alpha (the probability that a check fails
// one run on a correct implementation) and returns its results, then an error. The answers
// are exact where an exact computation is affordable and otherwise a proven bound, never an
// asymptotic quantile taken at a tail where it is too permissive:
//
//	a, err := sizing.SuiteAlpha(1e-3, 20, 500)        // 20 checks x 500 CI runs: 1e-7 each
//	tol, err := sizing.MeanZ(1/math.Sqrt(12), 1000, a) // |mean - 0.5| of 1000 U[0,1) draws
//	m, err := sizing.RepeatsLimit(1e9, 1000, a)        // repeats among 1000 ns values that fail
//
// A result is always a finite number: never NaN or an infinity, never a panic or a hang, on
// any input. Two kinds of error, both typed so that a caller can branch on them with
// errors.As:
//
//   - *TooSmallError: the input is fine but n is too small for any sample to fail the check at
//     alpha; Need is the smallest n that works.
//   - *InputError: an argument is outside the function's domain (NaN, a rate outside
//     [MinAlpha, 1), n outside [1, MaxN], ...), or the answer would not be finite.
//
// The package is safe for concurrent use, and has no dependency on package testing.
package sizing
