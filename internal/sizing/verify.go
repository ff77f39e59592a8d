package sizing

import (
	"math"
	"math/big"
)

// Verified tails: upper bounds on a tail probability, computed with every rounding directed
// so that the bound holds for the exact value at the float64 argument, not for a rounded
// one. The limits that promise "the false-failure rate is at most alpha" solve for alpha in
// float64, then check the verified tail at the candidate limit and step the limit outward
// until it is at most alpha (ksVerify, rateVerify): conservative by construction, whatever the
// rounding of the float64 solve.

// verifyPrec is the precision of the verified sums: the bounds hold at any precision, as
// every operation rounds toward the safe side; 64 bits keep them within about 1e-15 (relative)
// of the exact value over the sums here.
const verifyPrec = 64

// up returns a float of verifyPrec bits that rounds every result toward +Inf.
func up() *big.Float { return new(big.Float).SetPrec(verifyPrec).SetMode(big.ToPositiveInf) }

// down returns a float of verifyPrec bits that rounds every result toward -Inf.
func down() *big.Float { return new(big.Float).SetPrec(verifyPrec).SetMode(big.ToNegativeInf) }

// exact returns x in a float wide enough for the sums and products of a few float64s and
// integers below 2^63 to be exact.
func exact(x float64) *big.Float { return new(big.Float).SetPrec(256).SetFloat64(x) }

// powRound returns x^k, x >= 0 and k >= 0, in z's precision and rounding mode: rounded up
// (or down) at every step, the result bounds the exact power from that side, as the power is
// monotone in each factor.
func powRound(z, x *big.Float, k int) *big.Float {
	b := new(big.Float).SetPrec(z.Prec()).SetMode(z.Mode()).Set(x)
	z.SetInt64(1)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			z.Mul(z, b)
		}
		if k > 1 {
			b.Mul(b, b)
		}
	}
	return z
}

// ksOneSidedUpper returns an upper bound on the exact one-sided tail P(D+_n >= d) at the
// float64 d, 0 < d < 1, by the Birnbaum-Tingey sum of ksOneSidedTail written over n,
//
//	P(D+ >= d) = d sum_{j=0}^{J} C(n,j) (a_j/n)^(n-j) (b_j/n)^(j-1),  a_j = n - nd - j, b_j = nd + j,
//
// J = floor(n(1-d)): a_j and b_j are exact (nd of a float64 d and an integer n is), and every
// other operation on the positive terms rounds up.
func ksOneSidedUpper(n int, d float64) *big.Float {
	nf := exact(float64(n))
	nd := exact(d)
	nd.Mul(nd, nf)
	c := up().SetInt64(1) // C(n, j), rounded up
	sum := up()
	for j := 0; j <= n; j++ {
		if j > 0 {
			c.Mul(c, up().SetInt64(int64(n-j+1)))
			c.Quo(c, up().SetInt64(int64(j)))
		}
		a := exact(float64(n - j))
		a.Sub(a, nd) // a_j, exact
		if a.Sign() <= 0 {
			break // (a_j/n)^(n-j) = 0 as n - j > 0
		}
		b := exact(float64(j))
		b.Add(b, nd) // b_j, exact
		term := powRound(up(), up().Quo(a, nf), n-j)
		if j == 0 {
			term.Mul(term, up().Quo(nf, b)) // (b_0/n)^-1 = n/b_0
		} else {
			term.Mul(term, powRound(up(), up().Quo(b, nf), j-1))
		}
		term.Mul(term, c)
		sum.Add(sum, term)
	}
	return sum.Mul(sum, exact(d))
}

// ksTwoSidedUpper returns an upper bound on P(D_n >= d) at the float64 d by the method m that
// ksTail used there: twice the one-sided tail (an upper bound on the two-sided one, and equal
// to it for d >= 1/2), the Marsaglia-Tsang-Wang matrix power with its roundings directed, or
// the DKW-Massart bound.
func ksTwoSidedUpper(n int, d float64, method string) *big.Float {
	switch {
	case d <= 0.5/float64(n):
		return up().SetInt64(1)
	case d >= 1:
		return up()
	case method == ksMethodDKW:
		return dkwUpper(n, d)
	case method == ksMethodExact:
		return up().SetFloat64(highF(1 - ksMTWLower(n, d)))
	}
	p := ksOneSidedUpper(n, d)
	return p.Mul(p, up().SetInt64(2))
}

// ksTailAtMost reports whether the exact tail P(D_n >= d), bounded by the method ksTail uses
// at d, is at most alpha.
func ksTailAtMost(n int, d, alpha float64, method string) bool {
	return ksTwoSidedUpper(n, d, method).Cmp(exact(alpha)) <= 0
}

// dkwUpper returns an upper bound on 2 exp(-2 n d^2): 2 over a lower bound on exp(x) for the
// exact x = 2 n d^2 (a float64 d squared and scaled by an integer is exact in 256 bits), from
// exp(x) = exp(x 2^-s)^(2^s), the inner exp(y), 0 <= y < 1, bounded below by its Taylor sum
// to y^40/40! (every term positive), each step rounded down.
func dkwUpper(n int, d float64) *big.Float {
	x := exact(d)
	x.Mul(x, x)
	x.Mul(x, exact(float64(2*n)))
	s := max(0, x.MantExp(nil)) // x 2^-s < 1
	y := down().SetMantExp(x, -s)
	e, term := down().SetInt64(1), down().SetInt64(1)
	for k := 1; k <= 40; k++ {
		term.Mul(term, y)
		term.Quo(term, down().SetInt64(int64(k)))
		e.Add(e, term)
	}
	for range s {
		e.Mul(e, e)
	}
	return up().Quo(up().SetInt64(2), e)
}

// ksMTWLower returns a lower bound on P(D_n < d) by the Marsaglia-Tsang-Wang matrix power of
// ksMTW with every rounding directed: the matrix's entries are non-negative (the first
// column and last row are (1 - h^i)/i!, the corner (1 - 2h^m + max(0, 2h-1)^m)/m!, each a
// probability over i!), so a lower bound on every entry and products and sums rounded down
// bound the power below. Each float64 operation rounds to nearest; stepping one float
// further down after it bounds the exact result from below.
func ksMTWLower(n int, d float64) float64 {
	nd := float64(n) * d
	ndLo, ndHi := nd, nd
	if exact(nd).Cmp(new(big.Float).Mul(exact(float64(n)), exact(d))) != 0 {
		ndLo, ndHi = math.Nextafter(nd, 0), math.Nextafter(nd, math.Inf(1))
	}
	k := int(ndHi) + 1
	if int(ndLo)+1 != k {
		// n d sits at an integer within rounding: the CDF rises with d, so its value a
		// float below, where the integer part is plain, bounds it.
		return ksMTWLower(n, math.Nextafter(d, 0))
	}
	m := 2*k - 1
	hLo, hHi := lowF(float64(k)-ndHi), highF(float64(k)-ndLo)
	H := make([]float64, m*m)
	for i := range m {
		for j := range m {
			if i-j+1 >= 0 {
				H[i*m+j] = 1
			}
		}
	}
	hp := 1.0 // h^(i+1), rounded up
	for i := range m {
		hp = highF(hp * hHi)
		H[i*m] = lowF(H[i*m] - hp)
		H[(m-1)*m+(m-1-i)] = lowF(H[(m-1)*m+(m-1-i)] - hp)
	}
	if 2*hLo-1 > 0 { // the corner: -2h^m above, + (2h-1)^m
		c := 1.0
		for range m {
			c = lowF(c * lowF(2*hLo-1))
		}
		H[(m-1)*m] = lowF(H[(m-1)*m] + c)
	}
	for i := range H {
		H[i] = max(0, H[i]) // the exact entries are non-negative
	}
	for i := range m {
		for j := range i + 1 {
			for g := 2; g <= i-j+1; g++ {
				H[i*m+j] = lowF(H[i*m+j] / float64(g))
			}
		}
	}
	Q, e := ksMatPow(H, m, n, true)
	s := Q[(k-1)*m+k-1]
	for i := 1; i <= n; i++ {
		s = lowF(lowF(s*float64(i)) / float64(n))
		if s < 0x1p-465 {
			s *= 0x1p465
			e -= ksScale
		}
	}
	return lowF(math.Ldexp(s, e))
}

// lowF returns a float64 at most the exact value that x, a float64 operation's result rounded
// to nearest, stands for: one float further down. 0 stays 0: a sum or difference that rounds
// to 0 is 0 exactly, and a product of non-negatives that rounds to 0 is at least 0.
func lowF(x float64) float64 {
	if x == 0 {
		return 0
	}
	return math.Nextafter(x, math.Inf(-1))
}

// highF returns a float64 at least the exact value that x stands for.
func highF(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

// rateVerifyMax bounds the work of a verified binomial tail: the factors of C(n, k) and the
// terms summed. Beyond it (min(k, n-k) or the terms past 2^20, at millions of runs) an end of
// ClopperPearson rests on the float64 tail's error bound alone (rateErr).
const rateVerifyMax = 1 << 20

// binomTailUpper returns an upper bound on P(X >= k) (upper) or P(X <= k) for X ~ Binomial(n,
// p) at the float64 p, 0 < k < n, 0 < p < 1, and false when that costs more than
// rateVerifyMax steps. From the term t_k, every factor rounded up, it sums t_k, t_k r_k, ...
// away from k, r_j the ratio of neighbouring terms rounded up, until the terms left, at most
// t_j r_j / (1 - r_j) as the ratios fall away from k, are under 2^-60 of the sum; that bound
// is added. The ratio must start below 1 (the tail does not hold the mode), or it reports
// false.
func binomTailUpper(k, n int, p float64, upper bool) (*big.Float, bool) {
	if min(k, n-k) > rateVerifyMax {
		return nil, false
	}
	P, Q := exact(p), exact(1)
	Q.Sub(Q, P) // 1 - p, exact in 256 bits
	c := up().SetInt64(1)
	for i := 1; i <= min(k, n-k); i++ {
		c.Mul(c, up().SetInt64(int64(n-min(k, n-k)+i)))
		c.Quo(c, up().SetInt64(int64(i)))
	}
	t := c.Mul(c, powRound(up(), P, k))
	t.Mul(t, powRound(up(), Q, n-k))
	pq := up().Quo(P, Q) // p/q, rounded up
	qp := up().Quo(Q, P)
	sum := up().Set(t)
	for j, steps := k, 0; steps < rateVerifyMax; steps++ {
		r := up() // t_{j+1}/t_j = (n-j) p / ((j+1) q), or t_{j-1}/t_j = j q / ((n-j+1) p)
		if upper {
			if j == n {
				return sum, true
			}
			r.Quo(up().SetInt64(int64(n-j)), up().SetInt64(int64(j+1)))
			r.Mul(r, pq)
			j++
		} else {
			if j == 0 {
				return sum, true
			}
			r.Quo(up().SetInt64(int64(j)), up().SetInt64(int64(n-j+1)))
			r.Mul(r, qp)
			j--
		}
		if r.Cmp(up().SetInt64(1)) >= 0 {
			return nil, false
		}
		rest := up().Mul(t, r)
		rest.Quo(rest, down().Sub(down().SetInt64(1), r)) // at most t r / (1 - r)
		if rest.Cmp(new(big.Float).SetMantExp(sum, -60)) <= 0 {
			return sum.Add(sum, rest), true
		}
		t.Mul(t, r)
		sum.Add(sum, t)
	}
	return nil, false
}

// roundUp returns the smallest float64 at least v.
func roundUp(v *big.Float) float64 {
	x, acc := v.Float64()
	if acc == big.Below {
		x = math.Nextafter(x, math.Inf(1))
	}
	return x
}

// chooseRound returns C(n, k) in z's precision and rounding mode, from the product of
// min(k, n-k) ratios, each step rounded that way.
func chooseRound(z *big.Float, n, k int) *big.Float {
	k = min(k, n-k)
	z.SetInt64(1)
	for i := 1; i <= k; i++ {
		z.Mul(z, new(big.Float).SetInt64(int64(n-k+i)))
		z.Quo(z, new(big.Float).SetInt64(int64(i)))
	}
	return z
}

// newRound returns a float of verifyPrec bits rounding up (or down).
func newRound(upward bool) *big.Float {
	if upward {
		return up()
	}
	return down()
}

// hyperTerm returns P(X = x) of h rounded up (or down), and false when C(n1, x),
// C(n2, t-x) and C(n1+n2, t) take more than rateVerifyMax factors together.
func (h hyper) hyperTerm(x int, upward bool) (*big.Float, bool) {
	n := h.n1 + h.n2
	if min(x, h.n1-x)+min(h.t-x, h.n2-h.t+x)+min(h.t, n-h.t) > rateVerifyMax {
		return nil, false
	}
	p := chooseRound(newRound(upward), h.n1, x)
	p.Mul(p, chooseRound(newRound(upward), h.n2, h.t-x))
	return p.Quo(p, chooseRound(newRound(!upward), n, h.t)), true
}

// hyperRatio returns P(x+1)/P(x) (step 1) or P(x-1)/P(x) (step -1), rounded up (or down).
func (h hyper) hyperRatio(x, step int, upward bool) *big.Float {
	num, den := [2]int64{int64(h.n1 - x), int64(h.t - x)}, [2]int64{int64(x + 1), int64(h.n2 - h.t + x + 1)}
	if step < 0 {
		num, den = [2]int64{int64(x), int64(h.n2 - h.t + x)}, [2]int64{int64(h.n1 - x + 1), int64(h.t - x + 1)}
	}
	r := newRound(upward).SetInt64(num[0])
	r.Mul(r, new(big.Float).SetInt64(num[1]))
	r.Quo(r, new(big.Float).SetInt64(den[0]))
	return r.Quo(r, new(big.Float).SetInt64(den[1]))
}

// hyperTail returns a bound on the sum of P(y) for y from x in the direction step (1: P(X >=
// x), -1: P(X <= x)): an upper bound (upward) or a lower one, and false when it costs too much.
// A lower bound is the sum of the first terms, each rounded down, cut where they fall under
// 2^-70 of the sum. An upper bound sums from x as a lower one does, each step rounded up, and
// adds t r/(1 - r) for the terms left, r the ratio at the cut, which holds as the ratios fall
// away from the mode (the distribution is log-concave); when the ratio at x is 1 or more
// (x on the mode's side), it is 1 less a lower bound on the other tail.
func (h hyper) hyperTail(x, step int, upward bool) (*big.Float, bool) {
	end := h.hi
	if step < 0 {
		end = h.lo
	}
	if (x-end)*step > 0 {
		return newRound(upward), true // past the support
	}
	if upward && h.hyperRatio(x, step, true).Cmp(up().SetInt64(1)) >= 0 {
		other, ok := h.hyperTail(x-step, -step, false)
		if !ok {
			return nil, false
		}
		return up().Sub(up().SetInt64(1), other), true
	}
	t, ok := h.hyperTerm(x, upward)
	if !ok {
		return nil, false
	}
	sum := newRound(upward).Set(t)
	for y, n := x, 0; y != end; y, n = y+step, n+1 {
		if n > rateVerifyMax {
			return nil, false
		}
		r := h.hyperRatio(y, step, upward)
		if upward {
			rest := up().Mul(t, r)
			rest.Quo(rest, down().Sub(down().SetInt64(1), r))
			if rest.Cmp(new(big.Float).SetMantExp(sum, -60)) <= 0 {
				return sum.Add(sum, rest), true
			}
		}
		t.Mul(t, r)
		if !upward && t.Cmp(new(big.Float).SetMantExp(sum, -70)) < 0 {
			break
		}
		sum.Add(sum, t)
	}
	return sum, true
}
