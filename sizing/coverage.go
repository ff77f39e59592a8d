package sizing

import (
	"fmt"
	"math"
	"math/big"
)

// CoverageGap returns the gap eps = 1 - alpha^(1/n), as a fraction of the width, that the
// maximum of n draws from a continuous uniform distribution stays short of the top of the
// range with probability alpha: P(max < 1 - eps) = alpha for U[0,1). The check fails when
// max < hi - eps*(hi-lo); by symmetry the same eps serves for the minimum.
func CoverageGap(n int, alpha float64) (float64, error) {
	if err := checkN(n); err != nil {
		return 0, err
	}
	if err := checkAlpha(alpha); err != nil {
		return 0, err
	}
	// -expm1 keeps the digits that 1 - pow(alpha, 1/n) loses when eps is small.
	return -math.Expm1(math.Log(alpha) / float64(n)), nil
}

type intKey struct {
	w     int64
	n     int
	alpha float64
}

type intResult struct {
	v   int64
	err error
}

var coverageIntCache, rangeIntCache memo[intKey, intResult]

// cachedInt returns f(w, n, alpha), computing it once per key: the exact comparisons behind
// the discrete coverage limits take up to a millisecond, and spread asks for the same limits
// in every test.
func cachedInt(cache *memo[intKey, intResult], w int64, n int, alpha float64, f func(int64, int, float64) (int64, error)) (int64, error) {
	r := cache.get(intKey{w, n, alpha}, func() intResult {
		v, err := f(w, n, alpha)
		return intResult{v, err}
	})
	return r.v, r.err
}

// CoverageGapInt returns the smallest gap j >= 1 with P(max <= w-1-j) = ((w-j)/w)^n <= alpha
// for n draws from {0, ..., w-1}, all equally likely: the check fails when max <= w-1-j (and,
// by symmetry, when min >= j). It returns a *TooSmallError when even j = w-1 is too likely.
func CoverageGapInt(w int64, n int, alpha float64) (int64, error) {
	if w < 2 {
		return 0, fmt.Errorf("sizing: CoverageGapInt: w = %d values, want w >= 2", w)
	}
	if err := checkN(n); err != nil {
		return 0, err
	}
	if err := checkAlpha(alpha); err != nil {
		return 0, err
	}
	return cachedInt(&coverageIntCache, w, n, alpha, coverageGapInt)
}

func coverageGapInt(w int64, n int, alpha float64) (int64, error) {
	// fits(j) reports P(max <= w-1-j) = ((w-j)/w)^n <= alpha; it is monotone in j.
	fits := func(j int64) bool { return powLE(w-j, w, n, alpha) }
	if !fits(w - 1) {
		need := n + 1
		for !powLE(1, w, need, alpha) {
			need++
		}
		return 0, &TooSmallError{Check: "coverage", N: n, Need: need, Alpha: alpha}
	}
	// Search by logarithms, then settle the last step exactly where that is cheap.
	la, nf, wf := math.Log(alpha), float64(n), float64(w)
	lo, hi := int64(0), w-1 // the answer is in (lo, hi]
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if nf*math.Log1p(-float64(mid)/wf) <= la {
			hi = mid
		} else {
			lo = mid
		}
	}
	// The last j that does not fit, found exactly from the estimate; fits(0) is false.
	return 1 + lastTrue(0, w-1, hi-1, func(j int64) bool { return !fits(j) }), nil
}

// lastTrue returns the largest x in [lo, hi] with ok(x), for ok true at lo and then false
// from some point on, starting from an estimate near the answer: it gallops away from the
// estimate and then bisects, so that a poor estimate costs O(log) calls of ok, not a walk.
func lastTrue(lo, hi, guess int64, ok func(int64) bool) int64 {
	guess = min(max(guess, lo), hi)
	a, b := lo, hi+1 // ok(a) holds, and b is past the answer
	if ok(guess) {
		a = guess
		for step := int64(1); a < hi; step *= 2 {
			next := a + min(step, hi-a)
			if !ok(next) {
				b = next
				break
			}
			a = next
		}
	} else {
		b = guess
		for step := int64(1); b > lo; step *= 2 {
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
func powLE(num, den int64, n int, alpha float64) bool {
	if num == 0 {
		return true
	}
	if float64(n)*math.Log2(float64(den)) > exactBits {
		return float64(n)*(math.Log(float64(num))-math.Log(float64(den))) <= math.Log(alpha)
	}
	e := big.NewInt(int64(n))
	p := new(big.Int).Exp(big.NewInt(num), e, nil)
	q := new(big.Int).Exp(big.NewInt(den), e, nil)
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
	if err := checkAlpha(alpha); err != nil {
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
		if logF(mid) <= la {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(lo), nil
}

// RangeLimitInt returns the largest r with P(max - min <= r) <= alpha for n draws from
// {0, ..., w-1}, all equally likely, where
// P(range <= L-1) = (w-L+1)(L/w)^n - (w-L)((L-1)/w)^n. The check fails when the range of the
// sample is <= r. It returns a *TooSmallError when P(range = 0) = w^(1-n) > alpha.
func RangeLimitInt(w int64, n int, alpha float64) (int64, error) {
	if w < 2 {
		return 0, fmt.Errorf("sizing: RangeLimitInt: w = %d values, want w >= 2", w)
	}
	if err := checkN(n); err != nil {
		return 0, err
	}
	if err := checkAlpha(alpha); err != nil {
		return 0, err
	}
	return cachedInt(&rangeIntCache, w, n, alpha, rangeLimitInt)
}

func rangeLimitInt(w int64, n int, alpha float64) (int64, error) {
	if !rangeCDFLE(w, n, 1, alpha) {
		// P(range = 0) = w^(1-n).
		need := n + 1
		for !powLE(1, w, need-1, alpha) {
			need++
		}
		return 0, &TooSmallError{Check: "range", N: n, Need: need, Alpha: alpha}
	}
	// Largest L in [1, w-1] with P(range <= L-1) <= alpha; P(range <= w-1) = 1. Search by
	// logarithms, then settle the answer exactly where that is cheap.
	la := math.Log(alpha)
	lo, hi := int64(1), w
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if logRangeCDF(w, n, mid) <= la {
			lo = mid
		} else {
			hi = mid
		}
	}
	l := lastTrue(1, w-1, lo, func(l int64) bool { return rangeCDFLE(w, n, l, alpha) })
	return l - 1, nil
}

// rangeCDFLE reports whether P(range <= L-1) <= alpha, exactly when the integers are small.
func rangeCDFLE(w int64, n int, l int64, alpha float64) bool {
	if float64(n)*math.Log2(float64(w)) > exactBits {
		return logRangeCDF(w, n, l) <= math.Log(alpha)
	}
	// ((w-L+1) L^n - (w-L) (L-1)^n) / w^n
	e := big.NewInt(int64(n))
	a := new(big.Int).Exp(big.NewInt(l), e, nil)
	a.Mul(a, big.NewInt(w-l+1))
	b := new(big.Int).Exp(big.NewInt(l-1), e, nil)
	b.Mul(b, big.NewInt(w-l))
	p := new(big.Rat).SetFrac(a.Sub(a, b), new(big.Int).Exp(big.NewInt(w), e, nil))
	return p.Cmp(new(big.Rat).SetFloat64(alpha)) <= 0
}

// logRangeCDF returns log P(range <= L-1) for n draws from {0, ..., w-1}, 1 <= L <= w.
func logRangeCDF(w int64, n int, l int64) float64 {
	nf, wf, lf := float64(n), float64(w), float64(l)
	a := math.Log(wf-lf+1) + nf*(math.Log(lf)-math.Log(wf)) // log of (w-L+1)(L/w)^n
	if l == 1 || l == w {
		return a // the second term is zero
	}
	// b/a = (w-L)/(w-L+1) * ((L-1)/L)^n, computed without cancellation.
	logRatio := math.Log1p(-1/(wf-lf+1)) + nf*math.Log1p(-1/lf)
	return a + math.Log(-math.Expm1(logRatio))
}
