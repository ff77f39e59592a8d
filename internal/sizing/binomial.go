package sizing

import (
	"math"
	"math/big"

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
// Each end solves the binomial tail (the sum of its terms, binomialTail) for the rate, aiming
// 1e-9 (relative) inside alpha/2: gonum's beta quantile gives it where it holds
// the tail that close, else a bisection on the bits of the rate does (the quantile misses at
// small alpha: at 1e-9 after 999,995 events in 10^6 trials its lower end is 0.95). Each end is
// then stepped outwards until an upper bound on the exact tail there, summed with every
// rounding directed, is at most alpha/2, so that the interval holds its coverage to the last
// digit by construction (beyond 2^20 terms, at millions of trials, on the 1e-9 alone). It returns an *InputError unless 1 <= n <= 2^32,
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

// maxRuns bounds the trials of ClopperPearson, BinomialTail and LoadLimit and the runs of the
// Fisher tests: no session runs a test more often, and no fleet holds more loops, and the
// bound keeps every call short (a Fisher sum holds at most about 330,000 terms, a binomial
// tail about 300,000; a Clopper-Pearson end, at most 64 tails).
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
			func(p float64) float64 { return math.Exp(nf * math.Log(p)) },
			func(p float64) (*big.Float, bool) { return powRound(up(), exact(p), n), true })
	}
	a, b := float64(k), float64(n-k+1)
	return solveRate(distuv.Beta{Alpha: a, Beta: b}.Quantile(tail), tail, true,
		func(p float64) float64 { return binomialTail(n, p, k) },
		func(p float64) (*big.Float, bool) { return binomTailUpper(k, n, p, true) })
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
			func(p float64) float64 { return math.Exp(nf * math.Log1p(-p)) },
			func(p float64) (*big.Float, bool) {
				q := exact(1)
				return powRound(up(), q.Sub(q, exact(p)), n), true
			})
	}
	a, b := float64(k+1), float64(n-k)
	return solveRate(distuv.Beta{Alpha: a, Beta: b}.Quantile(1-tail), tail, false,
		func(p float64) float64 { return binomialLower(n, p, k) },
		func(p float64) (*big.Float, bool) { return binomTailUpper(k, n, p, false) })
}

// rateErr is how far below the tail (relative) the ends solve the binomial tail and the closed
// forms, 1e-9, the accuracy BinomialTail promises with room: against exact sums in big floats,
// its sum is within 1e-12 (TestBinomialTailLargeN). With it the
// verification (binomTailUpper) passes at once; the promise rests on the verification, and on
// rateErr alone only where that is too costly (min(k, n-k) above 2^20).
const rateErr = 1e-9

// solveRate returns the rate p in [0, 1] at which f(p) = tail, for f rising (or falling) with
// p, on the safe side: f(p) is at most tail less rateErr, so that the exact tail at p is at
// most tail, and the interval is never narrower than the exact one. It is the guess when f
// holds it that close, else the float64 found by bisection on the bits of p, which order as
// the rates do: the largest rate at which f is that small for a rising f, the smallest for a
// falling one.
//
// The rate found is then verified: while verify, an upper bound on the exact tail with every
// rounding directed, exceeds tail, the rate steps outwards (down for a rising f, up for a
// falling one) by 1, 2, 4, ... floats.
func solveRate(guess, tail float64, rising bool, f func(float64) float64, verify func(float64) (*big.Float, bool)) float64 {
	return verifyRate(findRate(guess, tail, rising, f), tail, rising, verify)
}

// verifyRate steps p outwards until the verified tail at p is at most tail, or verify
// declines (too costly: p stands on rateErr).
func verifyRate(p, tail float64, rising bool, verify func(float64) (*big.Float, bool)) float64 {
	bits, limit := math.Float64bits(p), exact(tail)
	for step := uint64(1); p > 0 && p < 1; step *= 2 {
		v, ok := verify(p)
		if !ok || v.Cmp(limit) <= 0 {
			return p
		}
		if rising {
			bits -= min(step, bits)
		} else {
			bits = min(bits+step, math.Float64bits(1))
		}
		p = math.Float64frombits(bits)
	}
	return p
}

// findRate is solveRate's float64 solve.
func findRate(guess, tail float64, rising bool, f func(float64) float64) float64 {
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
// n runs are if each run fails with probability p. It sums the binomial's terms away from the
// mode, each from Loader's saddle-point form (binomialTail), within 1e-9 relative of the exact
// sum (1e-13 measured against 256-bit and 45-digit sums): gonum's incomplete beta function
// computes the same tail but drifts with n, 3e-8 off at 10^7 trials, and at 10^15 leaves
// [0, 1]. It returns an *InputError unless 1 <= n <= 2^32, as for ClopperPearson, and p is a
// probability; k may be any count (1 below 1, 0 above n).
func BinomialTail(k, n int, p float64) (float64, error) {
	if n < 1 || n > maxRuns {
		return 0, inputErr("BinomialTail", "n = %d trials, want 1 <= n <= 2^32", n)
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
