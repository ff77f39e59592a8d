package sizing

import (
	"math"
)

type loadKey struct {
	n, cells int
	p, alpha float64
}

type loadResult struct {
	m   int
	err error
}

var loadCache memo[loadKey, loadResult]

// LoadLimit returns the smallest count m such that cells * P(Binomial(n, p) >= m) <= alpha:
// the limit on the fullest of cells time buckets, each holding the events of n independent
// loops that each put at most one event in the bucket, with probability at most p (a bucket's
// share of the loops' interval, when their phases are uniform). The check fails when some
// bucket holds m events or more.
//
// The bound is proven: each bucket's count is a sum of independent indicators of probability at
// most p, which Binomial(n, p) dominates, and the union bound over the cells buckets adds their
// tails. The tail is exact, the sum of the binomial's terms (binomialTail). It returns a
// *TooSmallError when not even all n events in one bucket would fail: Need is the smallest
// fleet at which they would; and an *InputError unless 1 <= n <= 2^32, p is in (0, 1),
// 1 <= cells <= 2^53 and alpha is in [MinAlpha, 1).
func LoadLimit(n int, p float64, cells int, alpha float64) (m int, err error) {
	if n < 1 || n > maxRuns {
		return 0, inputErr("LoadLimit", "n = %d loops, want 1 <= n <= 2^32", n)
	}
	if !(p > 0 && p < 1) {
		return 0, inputErr("LoadLimit", "p = %v, want a probability in (0, 1)", p)
	}
	if cells < 1 || cells > MaxN {
		return 0, inputErr("LoadLimit", "cells = %d, want 1 <= cells <= 2^53", cells)
	}
	if err := checkAlpha("LoadLimit", alpha); err != nil {
		return 0, err
	}
	r := loadCache.get(loadKey{n, cells, p, alpha}, func() loadResult { return loadLimit(n, p, cells, alpha) })
	if r.err != nil {
		return 0, copyErr(r.err)
	}
	return r.m, nil
}

// loadLimit computes LoadLimit without the cache.
func loadLimit(n int, p float64, cells int, alpha float64) loadResult {
	a := alpha / float64(cells)
	m := firstInt(1, n+1, func(m int) bool { return binomialTail(n, p, m) <= a })
	if m > n {
		need := math.Ceil((math.Log(float64(cells)) - math.Log(alpha)) / -math.Log(p))
		return loadResult{err: tooSmall("LoadLimit", "load", n, int(min(need, 2*MaxN)), alpha)}
	}
	return loadResult{m: m}
}
