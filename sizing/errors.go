package sizing

import (
	"fmt"
	"math"
)

// TooSmallError reports that a sample of N values is too small to size a check at Alpha:
// no outcome of the sample could make the check fail. Need is the smallest sample size at
// which the check can fail at that rate.
type TooSmallError struct {
	Check string  // the check, e.g. "mean" or "ks"
	N     int     // the sample size given
	Need  int     // the smallest sample size at which the check can fail
	Alpha float64 // the false-failure rate the check was sized for
}

func (e *TooSmallError) Error() string {
	return fmt.Sprintf("%s: n = %d is too small to size the check at alpha = %.3g: it needs n >= %d",
		e.Check, e.N, e.Alpha, e.Need)
}

// checkAlpha returns an error unless alpha is a probability strictly between 0 and 1.
func checkAlpha(alpha float64) error {
	if math.IsNaN(alpha) || alpha <= 0 || alpha >= 1 {
		return fmt.Errorf("sizing: alpha = %v is outside (0, 1)", alpha)
	}
	return nil
}

// checkN returns an error unless n is a usable sample size.
func checkN(n int) error {
	if n < 1 {
		return fmt.Errorf("sizing: sample size n = %d, want n >= 1", n)
	}
	return nil
}

// checkPositive returns an error unless x is finite and strictly positive.
func checkPositive(name string, x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 {
		return fmt.Errorf("sizing: %s = %v, want a finite value > 0", name, x)
	}
	return nil
}
