package sizing

import (
	"math"
	"slices"
)

// The methods that KSTail and KSCritical name.
const (
	// ksMethodExact: 1 - KSExactCDF, the Marsaglia-Tsang-Wang matrix power.
	ksMethodExact = "exact (Marsaglia-Tsang-Wang)"
	// ksMethodHalf: for d >= 1/2 the events D+ >= d and D- >= d are disjoint, so the
	// two-sided tail is exactly twice the one-sided one (Smirnov).
	ksMethodHalf = "exact (2 x one-sided, as d >= 1/2)"
	// ksMethodOneSided: twice the exact one-sided tail P+, an upper bound on the two-sided
	// tail that exceeds it by a relative P+/(2 - P+) at most (see ksOneSidedTail).
	ksMethodOneSided = "2 x exact one-sided (Birnbaum-Tingey)"
	// ksMethodDKW: 2 exp(-2 n d^2), Massart's tight Dvoretzky-Kiefer-Wolfowitz bound.
	ksMethodDKW = "DKW-Massart bound"
)

// Where KSTail switches methods. Each limit keeps the cost of one KSCritical solve (about ten
// tail evaluations) well under 50 ms on one core.
const (
	// ksMaxExactN is the largest n for the matrix power, which costs O((n d)^3 log n).
	ksMaxExactN = 140
	// ksMaxOneSidedN is the largest n for the Birnbaum-Tingey sum, which costs O(n).
	ksMaxOneSidedN = 50_000
	// ksSmallTail is the two-sided tail below which twice the one-sided tail is used even
	// where the matrix power is affordable: there it is within a relative 2.5e-6 of the
	// exact value, closer than 1 - KSExactCDF, which loses digits to cancellation.
	ksSmallTail = 1e-5
)

// KSTail returns P(D_n >= d) for the two-sided one-sample Kolmogorov-Smirnov statistic
// D_n = sup|F_n - F| of n i.i.d. values from a continuous F, and the method that computed it.
//
// The value is exact or a rigorous upper bound, whichever the cost allows:
//   - d >= 1/2, any n: exact, twice the one-sided tail;
//   - n <= 140 and a tail above 1e-5: exact, 1 - KSExactCDF(n, d);
//   - n <= 50,000: twice the exact one-sided tail (Birnbaum-Tingey), an upper bound that
//     exceeds the exact tail by a relative P+/(2-P+) at most, P+ the one-sided tail
//     (2.5e-6 at a tail of 1e-5);
//   - larger n: the DKW-Massart bound 2 exp(-2 n d^2), at every d.
//
// It returns an *InputError for n outside [1, MaxN] or a NaN d.
func KSTail(n int, d float64) (p float64, method string, err error) {
	if err := checkN("KSTail", n); err != nil {
		return 0, "", err
	}
	if math.IsNaN(d) {
		return 0, "", inputErr("KSTail", "d = NaN, want a distance")
	}
	p, method = ksTail(n, d, nil, ksAuto)
	return p, method, nil
}

// How ksTail picks between the matrix power and twice the one-sided tail where both apply.
const (
	ksAuto  = iota // by the size of the tail, as KSTail documents
	ksExact        // always the matrix power
	ksBound        // always twice the one-sided tail
)

// ksTail is KSTail with an optional table lc of log C(n, j), j = 0..n, which saves a
// logarithm per term of the one-sided sum when many tails at one n are wanted, and a choice
// of method: KSCritical fixes the method for a whole solve so that the tail it inverts is one
// monotone function of d.
func ksTail(n int, d float64, lc []float64, choice int) (p float64, method string) {
	switch {
	case d <= 0.5/float64(n):
		return 1, ksMethodExact // D_n >= 1/(2n) always
	case d >= 1:
		return 0, ksMethodExact // P(D_n = 1) = 0
	case n > ksMaxOneSidedN:
		// The one-sided sum costs O(n): beyond the limit the bound, even where d >= 1/2. It
		// is the bound KSCritical verifies (rounded up), not 2*math.Exp, which rounds either
		// way: so KSTail at KSCritical's d is at most alpha to the last digit.
		return min(1, roundUp(dkwUpper(n, d))), ksMethodDKW
	case d >= 0.5:
		return min(1, 2*ksOneSidedTail(n, d, lc)), ksMethodHalf
	}
	p = min(1, 2*ksOneSidedTail(n, d, lc))
	if n <= ksMaxExactN && (choice == ksExact || choice == ksAuto && p > ksSmallTail) {
		if q := 1 - ksMTW(n, d); q > 0 {
			return q, ksMethodExact
		}
	}
	return p, ksMethodOneSided
}

// ksOneSidedTail returns P(D+_n >= d) for D+_n = sup(F_n - F) and 0 < d <= 1, by the finite
// sum of Smirnov (1944) and Birnbaum and Tingey (1951), given lc[j] = log C(n, j) or a nil lc:
//
//	P(D+ >= d) = d sum_{j=0}^{floor(n(1-d))} C(n,j) (1 - d - j/n)^(n-j) (d + j/n)^(j-1).
//
// The terms are positive, so the sum has no cancellation; it is taken in the log domain so that
// no power under- or overflows.
//
// Why twice this bounds the two-sided tail so closely: the events A = {D+ >= d} and
// B = {D- >= d} are monotone in the sample, A decreasing and B increasing (lowering any value
// lowers every order statistic). Independent variables are associated (Esary, Proschan and
// Walkup 1967, Harris's inequality), so P(A and B) <= P(A) P(B) = P+^2. Hence
// 2 P+ - P+^2 <= P(D >= d) <= 2 P+; and for d >= 1/2, A and B are disjoint.
func ksOneSidedTail(n int, d float64, lc []float64) float64 {
	if d <= 0 {
		return 1
	}
	if d > 1 {
		return 0
	}
	nf := float64(n)
	nd := nf * d
	c := nf * (1 - d) // n(1 - d); 1 - d is exact for d >= 1/2, where d can lie an ulp from 1
	jmax := int(math.Floor(c))
	logD := math.Log(d)
	logN := math.Log(nf)
	// A streaming log-sum-exp: m is the largest log term so far, s the sum of exp(term - m).
	m, s := math.Inf(-1), 0.0
	lcj := 0.0 // log C(n, j)
	for j := 0; j <= jmax; j++ {
		if lc != nil {
			lcj = lc[j]
		} else if j > 0 {
			lcj += math.Log(float64(n-j+1) / float64(j))
		}
		r := c - float64(j) // n(1 - d - j/n)
		if r <= 0 {
			break // (1 - d - j/n)^(n-j) = 0 as n - j > 0
		}
		x := lcj + float64(n-j)*(math.Log(r)-logN) + float64(j-1)*(math.Log(nd+float64(j))-logN)
		if x > m {
			s = s*math.Exp(m-x) + 1
			m = x
		} else {
			s += math.Exp(x - m)
		}
	}
	if s == 0 {
		return 0
	}
	return min(1, math.Exp(logD+m+math.Log(s)))
}

// KSCritical returns the smallest d with P(D_n >= d) <= alpha for the two-sided one-sample
// statistic D_n = sup|F_n - F| of n i.i.d. values from a continuous F. A check fails when
// D_n >= d. method names how d was found: it is the method KSTail uses at d, so that
// KSTail(n, d) <= alpha.
//
// The answer is exact wherever d >= 1/2, and for n <= 140 at alpha > 1e-5
// (Marsaglia-Tsang-Wang). Up to n = 50,000 it inverts twice the exact one-sided tail, which
// exceeds the two-sided tail by a relative alpha/4 at most (2.5e-10 at alpha = 1e-9). Beyond,
// it is the DKW-Massart bound sqrt(ln(2/alpha)/(2n)), about 1/(6n) above the exact value. Every
// method errs on the side of fewer false failures, to the last digit, by construction: d is
// solved in float64, then stepped outwards until the method's tail at d, computed with every
// rounding directed (ksTwoSidedUpper), is at most alpha, so that the exact tail at d is. Results
// are cached: repeated calls with the same n and alpha cost a map look-up.
//
// d is below 1 for every n >= 1, as P(D_n >= d) = 2 (1-d)^n near d = 1; a TooSmallError is
// returned only when alpha is so small that d rounds to 1 in float64 (alpha < 2.2e-16 at n = 1).
func KSCritical(n int, alpha float64) (d float64, method string, err error) {
	if err := checkN("KSCritical", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("KSCritical", alpha); err != nil {
		return 0, "", err
	}
	r := ksCache.get(ksKey{n, alpha}, func() ksResult { return ksCritical(n, alpha, ksGuess(n)) })
	return r.d, r.method, copyErr(r.err)
}

type ksKey struct {
	n     int
	alpha float64
}

type ksResult struct {
	d      float64
	method string
	err    error
}

// ksCache holds KSCritical's answers: a check battery asks for the same (n, alpha) on every
// call, and the first answer can cost tens of milliseconds.
var ksCache memo[ksKey, ksResult]

// ksCritical solves KSCritical for a float64 tail of alpha (1 - guess), then verifies it.
func ksCritical(n int, alpha, guess float64) ksResult {
	if n > ksMaxOneSidedN {
		return ksResult{d: ksVerify(n, alpha, ksDKW(n, alpha), ksMethodDKW), method: ksMethodDKW}
	}
	// One method for the whole solve, chosen by alpha: the exact tail where it is affordable
	// and precise, twice the one-sided tail below 1e-5. Both are monotone in d, so d is
	// monotone in alpha; and KSTail, which chooses by the tail at d, uses the same method at
	// the answer, or a tail below 1e-5 < alpha.
	choice := ksBound
	if alpha > ksSmallTail {
		choice = ksExact
	}
	lc := ksLogChoose(n)
	tail := func(d float64) float64 { p, _ := ksTail(n, d, lc, choice); return p }
	// The tails are computed in float64 and round either way: d is solved for a float64 tail
	// a little below alpha (ksGuess), then checked, and stepped up until the verified tail
	// at d, with every rounding directed, is at most alpha (ksVerify).
	target := alpha * (1 - guess)
	d, top := ksCriticalTop(n, target, tail)
	if !top {
		// The exact d lies about 1/(6n) below DKW's for large n: P+ ~ exp(-2nd^2 - 2d/3).
		d = ksSolve(tail, 0.5/float64(n), min(1, ksDKW(n, alpha)), 1/(3*float64(n)), target)
	}
	if d >= 1 {
		return ksResult{err: tooSmall("KSCritical", "ks", n, ksNeed(alpha), alpha)}
	}
	_, method := ksTail(n, d, lc, choice)
	if d = ksVerify(n, alpha, d, method); d >= 1 {
		return ksResult{err: tooSmall("KSCritical", "ks", n, ksNeed(alpha), alpha)}
	}
	_, method = ksTail(n, d, lc, choice)
	return ksResult{d: d, method: method}
}

// ksGuess is how far below alpha (relative) KSCritical solves its float64 tail, n * 2^-46, so
// that the first verification passes and the limit needs no step: the float64 sum of n
// logarithms rounds by about n ulps (4.7e-13 measured at n = 1,000 against 256-bit sums). The
// promise does not rest on it: ksVerify does.
func ksGuess(n int) float64 { return float64(n) * 0x1p-46 }

// ksVerify returns the smallest d' >= d on an outward walk at which the verified tail of
// method, an upper bound on the exact P(D_n >= d') (see ksTwoSidedUpper), is at most alpha:
// d itself when its verified tail is, else d plus steps that start at one ulp and double. It
// returns 1 (a tail of 0) when no d' below 1 is found.
func ksVerify(n int, alpha, d float64, method string) float64 {
	for step := math.Nextafter(d, 2) - d; d < 1; step *= 2 {
		if ksTailAtMost(n, d, alpha, method) {
			return d
		}
		d += step
	}
	return 1
}

// ksLogChoose returns log C(n, j) for j = 0..n, or nil where KSTail does not sum terms.
func ksLogChoose(n int) []float64 {
	if n > ksMaxOneSidedN {
		return nil
	}
	lc := make([]float64, n+1)
	for j := 1; j <= n; j++ {
		lc[j] = lc[j-1] + math.Log(float64(n-j+1)/float64(j))
	}
	return lc
}

// ksDKW returns the DKW-Massart critical value sqrt(ln(2/alpha)/(2n)). Massart (1990) proves
// P(D_n > d) <= 2 exp(-2 n d^2) for every d in the two-sided case (his condition
// exp(-2 n d^2) <= 1/2 concerns the one-sided bound, and holds here anyway whenever
// alpha < 1); P(D_n >= d) obeys the same bound, as the limit of P(D_n > d') for d' < d.
func ksDKW(n int, alpha float64) float64 {
	return math.Sqrt(math.Log(2/alpha) / (2 * float64(n)))
}

// ksSolve returns the smallest d in (lo, hi] with tail(d) <= alpha, to a relative 1e-10 of
// both d and 1 - d, for a non-increasing tail with tail(lo) > alpha. step is a guess of how
// far below hi the answer lies. It runs the Illinois variant of regula falsi on
// log tail(d) - log alpha, which is close to linear over a short bracket, so a solve takes a
// handful of evaluations of tail.
func ksSolve(tail func(float64) float64, lo, hi, step, alpha float64) float64 {
	la := math.Log(alpha)
	// f returns log tail(d) - log alpha for the secant steps, and whether tail(d) <= alpha,
	// decided on the tail itself: the logarithm can round two values an ulp apart together.
	f := func(d float64) (float64, bool) {
		p := tail(d)
		if p <= 0 {
			return math.Inf(-1), true
		}
		return math.Log(p) - la, p <= alpha
	}
	fhi, ok := f(hi)
	for !ok { // rounding in tail: move up towards 1, where the tail is 0
		lo, hi = hi, (hi+1)/2
		if hi == 1 {
			return 1
		}
		fhi, ok = f(hi)
	}
	// Step down from hi, doubling the step, until the tail exceeds alpha: a short bracket
	// with finite values at both ends lets the secant steps converge fast.
	bottom := lo
	lo = max(bottom, hi-step)
	flo, ok := f(lo)
	for ok {
		hi, fhi = lo, flo
		step *= 2
		lo = max(bottom, hi-step)
		flo, ok = f(lo)
	}
	// The secant needs fhi <= 0 < flo; rounding in the logarithm can break that, and then
	// the step is a bisection.
	side := 0
	for range 200 {
		if hi-lo <= 1e-10*min(lo, 1-hi) {
			break
		}
		mid := lo + (hi-lo)/2
		if !math.IsInf(fhi, 0) && fhi <= 0 && flo > 0 {
			mid = hi - fhi*(hi-lo)/(fhi-flo)
		}
		if mid <= lo || mid >= hi {
			mid = lo + (hi-lo)/2
			if mid <= lo || mid >= hi {
				break // lo and hi are adjacent floats
			}
		}
		fm, ok := f(mid)
		if !ok {
			lo, flo = mid, fm
			if side == -1 {
				fhi /= 2
			}
			side = -1
		} else {
			hi, fhi = mid, fm
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
	}
	return hi
}

// ksCriticalTop returns KSCritical's d when it lies above 1 - 1/n, where the tail has a closed
// form: the one-sided sum has one term, P(D+ >= d) = (1-d)^n, and d >= 1/2 makes the sides
// disjoint, so P(D >= d) = 2 (1-d)^n. That is where a tiny alpha puts d, within a few ulps of
// 1, where a solve cannot resolve it. From the closed form it steps to the smallest float64 d
// at which tail, the tail KSTail computes, is at most alpha (1 when no d below 1 is); it
// returns false when the tail at 1 - 1/n is already at most alpha.
func ksCriticalTop(n int, alpha float64, tail func(float64) float64) (float64, bool) {
	if n > 1 && tail(1-1/float64(n)) <= alpha {
		return 0, false
	}
	d := max(0.5, -math.Expm1(math.Log(alpha/2)/float64(n)))
	for d < 1 && tail(d) > alpha {
		d = math.Nextafter(d, 2)
	}
	for below := math.Nextafter(d, 0); below >= 0.5 && tail(below) <= alpha; below = math.Nextafter(d, 0) {
		d = below
	}
	return d, true
}

// ksNeed returns the smallest n at which KSCritical's d at alpha is below 1 in float64: the
// smallest n with 2 (2^-53)^n <= alpha, the tail at the largest float64 below 1.
func ksNeed(alpha float64) int {
	return int(math.Ceil((1 - math.Log2(alpha)) / 53))
}

// KSStatistic returns the two-sided one-sample Kolmogorov-Smirnov statistic
// D_n = sup|F_n - F| of a sample against the CDF cdf of a continuous distribution, in O(n):
// the largest of i/n - F(x_i) and F(x_i) - (i-1)/n over the sorted values x_1 <= ... <= x_n.
//
// sorted should be in increasing order; if it is not, a sorted copy is used, so the answer is
// right either way. An empty sample, a nil cdf, a NaN value or a cdf value outside [0, 1]
// gives an *InputError: a sample that cannot be tested never passes.
func KSStatistic(sorted []float64, cdf func(float64) float64) (float64, error) {
	if len(sorted) == 0 || cdf == nil {
		return 0, inputErr("KSStatistic", "an empty sample or a nil cdf")
	}
	if !slices.IsSorted(sorted) {
		sorted = slices.Clone(sorted)
		slices.Sort(sorted)
	}
	n := float64(len(sorted))
	var d float64
	for i, x := range sorted {
		f := cdf(x)
		if math.IsNaN(x) || !(f >= 0 && f <= 1) {
			return 0, inputErr("KSStatistic", "value %v has cdf %v, want a number with a cdf in [0, 1]", x, f)
		}
		d = max(d, float64(i+1)/n-f, f-float64(i)/n)
	}
	return d, nil
}
