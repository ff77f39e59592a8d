package sizing

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// A rate of failures, k in n runs: its interval, its tail, and the interval of the difference
// of two rates. These size what a flake report says (spreadcheck) and whether a fix changed a
// rate (spreadcheck compare).

// ClopperPearson returns the two-sided Clopper-Pearson interval for a rate after k events in n
// trials, at confidence 1 - alpha: it covers the true rate in at least that share of samples,
// whatever the rate. Its ends are the rates at which k or more events, and k or fewer, have
// probability alpha/2: after 1 event in 10 trials at alpha = 0.05, [0.002528579, 0.4450161]
// (R's binom.test(1, 10)$conf.int); after none in 500, [0, 1 - 0.025^(1/500)] = [0, 0.0074].
// Each end solves the binomial tail (gonum's regularized incomplete beta function) for the
// rate, rounded outwards (the tail at each end is at most alpha/2 less its rounding, 1e-9
// relative, so that the interval holds its coverage to the last digit): gonum's beta quantile
// gives it where it holds the tail that close, else a bisection on the bits of the rate does (the quantile misses at small alpha: at 1e-9 after 999,995 events
// in 10^6 trials its lower end is 0.95). It returns an *InputError unless 1 <= n <= 2^32,
// 0 <= k <= n and alpha is in [MinAlpha, 1).
func ClopperPearson(k, n int, alpha float64) (lo, hi float64, err error) {
	if n < 1 || n > maxRuns {
		return 0, 0, inputErr("ClopperPearson", "n = %d trials, want 1 <= n <= 2^32", n)
	}
	if k < 0 || k > n {
		return 0, 0, inputErr("ClopperPearson", "k = %d events in n = %d trials: want 0 <= k <= n", k, n)
	}
	if err := checkAlpha("ClopperPearson", alpha); err != nil {
		return 0, 0, err
	}
	return lowerEnd(k, n, alpha/2), upperEnd(k, n, alpha/2), nil
}

// maxRuns bounds the trials of ClopperPearson and the runs of the Fisher tests: no session
// runs a test more often, and the bound keeps every call short (a Fisher sum holds at most
// about 330,000 terms; a Clopper-Pearson end, at most 64 incomplete beta functions).
const maxRuns = 1 << 32

// lowerEnd returns the rate p at which k or more events in n trials have probability tail,
// rounded down: at p, the tail is at most tail.
func lowerEnd(k, n int, tail float64) float64 {
	switch k {
	case 0:
		return 0
	case n:
		nf := float64(n)
		return solveRate(math.Exp(math.Log(tail)/nf), tail, true, // p^n = tail
			func(p float64) float64 { return math.Exp(nf * math.Log(p)) })
	}
	a, b := float64(k), float64(n-k+1)
	return solveRate(distuv.Beta{Alpha: a, Beta: b}.Quantile(tail), tail, true,
		func(p float64) float64 { return mathext.RegIncBeta(a, b, p) })
}

// upperEnd returns the rate p at which k or fewer events in n trials have probability tail,
// rounded up: at p, the tail is at most tail.
func upperEnd(k, n int, tail float64) float64 {
	switch k {
	case n:
		return 1
	case 0:
		nf := float64(n)
		return solveRate(-math.Expm1(math.Log(tail)/nf), tail, false, // (1-p)^n = tail
			func(p float64) float64 { return math.Exp(nf * math.Log1p(-p)) })
	}
	a, b := float64(k+1), float64(n-k)
	// P(X <= k) = I_{1-p}(n-k, k+1), which keeps the digits of a small tail.
	return solveRate(distuv.Beta{Alpha: a, Beta: b}.Quantile(1-tail), tail, false,
		func(p float64) float64 { return mathext.RegIncBeta(b, a, 1-p) })
}

// rateErr bounds the relative error of the binomial tails the interval's ends solve, gonum's
// regularized incomplete beta function and the closed forms: 1e-9, BinomialTail's accuracy.
// Against exact sums in big floats, the beta function is off by 4.4e-10 after 999,995 events
// in 10^6 trials, and ends solved to 1e-10 on either side put the exact tail up to 1.6e-12
// above alpha/2 at n <= 1,000.
const rateErr = 1e-9

// solveRate returns the rate p in [0, 1] at which f(p) = tail, for f rising (or falling) with
// p, on the safe side: f(p) is at most tail less rateErr, so that the exact tail at p is at
// most tail, and the interval is never narrower than the exact one. It is the guess when f
// holds it that close, else the float64 found by bisection on the bits of p, which order as
// the rates do: the largest rate at which f is that small for a rising f, the smallest for a
// falling one.
func solveRate(guess, tail float64, rising bool, f func(float64) float64) float64 {
	target := tail * (1 - rateErr)
	if guess >= 0 && guess <= 1 {
		if v := f(guess); v <= target && v >= target*(1-1e-10) {
			return guess
		}
	}
	lo, hi := uint64(0), math.Float64bits(1) // f(lo) <= target < f(hi) if rising, the reverse if not
	for lo+1 < hi {
		mid := lo + (hi-lo)/2
		if safe := f(math.Float64frombits(mid)) <= target; safe == rising {
			lo = mid
		} else {
			hi = mid
		}
	}
	if rising {
		return math.Float64frombits(lo)
	}
	return math.Float64frombits(hi)
}

// BinomialTail returns P(X >= k) for X ~ Binomial(n, p): how surprising k or more failures in
// n runs are if each run fails with probability p. It is the regularized incomplete beta
// function I_p(k, n-k+1) (gonum's), within 1e-9 relative of the direct sum of the binomial
// terms. It returns an *InputError unless 1 <= n <= MaxN and p is a probability; k may be any
// count (1 below 1, 0 above n).
func BinomialTail(k, n int, p float64) (float64, error) {
	if err := checkN("BinomialTail", n); err != nil {
		return 0, err
	}
	if !(p >= 0 && p <= 1) {
		return 0, inputErr("BinomialTail", "p = %v, want a probability in [0, 1]", p)
	}
	switch {
	case k <= 0 || p == 1:
		return 1, nil
	case k > n || p == 0:
		return 0, nil
	}
	return finite("BinomialTail", "tail", binomialTail(n, p, k))
}

// NewcombeInterval returns an interval at confidence 1 - alpha for the difference of two
// rates, x1/n1 - x2/n2, by Newcombe's hybrid score method (method 10 of Newcombe 1998, from
// the two Wilson score intervals): close to its nominal coverage at small rates and counts,
// where the textbook Wald interval collapses to a point at 0 failures. For 56 of 70 against 48
// of 80 at alpha = 0.05 it is [0.0524, 0.3339], as Newcombe's table II gives. It returns an
// *InputError unless 1 <= n1, n2 <= MaxN, 0 <= x1 <= n1, 0 <= x2 <= n2 and alpha is in
// [MinAlpha, 1).
func NewcombeInterval(x1, n1, x2, n2 int, alpha float64) (lo, hi float64, err error) {
	for _, s := range [][2]int{{x1, n1}, {x2, n2}} {
		if err := checkN("NewcombeInterval", s[1]); err != nil {
			return 0, 0, err
		}
		if s[0] < 0 || s[0] > s[1] {
			return 0, 0, inputErr("NewcombeInterval", "%d events in %d trials: want 0 <= events <= trials", s[0], s[1])
		}
	}
	if err := checkAlpha("NewcombeInterval", alpha); err != nil {
		return 0, 0, err
	}
	z, err := ZTwoSided(alpha)
	if err != nil {
		return 0, 0, err
	}
	p1, p2 := float64(x1)/float64(n1), float64(x2)/float64(n2)
	l1, u1 := wilson(p1, float64(n1), z)
	l2, u2 := wilson(p2, float64(n2), z)
	d := p1 - p2
	return max(-1, d-math.Hypot(p1-l1, u2-p2)), min(1, d+math.Hypot(u1-p1, p2-l2)), nil
}

// wilson returns the Wilson score interval for a rate p observed in n trials, z the normal
// quantile of the confidence.
func wilson(p, n, z float64) (lo, hi float64) {
	centre := p + z*z/(2*n)
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	den := 1 + z*z/n
	return max(0, (centre-half)/den), min(1, (centre+half)/den)
}
