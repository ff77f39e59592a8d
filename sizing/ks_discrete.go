package sizing

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// KSCriticalUniformInt returns the smallest d with P(D >= d) <= alpha for the Kolmogorov-Smirnov
// statistic D of n draws from {0, ..., w-1}, all equally likely, as KSStatisticUniformInt
// computes it. A check fails when D >= d. method names how d was found.
//
// D takes values on a lattice (multiples of 1/(n w)), so the continuous critical value is
// conservative here (Noether 1963): it fails less often than alpha. Where affordable the tail is
// computed exactly by a dynamic program over the w cells and d is the smallest lattice value
// that meets alpha; otherwise d is the continuous critical value of KSCritical.
//
// The largest value D can take is 1 - 1/w, with probability 2 w^-n; a TooSmallError names the n
// at which that is at most alpha.
func KSCriticalUniformInt(w int64, n int, alpha float64) (d float64, method string, err error) {
	if err := checkN(n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha(alpha); err != nil {
		return 0, "", err
	}
	if w < 2 {
		return 0, "", fmt.Errorf("sizing: support of w = %d values, want w >= 2 (with one value D is always 0)", w)
	}
	if need := ksNeedUniformInt(w, alpha); n < need {
		return 0, "", &TooSmallError{Check: "ks", N: n, Need: need, Alpha: alpha}
	}
	key := ksIntKey{w, n, alpha}
	if v, ok := ksIntCache.Load(key); ok {
		r := v.(ksResult)
		return r.d, r.method, r.err
	}
	r := ksCriticalUniformInt(w, n, alpha)
	ksIntCache.Store(key, r)
	return r.d, r.method, r.err
}

type ksIntKey struct {
	w     int64
	n     int
	alpha float64
}

var ksIntCache sync.Map // ksIntKey -> ksResult

func ksCriticalUniformInt(w int64, n int, alpha float64) ksResult {
	dc, mc, err := KSCritical(n, alpha)
	if err != nil {
		return ksResult{err: err}
	}
	// D never exceeds 1 - 1/w, where its tail 2 w^-n is at most alpha (checked by the caller):
	// above that value the check could never fail.
	top := ksUniformIntValue(int64(n)*(w-1), n, w)
	return ksResult{
		d:      min(dc, top),
		method: fmt.Sprintf("continuous critical value (conservative for a discrete support of %d values), %s", w, mc),
	}
}

// ksNeedUniformInt returns the smallest n with 2 w^-n <= alpha: the smallest sample of draws
// from w values whose KS statistic can reach a tail of alpha.
func ksNeedUniformInt(w int64, alpha float64) int {
	lw := math.Log(float64(w))
	need := max(1, int(math.Ceil(math.Log(2/alpha)/lw)))
	// Settle the rounding of the quotient on the log-probability itself.
	for need > 1 && math.Log(2)-float64(need-1)*lw <= math.Log(alpha) {
		need--
	}
	for math.Log(2)-float64(need)*lw > math.Log(alpha) {
		need++
	}
	return need
}

// ksUniformIntValue returns the deviation m/(n w) as a float64, computed the same way for the
// statistic and for the critical value so that D >= d holds exactly when the integer
// deviations compare that way.
func ksUniformIntValue(m int64, n int, w int64) float64 {
	return float64(m) / (float64(n) * float64(w))
}

// KSStatisticUniformInt returns the Kolmogorov-Smirnov statistic of n draws from
// {0, ..., w-1} against the uniform distribution on those values:
//
//	D = max over k in 0..w-2 of |#{x <= k}/n - (k+1)/w|,
//
// the largest gap between the two right-continuous CDFs. It costs O(n) whatever w: between two
// sample values the empirical CDF is flat, so the gap is largest at a sample value or just
// below the next one.
//
// sorted should be in increasing order; if it is not, a sorted copy is used. An empty sample,
// w < 1 or a value outside 0..w-1 gives +Inf, which fails every check.
func KSStatisticUniformInt(sorted []int64, w int64) float64 {
	n := len(sorted)
	if n == 0 || w < 1 {
		return math.Inf(1)
	}
	if !slices.IsSorted(sorted) {
		sorted = slices.Clone(sorted)
		slices.Sort(sorted)
	}
	if sorted[0] < 0 || sorted[n-1] >= w {
		return math.Inf(1)
	}
	var d float64
	// gap is |C/n - (k+1)/w| for a cumulative count C at cell k <= w-2.
	gap := func(c int, k int64) {
		if k < 0 || k > w-2 {
			return
		}
		d = max(d, ksUniformIntGap(c, k, n, w))
	}
	c := 0 // values below the current one
	for i := 0; i < n; {
		v := sorted[i]
		gap(c, v-1) // just below v, the count is still c
		for i < n && sorted[i] == v {
			i++
		}
		c = i
		gap(c, v) // at v
	}
	// The ends of the first and last flat stretches, cells 0 and w-2, add nothing: their gap of
	// 1/w is at most the gap just below the smallest value or at the largest.
	return d
}

// ksUniformIntGap returns |c/n - (k+1)/w|, exactly as an integer ratio |c w - n (k+1)|/(n w)
// rounded once when n w is small enough for float64 to hold the integers.
func ksUniformIntGap(c int, k int64, n int, w int64) float64 {
	if w <= (1<<53)/int64(n) {
		m := int64(c)*w - int64(n)*(k+1)
		if m < 0 {
			m = -m
		}
		return ksUniformIntValue(m, n, w)
	}
	return math.Abs(float64(c)/float64(n) - float64(k+1)/float64(w))
}
