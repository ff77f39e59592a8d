package sizing

import (
	"fmt"
	"math"
)

// KSTwoSampleTail returns P(D >= k/n) for the two-sample Kolmogorov-Smirnov statistic
// D = sup |F_n - G_n| of two samples of n values each from one continuous distribution: by the
// formula of Gnedenko and Korolyuk (1951),
//
//	P(D >= k/n) = 2 sum_{j >= 1} (-1)^(j+1) C(2n, n - j k) / C(2n, n),
//
// exact, summed in the log domain (the terms fall so fast that the first keeps the relative
// precision). The terms fall, so a sum cut after an odd number of them is an upper bound: where
// the series needs more than 10^6 terms (k below about sqrt(39 n)/10^6, where the tail is all
// but 1) the result is that bound. With ties (a distribution with atoms) D is stochastically
// smaller, so the tail is an upper bound too. It returns an *InputError for n outside
// [1, MaxN].
func KSTwoSampleTail(n, k int) (float64, error) {
	if err := checkN("KSTwoSampleTail", n); err != nil {
		return 0, err
	}
	switch {
	case k <= 0:
		return 1, nil
	case k > n:
		return 0, nil
	}
	var sum float64
	sign := 1.0
	for j := 1; j*k <= n; j++ {
		t := math.Exp(logCentralRatio(n, j*k))
		sum += sign * t
		sign = -sign
		if t < 1e-17*sum || j >= twoSampleMaxTerms && j%2 == 1 {
			break
		}
	}
	return min(1, 2*sum), nil
}

// twoSampleMaxTerms caps the terms of KSTwoSampleTail's series.
const twoSampleMaxTerms = 1_000_000

// KSTwoSampleCritical returns the smallest k with P(D >= k/n) <= alpha for the two-sample
// statistic of two samples of n values each: a check fails when n D >= k. It returns a
// *TooSmallError when even k = n (the samples apart, probability 2/C(2n, n)) is too likely.
func KSTwoSampleCritical(n int, alpha float64) (k int, method string, err error) {
	if err := checkN("KSTwoSampleCritical", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("KSTwoSampleCritical", alpha); err != nil {
		return 0, "", err
	}
	tail := func(k int) float64 { p, _ := KSTwoSampleTail(n, k); return p }
	ok := func(k int) bool { return tail(k) <= alpha*(1-logMargin) }
	if !ok(n) {
		need := n + 1
		for !(math.Log(2)-logChoose(2*need, need) <= math.Log(alpha)-logMargin) {
			need++
		}
		return 0, "", tooSmall("KSTwoSampleCritical", "two-sample ks", n, need, alpha)
	}
	lo, hi := 0, n // ok(hi), and the tail falls in k
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, fmt.Sprintf("exact (Gnedenko-Korolyuk, two samples of %d)", n), nil
}

// PooledTopLimit sizes the extremes of two samples of n values each from one continuous
// distribution: it returns the smallest k such that the k largest values of the 2n pooled are
// all from one given sample with probability C(n, k)/C(2n, k) <= alpha. A check fails when at
// least k values of the reference lie above every value of the sample (or, the same by
// symmetry, below). Ties only lower that count, so the limit holds for any distribution. It
// returns a *TooSmallError when even k = n is too likely.
func PooledTopLimit(n int, alpha float64) (int, error) {
	if err := checkN("PooledTopLimit", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("PooledTopLimit", alpha); err != nil {
		return 0, err
	}
	la := math.Log(alpha) - logMargin
	// log C(n, k)/C(2n, k) = log (n!/(n-k)!) - log ((2n)!/(2n-k)!)
	p := func(k int) float64 {
		return lgammaDiff(float64(n-k+1), float64(k)) - lgammaDiff(float64(2*n-k+1), float64(k))
	}
	if p(n) > la {
		need := n + 1
		for -logChoose(2*need, need) > la {
			need++
		}
		return 0, tooSmall("PooledTopLimit", "two-sample extremes", n, need, alpha)
	}
	lo, hi := 0, n // p falls in k
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if p(mid) <= la {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// logCentralRatio returns log C(2n, n-m)/C(2n, n) = log n! n! / ((n-m)! (n+m)!), without the
// cancellation of four log-gammas of 2n-sized arguments.
func logCentralRatio(n, m int) float64 {
	return lgammaDiff(float64(n-m+1), float64(m)) - lgammaDiff(float64(n+1), float64(m))
}

// lgammaDiff returns lgamma(a+d) - lgamma(a) for a >= 1, d >= 0, accurate where both are
// huge: past a = 10^6 by the difference of Stirling's series,
// (a - 1/2) log1p(d/a) + d log(a+d) - d + 1/(12(a+d)) - 1/(12 a).
func lgammaDiff(a, d float64) float64 {
	if a < 1e6 {
		x, _ := math.Lgamma(a + d)
		y, _ := math.Lgamma(a)
		return x - y
	}
	return (a-0.5)*math.Log1p(d/a) + d*math.Log(a+d) - d + 1/(12*(a+d)) - 1/(12*a)
}
