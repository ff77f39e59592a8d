package sizing

import (
	"fmt"
	"math"
)

// runsBudget caps the work (trials times run length) of one exact evaluation of the longest-run
// distribution: about 20 ms. Beyond it LongestRunInterval uses proven bounds.
const runsBudget = 2e7

type runsKey struct {
	n        int
	p, alpha float64
}

// runsResult is one answer of LongestRunInterval.
type runsResult struct {
	lo, hi int
	method string
	err    error
}

var runsCache memo[runsKey, runsResult]

// LongestRunProb returns P(L < r) and P(L >= r), where L is the longest run of successes among
// n independent trials, each a success with probability p: the longest run of short sleeps
// (or of long ones) of a loop whose sleeps are independent draws.
//
// Both are exact up to rounding, each summed from positive terms so that a tiny tail keeps its
// relative precision. With q(m) = P(no run of r successes in m trials), q(m) = 1 for m < r and,
// conditioning on the first failure, q(m) = (1-p) sum over k < r of p^k q(m-1-k); a first run
// of r ends at trial m > r exactly when trials m-r+1..m succeed, trial m-r fails and trials
// 1..m-r-1 hold no run, so P(L >= r) = p^r (1 + (1-p) (q(0) + ... + q(n-r-1))).
// It costs n*r steps, and returns an error when that exceeds 1e8.
func LongestRunProb(n int, p float64, r int) (below, atLeast float64, err error) {
	if err := checkRunsInput("LongestRunProb", n, p); err != nil {
		return 0, 0, err
	}
	if r > 0 && float64(n)*float64(min(r, n)) > 1e8 {
		return 0, 0, inputErr("LongestRunProb", "n*r = %d*%d steps is beyond 1e8", n, r)
	}
	below, atLeast = runProbs(n, p, r)
	return below, atLeast, nil
}

// checkRunsInput returns an error unless n is a sample size and p a probability in (0, 1).
func checkRunsInput(fn string, n int, p float64) error {
	if err := checkN(fn, n); err != nil {
		return err
	}
	if !(p > 0 && p < 1) {
		return inputErr(fn, "p = %v, want a probability in (0, 1)", p)
	}
	return nil
}

// runProbs computes LongestRunProb without checks.
func runProbs(n int, p float64, r int) (below, atLeast float64) {
	switch {
	case r <= 0:
		return 0, 1
	case r > n:
		return 1, 0
	}
	pk := make([]float64, r) // p^k
	pk[0] = 1
	for k := 1; k < r; k++ {
		pk[k] = pk[k-1] * p
	}
	pr := pk[r-1] * p
	// ring[m % r] holds q(m) for the last r values of m; q(m) = 1 for m < r.
	ring := make([]float64, r)
	for i := range ring {
		ring[i] = 1
	}
	sum := float64(min(r, n-r)) // q(0) + ... + q(min(r, n-r) - 1), all 1
	for m := r; m <= n; m++ {
		var s float64
		for k := range r {
			s += pk[k] * ring[(m-1-k)%r]
		}
		q := (1 - p) * s
		ring[m%r] = q
		if m < n-r {
			sum += q
		}
	}
	// Each is exact up to a relative rounding of about (n + r) ulps: keep both in [0, 1].
	return min(ring[n%r], 1), min(pr*(1+(1-p)*sum), 1)
}

// LongestRunInterval returns the acceptance interval [lo, hi] for the longest run L of
// successes among n independent trials with success probability p: the check fails when
// L < lo or L > hi, and each tail has probability <= alpha/2. A loop whose sleeps are
// independent draws has runs of short sleeps (hot runs) and of long ones (cold runs); a run
// longer than hi says the draws stick, one shorter than lo that they alternate.
//
// The interval is exact (LongestRunProb) while n times the run lengths searched stays within
// a budget of 2e7 steps; beyond, it is sized from two proven bounds: P(L >= r) <=
// p^r (1 + (n-r)(1-p)), the expected number of runs of r successes that start the sequence or
// follow a failure, and P(L < r) <= (1 - p^r)^floor(n/r), since each of floor(n/r) disjoint
// blocks of r trials would have to hold a failure. method says which. It returns a
// *TooSmallError when no value of L could fail.
func LongestRunInterval(n int, p, alpha float64) (lo, hi int, method string, err error) {
	if err := checkRunsInput("LongestRunInterval", n, p); err != nil {
		return 0, 0, "", err
	}
	if err := checkAlpha("LongestRunInterval", alpha); err != nil {
		return 0, 0, "", err
	}
	r := runsCache.get(runsKey{n, p, alpha}, func() runsResult { return runsInterval(n, p, alpha) })
	if r.err != nil {
		return 0, 0, "", copyErr(r.err)
	}
	return r.lo, r.hi, r.method, nil
}

// runsInterval sizes LongestRunInterval without the cache.
func runsInterval(n int, p, alpha float64) (r runsResult) {
	a := alpha / 2
	lower, upper := runsBounds(n, p)
	// The bound's upper end lies above the exact one, and lo <= hi: both searches stay below it.
	hiBound := firstInt(0, n, func(h int) bool { return upper(h+1) <= a })
	if float64(n)*float64(hiBound+1) <= runsBudget {
		r.lo = firstInt(0, hiBound, func(l int) bool { below, _ := runProbs(n, p, l+1); return below > a })
		r.hi = firstInt(0, hiBound, func(h int) bool { _, at := runProbs(n, p, h+1); return at <= a })
		r.method = fmt.Sprintf("exact (longest run among %d trials of probability %.4g)", n, p)
	} else {
		r.lo = firstInt(0, hiBound, func(l int) bool { return lower(l+1) > a })
		r.hi = hiBound
		r.method = fmt.Sprintf("proven bounds (longest run among %d trials of probability %.4g: expected count of runs for the upper end, disjoint blocks for the lower)", n, p)
	}
	if r.lo == 0 && r.hi == n {
		r.err = tooSmall("LongestRunInterval", "longest run", n, runsNeed(p, a), alpha)
	}
	return r
}

// runsBounds returns the proven upper bounds on P(L < r) and P(L >= r) that
// LongestRunInterval uses beyond its exact range.
func runsBounds(n int, p float64) (lower, upper func(r int) float64) {
	lower = func(r int) float64 {
		if r <= 0 {
			return 0
		}
		return math.Exp(float64(n/r) * math.Log1p(-math.Pow(p, float64(r))))
	}
	upper = func(r int) float64 {
		if r > n {
			return 0
		}
		return math.Min(1, math.Pow(p, float64(r))*(1+float64(n-r)*(1-p)))
	}
	return lower, upper
}

// firstInt returns the smallest x in [lo, hi] with ok(x), for ok false then true as x grows,
// or hi when ok holds nowhere below it.
func firstInt(lo, hi int, ok func(int) bool) int {
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// runsNeed returns the smallest n at which a longest run can fail at a per tail: no success at
// all, probability (1-p)^n, or all successes, p^n (beyond MaxN, tooSmall says no n will do).
func runsNeed(p, a float64) int {
	n := math.Ceil(math.Log(a) / math.Log(max(p, 1-p)))
	return int(min(n, 2*MaxN))
}
