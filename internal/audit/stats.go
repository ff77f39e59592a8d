package audit

import (
	"math"
)

// fisherGreater returns the one-sided p-value of Fisher's exact test that a test fails more
// often under a mutant (a failures in m runs) than at baseline (b failures in n runs): the
// probability, with the total failures fixed, that the mutant's runs hold a or more of them
// if the mutant changed nothing.
func fisherGreater(a, m, b, n int) float64 {
	k := a + b
	return hyperTail(k, m, n, a, min(k, m))
}

// fisherLess is the other tail: the mutant's runs hold a or fewer of the failures.
func fisherLess(a, m, b, n int) float64 {
	k := a + b
	return hyperTail(k, m, n, max(0, k-n), a)
}

// hyperTail returns P(lo <= X <= hi) for X hypergeometric: the failures among m runs drawn
// from m + n runs that hold k failures. The terms are summed relative to the largest, in
// logs, so that tails far below 1e-300 come out as 0 rather than NaN.
func hyperTail(k, m, n, lo, hi int) float64 {
	if lo > hi {
		return 0
	}
	if lo <= max(0, k-n) && hi >= min(k, m) {
		return 1 // the whole support
	}
	total := m + n
	logTerm := func(x int) float64 {
		return lchoose(k, x) + lchoose(total-k, m-x) - lchoose(total, m)
	}
	top := math.Inf(-1)
	for x := lo; x <= hi; x++ {
		top = max(top, logTerm(x))
	}
	s := 0.0
	for x := lo; x <= hi; x++ {
		s += math.Exp(logTerm(x) - top)
	}
	return min(1, math.Exp(top)*s)
}

// lchoose returns log C(n, k).
func lchoose(n, k int) float64 {
	if k < 0 || k > n {
		return math.Inf(-1)
	}
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// looks returns the cumulative run counts after which a mutant's results are examined: R/8,
// R/4, R/2 and R, rounded up, without repeats. A mutant stops at the first look where it is
// killed; the false-kill rate is split across the looks (Bonferroni), so stopping early costs
// no validity.
func looks(r int) []int {
	var out []int
	for _, d := range []int{8, 4, 2, 1} {
		m := (r + d - 1) / d
		if len(out) == 0 || m > out[len(out)-1] {
			out = append(out, m)
		}
	}
	return out
}

// cannotKill reports whether a mutant with a failures in m runs, compared with b failures in
// n baseline runs, stays above the level even if every one of the rest of its r runs fails:
// its survival is then certain, and running on would change nothing.
func cannotKill(a, m, r, b, n int, level float64) bool {
	return fisherGreater(a+(r-m), r, b, n) > level
}
