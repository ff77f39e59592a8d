package sizing

import (
	"math"
	"math/big"
)

// CoverageGap returns the gap eps = 1 - alpha^(1/n), as a fraction of the width, that the
// maximum of n draws from a continuous uniform distribution stays short of the top of the
// range with probability alpha: P(max < 1 - eps) = alpha for U[0,1). The check fails when
// max < hi - eps*(hi-lo); by symmetry the same eps serves for the minimum.
func CoverageGap(n int, alpha float64) (float64, error) {
	if err := checkN("CoverageGap", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("CoverageGap", alpha); err != nil {
		return 0, err
	}
	// -expm1 keeps the digits that 1 - pow(alpha, 1/n) loses when eps is small.
	return -math.Expm1(math.Log(alpha) / float64(n)), nil
}

type intKey struct {
	w     uint64
	n     int
	alpha float64
}

type intResult struct {
	v   uint64
	err error
}

var coverageIntCache, rangeIntCache memo[intKey, intResult]

// cachedInt returns f(w, n, alpha), computing it once per key: the exact comparisons behind
// the discrete coverage limits take up to a millisecond, and spread asks for the same limits
// in every test.
func cachedInt(cache *memo[intKey, intResult], w uint64, n int, alpha float64, f func(uint64, int, float64) (uint64, error)) (uint64, error) {
	r := cache.get(intKey{w, n, alpha}, func() intResult {
		v, err := f(w, n, alpha)
		return intResult{v, err}
	})
	return r.v, copyErr(r.err)
}

// CoverageGapInt returns the smallest gap j >= 1 with P(max <= w-1-j) = ((w-j)/w)^n <= alpha
// for n draws from {0, ..., w-1}, all equally likely: the check fails when max <= w-1-j (and,
// by symmetry, when min >= j). Every w of the uint64 range is exact: the check compares
// integers. It returns a *TooSmallError when even j = w-1 is too likely.
func CoverageGapInt(w uint64, n int, alpha float64) (uint64, error) {
	if w < 2 {
		return 0, inputErr("CoverageGapInt", "w = %d values, want w >= 2", w)
	}
	if err := checkN("CoverageGapInt", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("CoverageGapInt", alpha); err != nil {
		return 0, err
	}
	return cachedInt(&coverageIntCache, w, n, alpha, coverageGapInt)
}

func coverageGapInt(w uint64, n int, alpha float64) (uint64, error) {
	// fits(j) reports P(max <= w-1-j) = ((w-j)/w)^n <= alpha; it is monotone in j.
	fits := func(j uint64) bool { return powLE(w-j, w, n, alpha) }
	if !fits(w - 1) {
		return 0, tooSmall("CoverageGapInt", "coverage", n, minNPowLE(w, alpha, 0), alpha)
	}
	// Search by logarithms, then settle the last step exactly where that is cheap.
	la, nf, wf := math.Log(alpha), float64(n), float64(w)
	lo, hi := uint64(0), w-1 // the answer is in (lo, hi]
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if nf*math.Log1p(-float64(mid)/wf) <= la {
			hi = mid
		} else {
			lo = mid
		}
	}
	// The last j that does not fit, found exactly from the estimate; fits(0) is false.
	return 1 + lastTrue(0, w-1, hi-1, func(j uint64) bool { return !fits(j) }), nil
}

// minNPowLE returns the smallest n with w^-(n-shift) <= alpha, decided as powLE decides it.
func minNPowLE(w uint64, alpha float64, shift int) int {
	need := minNPow(float64(w), alpha, 1) + shift
	for need > 1+shift && powLE(1, w, need-1-shift, alpha) {
		need--
	}
	for !powLE(1, w, need-shift, alpha) {
		need++
	}
	return need
}

// lastTrue returns the largest x in [lo, hi] with ok(x), for ok true at lo and then false
// from some point on, starting from an estimate near the answer: it gallops away from the
// estimate and then bisects, so that a poor estimate costs O(log) calls of ok, not a walk.
func lastTrue(lo, hi, guess uint64, ok func(uint64) bool) uint64 {
	guess = min(max(guess, lo), hi)
	a, b := lo, hi // ok(a) holds, and the answer is below b unless ok(hi)
	if ok(hi) {
		return hi
	}
	if ok(guess) {
		a = guess
		for step := uint64(1); a < hi; step *= 2 {
			next := a + min(step, hi-a)
			if !ok(next) {
				b = next
				break
			}
			a = next
		}
	} else {
		b = guess
		for step := uint64(1); b > lo; step *= 2 {
			next := b - min(step, b-lo)
			if ok(next) {
				a = next
				break
			}
			b = next
		}
	}
	for b-a > 1 {
		mid := a + (b-a)/2
		if ok(mid) {
			a = mid
		} else {
			b = mid
		}
	}
	return a
}

// exactBits caps the size of the integers in exact comparisons of probabilities: such a
// comparison takes microseconds, and settles ties such as (10/1000)^1 <= 0.01 the way exact
// arithmetic does.
const exactBits = 1 << 14

// powLE reports whether (num/den)^n <= alpha, for 0 <= num <= den: exactly (in integers,
// with alpha taken as the exact value of the float64) when the integers are small enough,
// and by logarithms otherwise.
func powLE(num, den uint64, n int, alpha float64) bool {
	if num == 0 {
		return true
	}
	if float64(n)*math.Log2(float64(den)) > exactBits {
		return float64(n)*logRatio(num, den) <= math.Log(alpha)-logMargin
	}
	e := big.NewInt(int64(n))
	p := new(big.Int).Exp(new(big.Int).SetUint64(num), e, nil)
	q := new(big.Int).Exp(new(big.Int).SetUint64(den), e, nil)
	return new(big.Rat).SetFrac(p, q).Cmp(new(big.Rat).SetFloat64(alpha)) <= 0
}

// minNPow returns the smallest n with c * w^-n <= alpha, for w > 1.
func minNPow(w, alpha, c float64) int {
	n := max(1, int(math.Ceil((math.Log(c)-math.Log(alpha))/math.Log(w))))
	for n > 1 && float64(n-1)*math.Log(w) >= (math.Log(c)-math.Log(alpha)) {
		n--
	}
	for float64(n)*math.Log(w) < (math.Log(c) - math.Log(alpha)) {
		n++
	}
	return n
}

// RangeLimit returns the r, as a fraction of the width, with
// P(max - min <= r) = n r^(n-1) - (n-1) r^n = alpha for n >= 2 draws from a continuous uniform
// distribution. The check fails when the range of the sample is <= r*(hi-lo).
func RangeLimit(n int, alpha float64) (float64, error) {
	if err := checkN("RangeLimit", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("RangeLimit", alpha); err != nil {
		return 0, err
	}
	if n < 2 {
		return 0, &TooSmallError{Check: "range", N: n, Need: 2, Alpha: alpha}
	}
	nf := float64(n)
	la := math.Log(alpha)
	// log P(range <= e^u), increasing in u.
	logF := func(u float64) float64 { return (nf-1)*u + math.Log(nf-(nf-1)*math.Exp(u)) }
	// r^(n-1) <= F(r) <= n r^(n-1) brackets the root.
	lo, hi := (la-math.Log(nf))/(nf-1), la/(nf-1)
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if logF(mid) <= la-logMargin {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(lo), nil
}

// logMargin is the slack, in log probability, that a decision taken by logarithms leaves on
// the side of passing: their rounding is below 1e-12, and a relative 1e-9 of alpha costs no
// power that matters.
const logMargin = 1e-9

// logRatio returns log(num/den) for 0 < num <= den, without the cancellation of
// log(num) - log(den) when num is close to den.
func logRatio(num, den uint64) float64 {
	return math.Log1p(-float64(den-num) / float64(den))
}

// RangeLimitInt returns the largest r with P(max - min <= r) <= alpha for n draws from
// {0, ..., w-1}, all equally likely, where
// P(range <= L-1) = (w-L+1)(L/w)^n - (w-L)((L-1)/w)^n. The check fails when the range of the
// sample is <= r. Every w of the uint64 range is exact: the check compares integers. It
// returns a *TooSmallError when P(range = 0) = w^(1-n) > alpha.
func RangeLimitInt(w uint64, n int, alpha float64) (uint64, error) {
	if w < 2 {
		return 0, inputErr("RangeLimitInt", "w = %d values, want w >= 2", w)
	}
	if err := checkN("RangeLimitInt", n); err != nil {
		return 0, err
	}
	if err := checkAlpha("RangeLimitInt", alpha); err != nil {
		return 0, err
	}
	return cachedInt(&rangeIntCache, w, n, alpha, rangeLimitInt)
}

func rangeLimitInt(w uint64, n int, alpha float64) (uint64, error) {
	if !rangeCDFLE(w, n, 1, alpha) {
		// P(range = 0) = w^(1-n).
		return 0, tooSmall("RangeLimitInt", "range", n, minNPowLE(w, alpha, 1), alpha)
	}
	// Largest L in [1, w-1] with P(range <= L-1) <= alpha; P(range <= w-1) = 1. Search by
	// logarithms, then settle the answer exactly where that is cheap.
	la := math.Log(alpha)
	lo, hi := uint64(1), w
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if logRangeCDF(w, n, mid) <= la {
			lo = mid
		} else {
			hi = mid
		}
	}
	l := lastTrue(1, w-1, lo, func(l uint64) bool { return rangeCDFLE(w, n, l, alpha) })
	return l - 1, nil
}

// rangeCDFLE reports whether P(range <= L-1) <= alpha, exactly when the integers are small.
func rangeCDFLE(w uint64, n int, l uint64, alpha float64) bool {
	if float64(n)*math.Log2(float64(w)) > exactBits {
		return logRangeCDF(w, n, l) <= math.Log(alpha)-logMargin
	}
	// ((w-L+1) L^n - (w-L) (L-1)^n) / w^n
	e := big.NewInt(int64(n))
	u := func(x uint64) *big.Int { return new(big.Int).SetUint64(x) }
	a := new(big.Int).Exp(u(l), e, nil)
	a.Mul(a, new(big.Int).Add(u(w-l), big.NewInt(1)))
	b := new(big.Int).Exp(u(l-1), e, nil)
	b.Mul(b, u(w-l))
	p := new(big.Rat).SetFrac(a.Sub(a, b), new(big.Int).Exp(u(w), e, nil))
	return p.Cmp(new(big.Rat).SetFloat64(alpha)) <= 0
}

// logRangeCDF returns log P(range <= L-1) for n draws from {0, ..., w-1}, 1 <= L <= w.
func logRangeCDF(w uint64, n int, l uint64) float64 {
	nf := float64(n)
	a := math.Log(float64(w-l)+1) + nf*logRatio(l, w) // log of (w-L+1)(L/w)^n
	if l == 1 || l == w {
		return a // the second term is zero
	}
	// b/a = (w-L)/(w-L+1) * ((L-1)/L)^n, computed without cancellation.
	r := math.Log1p(-1/(float64(w-l)+1)) + nf*math.Log1p(-1/float64(l))
	return a + math.Log(-math.Expm1(r))
}
