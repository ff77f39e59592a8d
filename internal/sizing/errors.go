package sizing

import (
	"fmt"
	"math"
)

// The domain every function of the package accepts.
const (
	// MinAlpha is the smallest false-failure rate the package sizes a check for. No test needs
	// a rate anywhere near it (the default of package spread is 1e-9 for a whole call), and
	// below it the exact computations would reach the end of float64's range, where a
	// denormal rate loses its digits.
	MinAlpha = 1e-300
	// MaxN is the largest sample size the package accepts: 2^53, where float64 still counts
	// every integer. No sample that large fits in memory.
	MaxN = 1 << 53
)

// An InputError reports an argument outside a function's domain, or an answer that would be
// out of range (not finite, or beyond MaxN): the function returns it instead of a NaN, an
// infinity, a panic or a hang.
type InputError struct {
	Func   string // the function, e.g. "MeanZ"
	Reason string // what is wrong, e.g. "sd = NaN, want a finite value > 0"
}

func (e *InputError) Error() string { return "sizing: " + e.Func + ": " + e.Reason }

// inputErr returns an *InputError for fn with a formatted reason.
func inputErr(fn, format string, args ...any) error {
	return &InputError{Func: fn, Reason: fmt.Sprintf(format, args...)}
}

// TooSmallError reports that a sample of N values is too small to size a check at Alpha:
// no outcome of the sample could make the check fail. Need is the smallest sample size at
// which the check can fail at that rate. A caller branches on it (errors.As) to tell the user
// how many values to draw.
//
// Every call returns a TooSmallError of its own, so a caller may keep or change it.
type TooSmallError struct {
	Check string  // the statistic, e.g. "mean" or "ks"
	N     int     // the sample size given
	Need  int     // the smallest sample size at which the check can fail
	Alpha float64 // the false-failure rate the check was sized for
}

func (e *TooSmallError) Error() string {
	return fmt.Sprintf("%s: n = %d is too small to size the check at alpha = %.3g: it needs n >= %d",
		e.Check, e.N, e.Alpha, e.Need)
}

// tooSmall returns the error for a check that needs need values, or an *InputError when no
// sample of at most MaxN values would do. A check that could not be sized at n needs more than
// n, whatever a rounded estimate of need says.
func tooSmall(fn, check string, n, need int, alpha float64) error {
	need = max(need, n+1)
	if need > MaxN {
		return inputErr(fn, "no sample of at most 2^53 values can size the %s check at alpha = %.3g", check, alpha)
	}
	return &TooSmallError{Check: check, N: n, Need: need, Alpha: alpha}
}

// needInt returns a sample size computed in float64 as an int for tooSmall: MaxN+1 beyond
// MaxN or for a NaN, since float64(MaxN+1) rounds to MaxN.
func needInt(need float64) int {
	if !(need <= MaxN) {
		return MaxN + 1
	}
	return int(need)
}

// copyErr returns err, with a fresh copy of a *TooSmallError, so that a cached error is never
// shared with (and changed by) a caller.
func copyErr(err error) error {
	if e, ok := err.(*TooSmallError); ok {
		c := *e
		return &c
	}
	return err
}

// checkAlpha returns an error unless alpha is a rate in [MinAlpha, 1).
func checkAlpha(fn string, alpha float64) error {
	if math.IsNaN(alpha) || alpha < MinAlpha || alpha >= 1 {
		return inputErr(fn, "alpha = %v is outside [1e-300, 1)", alpha)
	}
	return nil
}

// checkN returns an error unless n is a usable sample size, 1 <= n <= MaxN.
func checkN(fn string, n int) error {
	if n < 1 || n > MaxN {
		return inputErr(fn, "sample size n = %d, want 1 <= n <= 2^53", n)
	}
	return nil
}

// checkPositive returns an error unless x is finite and strictly positive.
func checkPositive(fn, name string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return inputErr(fn, "%s = %v, want a finite value > 0", name, x)
	}
	return nil
}

// finite returns x, or an *InputError when x is not a finite number: every result of the
// package is finite.
func finite(fn, what string, x float64) (float64, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, inputErr(fn, "the %s is %v: the arguments are beyond float64's range", what, x)
	}
	return x, nil
}
