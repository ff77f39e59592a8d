package sizing

import (
	"math"
)

// KolmogorovCDF returns K(x) = P(sup|B(t)| < x) for a Brownian bridge B: the limit, as n grows,
// of the distribution of sqrt(n) D_n for the one-sample Kolmogorov-Smirnov statistic D_n.
//
// It is the limit only. At a finite n and a small tail it is not a bound on P(D_n >= d): use
// KSTail or KSCritical to size a check. It returns an *InputError for a NaN x.
func KolmogorovCDF(x float64) (float64, error) {
	if math.IsNaN(x) {
		return 0, inputErr("KolmogorovCDF", "x = NaN")
	}
	return kolmogorovCDF(x), nil
}

func kolmogorovCDF(x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x < kolmogorovSwitch:
		return kolmogorovTheta(x)
	}
	return 1 - kolmogorovTail(x)
}

// kolmogorovSwitch is where KolmogorovCDF changes series: below it the alternating series
// 1 - 2 sum (-1)^(k-1) exp(-2 k^2 x^2) needs many terms and cancels; above it the theta form
// needs many terms. At the switch both converge in under 10 terms.
const kolmogorovSwitch = 1.0

// kolmogorovTheta returns K(x) by Jacobi's theta-function form
// sqrt(2 pi)/x sum_{k>=1} exp(-(2k-1)^2 pi^2 / (8 x^2)), whose terms fall fast for small x.
func kolmogorovTheta(x float64) float64 {
	a := -math.Pi * math.Pi / (8 * x * x)
	// The first term times 1 + the ratios of the others to it, in the log domain: for a tiny
	// (or denormal) x the first term underflows to 0, where sqrt(2 pi)/x would overflow.
	s := 1.0
	for k := 2; k < 50; k++ {
		t := math.Exp(float64((2*k-1)*(2*k-1)-1) * a)
		s += t
		if t <= 1e-17*s {
			break
		}
	}
	return math.Exp(0.5*math.Log(2*math.Pi)-math.Log(x)+a) * s
}

// kolmogorovTail returns 1 - K(x) without the cancellation of computing 1 - K(x): for large x
// it keeps full relative precision in the tail.
func kolmogorovTail(x float64) float64 {
	if x < kolmogorovSwitch {
		return 1 - kolmogorovCDF(x)
	}
	var s float64
	sign := 1.0
	for k := 1; k < 50; k++ {
		t := math.Exp(-2 * float64(k*k) * x * x)
		s += sign * t
		sign = -sign
		if t <= 1e-17*s {
			break
		}
	}
	return 2 * s
}

// KolmogorovQuantile returns the x with KolmogorovCDF(x) = p, for p in (0, 1): the asymptotic
// critical value of sqrt(n) D_n at the upper tail 1 - p (1.3581 at p = 0.95).
func KolmogorovQuantile(p float64) (float64, error) {
	if math.IsNaN(p) || p <= 0 || p >= 1 {
		return 0, inputErr("KolmogorovQuantile", "p = %v, want p in (0, 1)", p)
	}
	// Bisection keeps the answer exact to the last bit and is cheap here: the CDF costs a few
	// exponentials. Above the median it bisects on the tail, which keeps full precision when
	// 1 - p is tiny.
	below := func(x float64) bool { return kolmogorovCDF(x) < p }
	if p > 0.5 {
		q := 1 - p
		below = func(x float64) bool { return kolmogorovTail(x) > q }
	}
	lo, hi := 0.0, 1.0
	for below(hi) {
		lo, hi = hi, 2*hi
	}
	for {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return hi, nil
		}
		if below(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
}
