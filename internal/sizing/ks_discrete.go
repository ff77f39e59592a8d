package sizing

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// KSCriticalUniformInt returns the smallest d with P(D >= d) <= alpha for the Kolmogorov-Smirnov
// statistic D of n draws from {0, ..., w-1}, all equally likely, as KSStatisticUniformInt
// computes it. A check fails when D >= d. method names how d was found.
//
// D takes values on a lattice (multiples of 1/(n w)), so the continuous critical value is
// conservative here (Noether 1963): it fails less often than alpha. Where affordable the tail is
// computed exactly by a dynamic program over the w cells and d is the smallest lattice value
// that meets alpha; otherwise d is the continuous critical value of KSCritical. Every w of the
// uint64 range is accepted.
//
// The largest value D can take is 1 - 1/w, with probability 2 w^-n; a TooSmallError names the n
// at which that is at most alpha.
func KSCriticalUniformInt(w uint64, n int, alpha float64) (d float64, method string, err error) {
	if err := checkN("KSCriticalUniformInt", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("KSCriticalUniformInt", alpha); err != nil {
		return 0, "", err
	}
	if w < 2 {
		return 0, "", inputErr("KSCriticalUniformInt", "w = %d values, want w >= 2 (with one value D is always 0)", w)
	}
	if need := ksNeedUniformInt(w, alpha); n < need {
		return 0, "", tooSmall("KSCriticalUniformInt", "ks", n, need, alpha)
	}
	r := ksIntCache.get(ksIntKey{w, n, alpha}, func() ksResult { return ksCriticalUniformInt(w, n, alpha) })
	return r.d, r.method, copyErr(r.err)
}

type ksIntKey struct {
	w     uint64
	n     int
	alpha float64
}

var ksIntCache memo[ksIntKey, ksResult]

// ksIntBudget bounds the work of one evaluation of the exact discrete tail, in inner-loop
// steps (about w x (2 n d + 1)^2): a solve takes about eight evaluations and should stay well
// under 50 ms.
const ksIntBudget = 2_000_000

func ksCriticalUniformInt(w uint64, n int, alpha float64) ksResult {
	dc, mc, err := KSCritical(n, alpha)
	if err != nil {
		return ksResult{err: err}
	}
	// D >= dc implies D n w >= ceil(dc n w), and the tail of the discrete D at any d is at
	// most the continuous one (Noether 1963): the DP's answer lies at or below that.
	nw := float64(n) * float64(w)
	if hi := min(nw, math.Ceil(dc*nw)); (2*hi+float64(w))*(2*hi+float64(w))/float64(w) > ksIntBudget {
		// D never exceeds 1 - 1/w (all draws in an end cell), where its tail 2 w^-n is at
		// most alpha (checked by the caller): above that the check could never fail.
		return ksResult{
			d:      min(dc, ksUniformIntValue(mul64(uint64(n), w-1), n, w)),
			method: fmt.Sprintf("continuous critical value (conservative for a discrete support of %d values), %s", w, mc),
		}
	}
	// Within the budget n w is below 1e7: the integers below are exact in int64.
	top := int64(n) * int64(w-1) // the largest deviation |C w - n (k+1)|
	hi := min(top, int64(math.Ceil(dc*nw)))
	m := newKSIntDP(int(w), n).solve(hi, top, alpha)
	return ksResult{
		d:      ksUniformIntValue(u128{lo: uint64(ksIntLatticeAtLeast(m, n, int64(w)))}, n, w),
		method: fmt.Sprintf("exact (dynamic program over %d cells)", w),
	}
}

// ksIntLatticeAtLeast returns the smallest deviation |C w - n (k+1)| >= m over counts
// 0 <= C <= n and cells 0 <= k <= w-2: the value D n w takes next at or above m.
func ksIntLatticeAtLeast(m int64, n int, w int64) int64 {
	best := int64(n) * (w - 1)
	for k := int64(0); k <= w-2; k++ {
		e := int64(n) * (k + 1)
		if c := ksCeilDiv(e+m, w); c <= int64(n) {
			best = min(best, c*w-e)
		}
		if c := ksFloorDiv(e-m, w); c >= 0 {
			best = min(best, e-c*w)
		}
	}
	return best
}

// ksFloorDiv returns floor(a/b) for b > 0; Go's division truncates towards zero.
func ksFloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// ksCeilDiv returns ceil(a/b) for b > 0.
func ksCeilDiv(a, b int64) int64 { return -ksFloorDiv(-a, b) }

// ksIntDP computes the exact tail of the discrete statistic: P(max_k |C_k w - n (k+1)| >= m)
// for the cumulative counts C_k of n draws from w equally likely cells.
//
// It walks the cells in order, keeping the probability of each count C_k among the paths
// that have stayed inside the band |C w - n (k+1)| < m so far. Given C_(k-1) = c, the count of
// cell k is binomial(n - c, 1/(w - k)). The mass that leaves the band at cell k is summed
// from binomial tails taken term by term from the band's edge outwards, so that the tail is
// a sum of positive terms: it keeps its relative precision at 1e-15 and below, where
// 1 - P(inside) would be all rounding.
type ksIntDP struct {
	w, n int
	lf   []float64 // lf[i] = log i!
	f, g []float64 // the in-band mass by count, before and after a cell
}

func newKSIntDP(w, n int) *ksIntDP {
	lf := make([]float64, n+1)
	for i := 2; i <= n; i++ {
		lf[i] = lf[i-1] + math.Log(float64(i))
	}
	return &ksIntDP{w: w, n: n, lf: lf, f: make([]float64, n+1), g: make([]float64, n+1)}
}

// solve returns the smallest m in [1, hi] with tail(m) <= alpha, given tail(hi) <= alpha or
// hi = top, the largest deviation.
//
// It runs regula falsi on log tail(m) - log alpha, which is close to linear over a short
// bracket, with the Illinois correction; a step that fails to halve the bracket is followed
// by a bisection, so the solve never takes more than twice as many tails as bisection would.
func (dp *ksIntDP) solve(hi, top int64, alpha float64) int64 {
	la := math.Log(alpha)
	g := func(m int64) (float64, bool) {
		p := dp.tail(m)
		if p <= 0 {
			return math.Inf(-1), true
		}
		return math.Log(p) - la, p <= alpha
	}
	ghi, ok := g(hi)
	for !ok && hi < top { // rounding at the continuous value: step up
		hi = min(top, hi+max(1, hi/64))
		ghi, ok = g(hi)
	}
	// The answer is seldom more than 10% below the continuous value, so try a short bracket
	// first; tail(0) = 1 bounds the long one.
	lo := hi * 85 / 100
	glo, ok := g(lo)
	if ok {
		hi, ghi = lo, glo
		lo, glo = 0, -la
	}
	side, bisect := 0, false
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if !bisect && !math.IsInf(ghi, 0) && ghi <= 0 && glo > 0 {
			mid = int64(math.Round(float64(hi) - ghi*float64(hi-lo)/(ghi-glo)))
			mid = min(max(mid, lo+1), hi-1)
		}
		width := hi - lo
		gm, ok := g(mid)
		if !ok {
			lo, glo = mid, gm
			if side == -1 {
				ghi /= 2
			}
			side = -1
		} else {
			hi, ghi = mid, gm
			if side == 1 {
				glo /= 2
			}
			side = 1
		}
		bisect = !bisect && 2*(hi-lo) > width
	}
	return hi
}

// tail returns P(max_k |C_k w - n (k+1)| >= m).
func (dp *ksIntDP) tail(m int64) float64 {
	if m <= 0 {
		return 1
	}
	n, w := int64(dp.n), int64(dp.w)
	f, g := dp.f, dp.g
	clear(f)
	f[0] = 1
	lo, hi := 0, 0 // the counts with mass in f
	var out float64
	for k := int64(0); k <= w-2; k++ {
		e := n * (k + 1)
		l := int(max(0, ksFloorDiv(e-m, w)+1))
		u := int(min(n, ksCeilDiv(e+m, w)-1))
		if l > u { // the band has no integer in it at this cell: every path leaves
			for c := lo; c <= hi; c++ {
				out += f[c]
			}
			return min(1, out)
		}
		p := 1 / float64(w-k)
		lp, lq := math.Log(p), math.Log1p(-p)
		clear(g[l : u+1])
		for c := lo; c <= hi; c++ {
			if f[c] == 0 {
				continue
			}
			out += f[c] * dp.step(f[c], c, l, u, p, lp, lq, g)
		}
		f, g = g, f
		lo, hi = l, u
	}
	return min(1, out)
}

// step spreads the mass fc of count c over the counts c + t in [l, u] of the next cell,
// t ~ binomial(N = n - c, p), adding fc P(t) to g[c + t], and returns the probability that
// c + t falls outside [l, u]. lp and lq are log p and log(1 - p).
func (dp *ksIntDP) step(fc float64, c, l, u int, p, lp, lq float64, g []float64) float64 {
	N := dp.n - c
	a, b := max(0, l-c), u-c // 0 <= a <= b <= N, as l <= u and c <= u <= n
	lf := dp.lf
	pmf := func(t int) float64 {
		return math.Exp(lf[N] - lf[t] - lf[N-t] + float64(t)*lp + float64(N-t)*lq)
	}
	rho := p / (1 - p)
	mode := min(N, int(float64(N+1)*p))
	// In-band: from the point of [a, b] nearest the mode outwards, so that the values only
	// fall and an underflow loses nothing that matters.
	t0 := min(max(mode, a), b)
	gc := g[c:]
	p0 := pmf(t0)
	in := p0
	gc[t0] += fc * p0
	xb := p0 // P(b) when the loop ends
	for t := t0; t < b; t++ {
		xb *= float64(N-t) / float64(t+1) * rho
		in += xb
		gc[t+1] += fc * xb
	}
	xa := p0 // P(a)
	for t := t0; t > a; t-- {
		xa *= float64(t) / (float64(N-t+1) * rho)
		in += xa
		gc[t-1] += fc * xa
	}
	// The tails: the one away from the mode summed term by term from the band's edge, the
	// other by difference (it holds the mode, so it is not small).
	var below, above float64
	if a > 0 && a <= mode {
		below = ksBinomSum(xa*float64(a)/(float64(N-a+1)*rho), a-1, -1, N, rho)
	}
	if b < N && b >= mode {
		above = ksBinomSum(xb*float64(N-b)/float64(b+1)*rho, b+1, +1, N, rho)
	}
	if a > mode {
		below = max(0, 1-in-above)
	}
	if b < mode {
		above = max(0, 1-in-below)
	}
	return below + above
}

// ksBinomSum returns the sum of the binomial(N, p) probabilities from t0 away from the mode in
// direction dir (+1 up, -1 down), given x0 = P(t0) and rho = p/(1-p). Away from the mode the
// terms fall faster than a geometric series of the current ratio, so the sum stops when that
// series bounds the rest below 1e-17 of the total.
func ksBinomSum(x0 float64, t0, dir, N int, rho float64) float64 {
	s, x := x0, x0
	for t := t0; ; t += dir {
		var r float64
		if dir > 0 {
			if t >= N {
				return s
			}
			r = float64(N-t) / float64(t+1) * rho
		} else {
			if t <= 0 {
				return s
			}
			r = float64(t) / (float64(N-t+1) * rho)
		}
		x *= r
		s += x
		if r < 1 && x*r/(1-r) <= 1e-17*s {
			return s
		}
	}
}

// ksNeedUniformInt returns the smallest n with 2 w^-n <= alpha: the smallest sample of draws
// from w values whose KS statistic can reach a tail of alpha.
func ksNeedUniformInt(w uint64, alpha float64) int {
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

// ksUniformIntValue returns the deviation m/(n w) as a float64, rounded once, computed the
// same way for the statistic and for the critical value so that D >= d holds exactly when the
// integer deviations compare that way (up to ties in the rounding past 2^53).
func ksUniformIntValue(m u128, n int, w uint64) float64 {
	if m.hi == 0 && m.lo < 1<<53 {
		if hi, lo := bits.Mul64(uint64(n), w); hi == 0 && lo < 1<<53 {
			return float64(m.lo) / float64(lo) // both exact: one rounding
		}
	}
	return ratio(m, mul64(uint64(n), w))
}

// KSStatisticUniformInt returns the Kolmogorov-Smirnov statistic of n draws from
// {0, ..., w-1} against the uniform distribution on those values:
//
//	D = max over k in 0..w-2 of |#{x <= k}/n - (k+1)/w|,
//
// the largest gap between the two right-continuous CDFs. It costs O(n) whatever w: between two
// sample values the empirical CDF is flat, so the gap is largest at a sample value or just
// below the next one. The gaps are compared exactly, as the integers |C w - n (k+1)|, and the
// largest is rounded once.
//
// sorted should be in increasing order; if it is not, a sorted copy is used. An empty sample,
// w < 1, more than MaxN values or a value outside 0..w-1 gives an *InputError.
func KSStatisticUniformInt(sorted []uint64, w uint64) (float64, error) {
	n := len(sorted)
	if n == 0 || n > MaxN || w < 1 {
		return 0, inputErr("KSStatisticUniformInt", "%d values on w = %d cells, want 1 <= n <= 2^53 values and w >= 1", n, w)
	}
	if !slices.IsSorted(sorted) {
		sorted = slices.Clone(sorted)
		slices.Sort(sorted)
	}
	if sorted[n-1] >= w {
		return 0, inputErr("KSStatisticUniformInt", "value %d is outside 0..w-1 = %d", sorted[n-1], w-1)
	}
	var best u128 // the largest |C w - n (k+1)|
	// gap takes |C w - n (k+1)| for a cumulative count C at cell k <= w-2.
	gap := func(c int, k uint64) {
		if k >= w-1 { // past cell w-2, or below cell 0 (wrapped round)
			return
		}
		if m := absDiff(mul64(uint64(c), w), mul64(uint64(n), k+1)); best.less(m) {
			best = m
		}
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
	return ksUniformIntValue(best, n, w), nil
}
