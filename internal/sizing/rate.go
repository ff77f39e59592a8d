package sizing

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// meanTailBudget caps the work of the exact Irwin-Hall tail in MeanUniformTail: the number of
// terms times the cost of one term's power of b bits, b^1.585 (Karatsuba's products, which
// dominate once the integers are large); 6e9 (n = 2000, tol = 0.05) takes about 40 ms, the
// budget about 0.15 s.
const meanTailBudget = 2e10

type meanTailKey struct {
	n   int
	tol float64
}

type meanTailResult struct {
	p      float64
	method string
}

var meanTailCache memo[meanTailKey, meanTailResult]

// MeanUniformTail returns the false-failure rate of a hand-sized tolerance on the mean:
// P(|M - 1/2| > tol) for the mean M of n independent draws from U[0,1). For a uniform over
// [lo, hi), give the tolerance in units of the width hi - lo: "the mean within 5% of the
// base" for full jitter over [0, base) is tol = 0.05. A one-sided check (M > 1/2 + tol alone)
// fails half as often, by symmetry.
//
// It is exact when affordable (up to about n = 2000 for a tolerance of a few decimal digits,
// within 0.1 s): the Irwin-Hall alternating sum
// P(nM <= x) = (1/n!) sum_{k <= x} (-1)^k C(n, k) (x - k)^n evaluated in exact integer
// arithmetic, so the cancellation between its terms costs nothing. Beyond that it is the
// Chernoff bound with the uniform's moment generating function, an upper bound whose exponent
// is exact. method says which. A rate below the smallest float64 is returned as 0.
func MeanUniformTail(n int, tol float64) (p float64, method string, err error) {
	if err := checkN("MeanUniformTail", n); err != nil {
		return 0, "", err
	}
	if math.IsNaN(tol) || math.IsInf(tol, 0) || tol < 0 {
		return 0, "", inputErr("MeanUniformTail", "tol = %v, want a finite value >= 0", tol)
	}
	if tol >= 0.5 {
		return 0, "exact (the mean of U[0,1) draws never leaves [0, 1))", nil
	}
	r := meanTailCache.get(meanTailKey{n, tol}, func() meanTailResult {
		if x := irwinHallCut(n, tol); meanTailAffordable(n, x) {
			return meanTailResult{2 * irwinHallLower(n, x), fmt.Sprintf("exact (Irwin-Hall, n = %d)", n)}
		}
		return meanTailResult{min(1, 2*math.Exp(-float64(n)*uniformRate(tol))),
			fmt.Sprintf("Chernoff bound with the uniform's moment generating function (n = %d)", n)}
	})
	return r.p, r.method, nil
}

// irwinHallCut returns the point x = n(1/2 - tol) below which the sum of the n draws must
// fall, as an exact rational. tol is read as the shortest decimal that rounds to it (0.05 as
// 1/20, not as the binary fraction nearest to it): that is the number a person typed, and its
// small denominator keeps the integers of the exact sum short.
func irwinHallCut(n int, tol float64) *big.Rat {
	x, _ := new(big.Rat).SetString(strconv.FormatFloat(tol, 'g', -1, 64))
	x.Sub(big.NewRat(1, 2), x)
	return x.Mul(x, new(big.Rat).SetInt64(int64(n)))
}

// meanTailAffordable reports whether the exact sum below x fits meanTailBudget.
func meanTailAffordable(n int, x *big.Rat) bool {
	terms, _ := x.Float64()
	bits := float64(n) * float64(max(x.Num().BitLen(), x.Denom().BitLen()))
	return (math.Floor(terms)+1)*math.Pow(bits, math.Log2(3)) <= meanTailBudget
}

// irwinHallLower returns P(S <= x) for the sum S of n independent U[0,1) draws, 0 < x < n/2.
// With x = p/q, every term (x-k)^n has the denominator q^n, so the sum is one exact integer
// sum_{k < x} (-1)^k C(n,k) (p - kq)^n, divided by q^n n! at the end.
func irwinHallLower(n int, x *big.Rat) float64 {
	p, q := x.Num(), x.Denom()
	nn := big.NewInt(int64(n))
	sum, c, base, pow := new(big.Int), big.NewInt(1), new(big.Int), new(big.Int)
	kq := new(big.Int)
	for k := int64(0); ; k++ {
		kq.Mul(big.NewInt(k), q)
		if base.Sub(p, kq).Sign() <= 0 {
			break
		}
		pow.Exp(base, nn, nil)
		pow.Mul(pow, c)
		if k%2 == 0 {
			sum.Add(sum, pow)
		} else {
			sum.Sub(sum, pow)
		}
		c.Mul(c, big.NewInt(int64(n)-k))
		c.Quo(c, big.NewInt(k+1))
	}
	den := new(big.Int).Exp(q, nn, nil)
	den.Mul(den, new(big.Int).MulRange(1, int64(n)))
	// One division rounded to 64 bits: a big.Rat would reduce the fraction first, by a GCD
	// that costs seconds on integers of a million bits (n = 28,702 with 17 digits of tol).
	num, d := new(big.Float).SetPrec(64).SetInt(sum), new(big.Float).SetPrec(64).SetInt(den)
	f, _ := num.Quo(num, d).Float64()
	return f
}

// uniformRate returns the Chernoff rate I(t) = sup_l (l t - ln E exp(l (U - 1/2))) for
// U ~ U[0,1) and 0 <= t < 1/2, where E exp(l (U - 1/2)) = sinh(l/2) / (l/2). The objective is
// concave in l, so a bisection on its derivative t - (coth(l/2)/2 - 1/l) finds the maximum.
func uniformRate(t float64) float64 {
	if t == 0 {
		return 0
	}
	slope := func(l float64) float64 { return t - (0.5/math.Tanh(l/2) - 1/l) }
	lo, hi := 0.0, 1.0
	for slope(hi) > 0 && hi < 1e300 {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if slope(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo*t - logSinhcHalf(lo)
}

// logSinhcHalf returns ln(sinh(l/2) / (l/2)) for l >= 0 without overflow.
func logSinhcHalf(l float64) float64 {
	h := l / 2
	if h < 1e-4 {
		return h * h / 6 // the series h^2/6 - h^4/180 + ...
	}
	// sinh(h) = e^h (1 - e^-2h) / 2.
	return h + math.Log1p(-math.Exp(-2*h)) - math.Ln2 - math.Log(h)
}
