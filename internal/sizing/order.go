package sizing

import (
	"fmt"
	"math"
	"slices"
)

// orderBudget caps the work (cells times terms of the recursion) of the exact order-pattern
// intervals: about 20 ms on a loaded machine, once per (n, alpha), as the answers are cached.
// The recursions drop the far tails below 1e-20 alpha / n as they go, so the work grows as
// n^1.5, and the exact range reaches n = 16,000 for ascents and 10,000 for turning points at
// alpha = 1e-9 / 21 (the battery's share of each).
const orderBudget = 2.5e7

// orderPMFMaxN is the largest n for which AscentsPMF and TurningPointsPMF compute a PMF.
const orderPMFMaxN = 20000

var ascentsCache, turnsCache memo[int, []float64]

// AscentsPMF returns P(A = k), k = 0..n-1, where A = #{i : x[i+1] > x[i]} counts the ascents
// among n independent draws from one continuous distribution: the Eulerian numbers divided by
// n!. It uses the recursion p_n(k) = ((k+1) p_{n-1}(k) + (n-k) p_{n-1}(k-1)) / n, whose terms
// are all positive, so that the tails keep their relative precision. The result is the
// caller's own copy. n must be at most 20000.
func AscentsPMF(n int) ([]float64, error) {
	if n < 1 || n > orderPMFMaxN {
		return nil, inputErr("AscentsPMF", "n = %d, want 1 <= n <= %d (the largest n with an exact PMF)", n, orderPMFMaxN)
	}
	return slices.Clone(ascentsCache.get(n, func() []float64 { return ascentsPMF(n) })), nil
}

// ascentsPMF computes AscentsPMF without the cache.
func ascentsPMF(n int) []float64 {
	p, _ := ascentsBanded(n, 0)
	return p
}

// ascentsBanded runs the Eulerian recursion for n values, dropping values below tiny from
// either edge of the band as it goes: every value it keeps is exact, and the mass it drops,
// which it returns, bounds the error of any sum over the PMF. With tiny = 0 it drops nothing.
func ascentsBanded(n int, tiny float64) (p []float64, dropped float64) {
	p = make([]float64, n)
	p[0] = 1
	lo, hi := 0, 0 // the band: p is zero outside [lo, hi]
	for m := 2; m <= n; m++ {
		inv := 1 / float64(m)
		hi = min(hi+1, m-1)
		for k := hi; k > lo; k-- { // downward, so that p[k-1] is still p_{m-1}
			p[k] = (float64(k+1)*p[k] + float64(m-k)*p[k-1]) * inv
		}
		p[lo] *= float64(lo+1) * inv // p[lo-1] is zero
		lo, hi, dropped = trimBand(p, lo, hi, tiny, dropped)
	}
	return p, dropped
}

// trimBand zeroes the values below tiny at either edge of the band [lo, hi] of p and returns
// the narrowed band and the dropped mass added to dropped.
func trimBand(p []float64, lo, hi int, tiny, dropped float64) (int, int, float64) {
	for lo < hi && p[lo] < tiny {
		dropped += p[lo]
		p[lo] = 0
		lo++
	}
	for hi > lo && p[hi] < tiny {
		dropped += p[hi]
		p[hi] = 0
		hi--
	}
	return lo, hi, dropped
}

// TurningPointsPMF returns P(T = k), k = 0..max(n-2, 0), where T counts the i in 1..n-2 at
// which x[i] is a strict local maximum or minimum, among n independent draws from one
// continuous distribution. It uses the recursion on alternating runs (T + 1 runs for n >= 2)
// R(n,k) = k R(n-1,k) + 2 R(n-1,k-1) + (n-k) R(n-1,k-2). The result is the caller's own
// copy. n must be at most 20000.
func TurningPointsPMF(n int) ([]float64, error) {
	if n < 1 || n > orderPMFMaxN {
		return nil, inputErr("TurningPointsPMF", "n = %d, want 1 <= n <= %d (the largest n with an exact PMF)", n, orderPMFMaxN)
	}
	return slices.Clone(turnsCache.get(n, func() []float64 { return turnsPMF(n) })), nil
}

// turnsPMF computes TurningPointsPMF without the cache.
func turnsPMF(n int) []float64 {
	p, _ := turnsBanded(n, 0)
	return p
}

// turnsBanded runs the alternating-runs recursion for n values and returns the PMF of the
// turning points T = runs - 1, dropping values below tiny from the edges of the band as
// ascentsBanded does.
func turnsBanded(n int, tiny float64) (p []float64, dropped float64) {
	if n <= 2 {
		return []float64{1}, 0
	}
	// r[k] = P(k alternating runs), k = 1..m-1, for m values; start at m = 2 with one run.
	r := make([]float64, n)
	r[1] = 1
	lo, hi := 1, 1 // the band: r is zero outside [lo, hi], and r[0] = 0 always
	for m := 3; m <= n; m++ {
		inv := 1 / float64(m)
		hi = min(hi+2, m-1)
		for k := hi; k >= lo+2; k-- { // downward, so that r[k-1], r[k-2] are still for m-1
			r[k] = (float64(k)*r[k] + 2*r[k-1] + float64(m-k)*r[k-2]) * inv
		}
		if lo+1 <= hi { // r[lo-1] is zero
			r[lo+1] = (float64(lo+1)*r[lo+1] + 2*r[lo]) * inv
		}
		r[lo] *= float64(lo) * inv
		lo, hi, dropped = trimBand(r, lo, hi, tiny, dropped)
	}
	return r[1:], dropped // T = runs - 1
}

type intervalResult struct {
	lo, hi int
	method string
	err    error
}

type orderKey struct {
	n     int
	alpha float64
}

// orderStat describes one order-pattern statistic for orderInterval.
type orderStat struct {
	name       string
	fn         string // the exported function, for errors
	cache      *memo[orderKey, intervalResult]
	sdPerRootN float64 // its sd is about sdPerRootN * sqrt(n)
	terms      float64 // terms per cell of its recursion
	banded     func(n int, tiny float64) (p []float64, dropped float64)
	minN       func(alpha float64) int
	bound      func(n int, alpha float64) (lo, hi int, method string)
}

var (
	ascentsStat = orderStat{"ascents", "AscentsInterval", new(memo[orderKey, intervalResult]), math.Sqrt(1.0 / 12), 2,
		ascentsBanded, ascentsMinN, ascentsBound}
	turnsStat = orderStat{"turning points", "TurningPointsInterval", new(memo[orderKey, intervalResult]), math.Sqrt(16.0 / 90), 3,
		turnsBanded, turnsMinN, turnsBound}
)

// AscentsInterval returns the acceptance interval [lo, hi] for the number of ascents A among n
// independent draws from one continuous distribution: the check fails when A < lo or A > hi,
// and each tail has probability <= alpha/2.
//
// Up to about n = 10,000 the interval is exact (Eulerian numbers). Beyond, it is a proven
// bound: the Eulerian polynomial has only real roots, so A is a sum of independent Bernoullis,
// whose cumulants are known exactly, and a Chernoff bound on the exact generating function
// applies, within a factor of about 15 of the exact tail. method says which.
// It returns a *TooSmallError when no value of A could fail.
func AscentsInterval(n int, alpha float64) (lo, hi int, method string, err error) {
	return ascentsStat.interval(n, alpha)
}

// TurningPointsInterval returns the acceptance interval [lo, hi] for the number of turning
// points T among n independent draws from one continuous distribution: the check fails when
// T < lo or T > hi, and each tail has probability <= alpha/2.
//
// Up to about n = 10,000 the interval is exact (alternating runs). Beyond, it is a proven
// bound: the alternating-runs polynomial has only real roots (Bona 2004), so T is a sum of
// independent Bernoullis, whose cumulants are known exactly, and a Chernoff bound on the exact
// generating function applies, within a factor of about 15 of the exact tail. method says
// which. It returns a *TooSmallError when no value of T could fail.
func TurningPointsInterval(n int, alpha float64) (lo, hi int, method string, err error) {
	return turnsStat.interval(n, alpha)
}

// interval sizes the acceptance interval of the statistic, exactly when the banded recursion
// fits the budget and by its bound otherwise.
func (st orderStat) interval(n int, alpha float64) (lo, hi int, method string, err error) {
	if err := checkN(st.fn, n); err != nil {
		return 0, 0, "", err
	}
	if err := checkAlpha(st.fn, alpha); err != nil {
		return 0, 0, "", err
	}
	r := st.cache.get(orderKey{n, alpha}, func() intervalResult { return st.size(n, alpha) })
	return r.lo, r.hi, r.method, copyErr(r.err)
}

// size computes the interval that interval caches.
func (st orderStat) size(n int, alpha float64) (r intervalResult) {
	if need := st.minN(alpha); n < need {
		r.err = tooSmall(st.fn, st.name, n, need, alpha)
	} else if n < turnsCumulantsMinN || orderBandCost(n, st.sdPerRootN, alpha, st.terms) <= orderBudget {
		a := alpha / 2
		p, dropped := st.banded(n, a*1e-20/float64(n))
		// The dropped mass may sit in either tail: leave room for it, and for the rounding of
		// the sums of positive terms (a relative 1e-13 at most).
		r.lo, r.hi = pmfInterval(p, a*(1-logMargin)-dropped)
		r.method = fmt.Sprintf("exact (%s of %d values)", st.name, n)
	} else {
		r.lo, r.hi, r.method = st.bound(n, alpha)
	}
	if r.err == nil && r.lo > r.hi {
		// Both tails would hold half the mass each: impossible for alpha < 1 unless rounding
		// ate the margin. Never return an interval that every sample fails.
		r.err = inputErr(st.fn, "alpha = %v is too close to 1 to size the %s check", alpha, st.name)
	}
	return r
}

// orderBandCost estimates the work of the banded recursion for n values when it drops values
// below alpha 1e-20 / n: the band at m values is about 2 (sqrt(2 v L) + 2L/3) wide, with
// v = sdPerRootN^2 m and L = -ln(tiny); terms counts the terms of the recursion. Summed over
// m, that is at most 2/3 a n^1.5 + b n cells.
func orderBandCost(n int, sdPerRootN, alpha float64, terms float64) float64 {
	nf := float64(n)
	l := -math.Log(alpha / 2 * 1e-20 / nf)
	a, b := 2*sdPerRootN*math.Sqrt(2*l), 4*l/3+3
	return terms * (2.0/3*a*nf*math.Sqrt(nf) + b*nf)
}

// pmfInterval returns the largest lo with P(X < lo) <= a and the smallest hi with
// P(X > hi) <= a, for X with PMF p on 0..len(p)-1. Tails are summed from the outside in.
func pmfInterval(p []float64, a float64) (lo, hi int) {
	var s float64
	for lo = 0; lo < len(p); lo++ {
		if s+p[lo] > a {
			break
		}
		s += p[lo]
	}
	s = 0
	for hi = len(p) - 1; hi >= 0; hi-- {
		if s+p[hi] > a {
			break
		}
		s += p[hi]
	}
	return lo, hi
}

// ascentsMinN returns the smallest n at which A = 0 (probability 1/n!) can fail: n! >= 2/alpha.
func ascentsMinN(alpha float64) int {
	return factorialMinN(math.Ln2 - math.Log(alpha))
}

// turnsMinN returns the smallest n at which T = 0 can fail. P(T = 0) = 2/n! (the monotone
// runs) for n >= 3, so that needs n! >= 4/alpha.
func turnsMinN(alpha float64) int {
	return max(3, factorialMinN(2*math.Ln2-math.Log(alpha)))
}

// factorialMinN returns the smallest n with log(n!) >= l.
func factorialMinN(l float64) int {
	n, lf := 1, 0.0
	for lf < l {
		n++
		lf += math.Log(float64(n))
	}
	return n
}

// ascentsBound is the interval beyond the exact range. The Eulerian polynomial has only real
// roots (Frobenius 1910), so A is a sum of n-1 independent Bernoullis, whose cumulants are
// known exactly (ascentsCumulants), and a Chernoff bound on its exact generating function
// bounds each tail (bernoulliSum).
func ascentsBound(n int, alpha float64) (lo, hi int, method string) {
	lo, hi = newBernoulliSum(ascentsCumulants(n), n-1).interval(math.Log(alpha) - math.Ln2 - logMargin)
	return lo, hi, fmt.Sprintf("Chernoff bound on the exact generating function (ascents of %d values: a sum of independent Bernoullis, the Eulerian polynomial being real-rooted, with exact cumulants)", n)
}

// turnsBound is the interval beyond the exact range. The alternating-runs polynomial has only
// real roots (M. Bona, Combinatorics of Permutations, 2004, from the David-Barton identity;
// see S.-M. Ma, J. Ma and Y.-N. Yeh, arXiv:1904.11437), so the number of turning points is a
// sum of n-2 independent Bernoullis, whose cumulants are known exactly (turnsCumulants), and
// a Chernoff bound on its exact generating function bounds each tail (bernoulliSum).
// TestOrderPMFExactIntegers checks Newton's inequalities, which real-rootedness implies, in
// exact arithmetic.
func turnsBound(n int, alpha float64) (lo, hi int, method string) {
	lo, hi = newBernoulliSum(turnsCumulants(n), n-2).interval(math.Log(alpha) - math.Ln2 - logMargin)
	return lo, hi, fmt.Sprintf("Chernoff bound on the exact generating function (turning points of %d values: a sum of independent Bernoullis, the alternating-runs polynomial being real-rooted, with exact cumulants)", n)
}
