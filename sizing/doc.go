// Package sizing answers the three questions about false-failure rates that a test suite
// run many times asks, with the arithmetic behind package spread's checks:
//
//	a, err := sizing.SuiteAlpha(1e-3, 20, 500)                     // the rate of each of 20 checks run 500 times: 1e-7
//	n, err := sizing.MeanSampleSize(1/math.Sqrt(12), 0.05, a, 0.1) // draws to see a mean 5% off, 9 times in 10
//	lo, hi, err := sizing.ClopperPearson(0, 500, 0.05)             // 0 failures in 500 runs: a rate of at most 0.74%
//
// Every function returns its results, then an error.
//
// A result is always a finite number: never NaN or an infinity, never a panic or a hang, on
// any input. Two kinds of error, both typed so that a caller can branch on them with
// errors.As:
//
//   - *TooSmallError: the input is fine but n is too small for any sample to fail the check at
//     alpha; Need is the smallest n that works.
//   - *InputError: an argument is outside the function's domain (NaN, a rate outside
//     [1e-300, 1), n outside [1, 2^53], ...), or the answer would not be finite.
//
// The package is safe for concurrent use, and has no dependency on package testing.
package sizing
