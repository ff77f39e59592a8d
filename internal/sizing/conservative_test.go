package sizing

import (
	"math/big"
	"testing"
)

// The limits that the package promises on the safe side are checked here against independent
// computations in big floats (256 bits) or exact rationals, at the inputs where their last
// digits were on the wrong side before.

const bigPrec = 256

func bigF(x float64) *big.Float { return new(big.Float).SetPrec(bigPrec).SetFloat64(x) }

// bigFloatPow returns x^k for k >= 0.
func bigFloatPow(x *big.Float, k int) *big.Float {
	r, b := bigF(1), new(big.Float).SetPrec(bigPrec).Set(x)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	return r
}

// bigOneSidedKS returns the exact one-sided tail P(D+_n >= d) (Birnbaum-Tingey):
// d * sum_{j=0}^{floor(n(1-d))} C(n, j) (1 - d - j/n)^(n-j) (d + j/n)^(j-1), for d the float64
// exactly.
func bigOneSidedKS(n int, d float64) *big.Float {
	bd, nf := bigF(d), bigF(float64(n))
	sum := bigF(0)
	c := new(big.Int).SetInt64(1) // C(n, j)
	for j := 0; j <= n; j++ {
		if j > 0 {
			c.Mul(c, big.NewInt(int64(n-j+1)))
			c.Quo(c, big.NewInt(int64(j)))
		}
		jn := new(big.Float).SetPrec(bigPrec).Quo(bigF(float64(j)), nf)
		a := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bd)
		a.Sub(a, jn) // 1 - d - j/n
		if a.Sign() < 0 {
			break
		}
		b := new(big.Float).SetPrec(bigPrec).Add(bd, jn) // d + j/n
		term := bigFloatPow(a, n-j)
		if j == 0 {
			term.Quo(term, b)
		} else {
			term.Mul(term, bigFloatPow(b, j-1))
		}
		term.Mul(term, new(big.Float).SetPrec(bigPrec).SetInt(c))
		sum.Add(sum, term)
	}
	return sum.Mul(sum, bd)
}

// KSCritical's d at n = 1,000 and alpha = 1e-9 lay 4.6e-13 (relative) below the d at which
// twice the exact one-sided tail, the method's bound on the two-sided tail, is alpha: the
// tail at the returned d was above alpha by 2e-11 relative, rounding of the sum of logs. Now
// d is solved for a tail below alpha by the sum's error bound, so that the tail computed
// exactly in big floats is at most alpha, and d is still within 1e-9 of the exact answer
// (0.10320 in testdata/reference-values.md).
func TestKSCriticalConservative(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
	}{{1000, 1e-9}, {100, 1e-9}, {30, 1e-9}, {1000, 1e-6}, {5000, 1e-9}} {
		d, _, err := KSCritical(c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		tail := bigOneSidedKS(c.n, d)
		tail.Mul(tail, bigF(2))
		if tail.Cmp(bigF(c.alpha)) > 0 {
			excess, _ := new(big.Float).Quo(tail, bigF(c.alpha)).Float64()
			t.Errorf("KSCritical(%d, %g) = %.17g: twice the exact one-sided tail there is alpha (1 + %.3g)", c.n, c.alpha, d, excess-1)
		}
	}
}

// bigBinomTail returns P(X >= k) (upper) or P(X <= k) for X ~ Binomial(n, p), p exactly.
func bigBinomTail(k, n int, p float64, upper bool) *big.Float {
	bp := bigF(p)
	q := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bp)
	sum := bigF(0)
	c := big.NewInt(1)
	for j := 0; j <= n; j++ {
		if j > 0 {
			c.Mul(c, big.NewInt(int64(n-j+1)))
			c.Quo(c, big.NewInt(int64(j)))
		}
		if upper && j < k || !upper && j > k {
			continue
		}
		term := bigFloatPow(bp, j)
		term.Mul(term, bigFloatPow(q, n-j))
		term.Mul(term, new(big.Float).SetPrec(bigPrec).SetInt(c))
		sum.Add(sum, term)
	}
	return sum
}

// ClopperPearson's ends solved the binomial tail to 1e-10 relative on either side, and the
// bisection's lower end was the first rate past the tail: the exact tail at 280 of the ends
// this test checks (alpha 1e-9 and 0.05, n from 10 to 1,000) was above alpha/2, by up to
// 1.6e-12 relative at 1e-9 (the lower end after 81 events in 1,000). Now each end is rounded
// outwards, and the exact tail in big floats at every end is at most alpha/2 (and within
// 1.1e-9 relative of it, see TestClopperPearsonEnds).
func TestClopperPearsonConservative(t *testing.T) {
	for _, alpha := range []float64{1e-9, 0.05} {
		for _, n := range []int{10, 30, 100, 300, 1000} {
			for k := 0; k <= n; k += max(1, n/37) {
				lo, hi, err := ClopperPearson(k, n, alpha)
				if err != nil {
					t.Fatal(err)
				}
				if k > 0 && bigBinomTail(k, n, lo, true).Cmp(bigF(alpha/2)) > 0 {
					t.Errorf("ClopperPearson(%d, %d, %g): P(X >= k) at the lower end %.17g is above alpha/2", k, n, alpha, lo)
				}
				if k < n && bigBinomTail(k, n, hi, false).Cmp(bigF(alpha/2)) > 0 {
					t.Errorf("ClopperPearson(%d, %d, %g): P(X <= k) at the upper end %.17g is above alpha/2", k, n, alpha, hi)
				}
			}
		}
	}
}

// bigFisher returns the one-sided p-values of Fisher's test in 256-bit big floats: the first
// term in exact rationals, each next by the exact ratio of neighbouring terms.
func bigFisher(x1, n1, x2, n2 int) (g, l *big.Float) {
	t := x1 + x2
	lo, hi := max(0, t-n2), min(t, n1)
	p := new(big.Float).SetPrec(bigPrec).SetRat(hyperRat(n1, n2, t, lo))
	g, l = bigF(0), bigF(0)
	for x := lo; x <= hi; x++ {
		if x >= x1 {
			g.Add(g, p)
		}
		if x <= x1 {
			l.Add(l, p)
		}
		// P(x+1)/P(x) = (n1-x)(t-x) / ((x+1)(n2-t+x+1))
		num := new(big.Float).SetPrec(bigPrec).SetInt64(int64(n1-x) * int64(t-x))
		den := new(big.Float).SetPrec(bigPrec).SetInt64(int64(x+1) * int64(n2-t+x+1))
		p = new(big.Float).SetPrec(bigPrec).Mul(p, num)
		p.Quo(p, den)
	}
	return
}

// Fisher's one-sided p-values came out below the exact sums by up to 2.2e-11 relative at a few
// thousand runs a side (log-gamma's rounding at N = n1 + n2 runs), so that a comparison of two
// rates failed a little more often than its rate: they are rounded up by a bound on that error,
// and are at least the exact sums in big floats, here at the tables of up to 5,000 runs a side
// where they were furthest below.
func TestFisherConservative(t *testing.T) {
	for _, c := range [][4]int{
		{579, 4038, 303, 3620}, {1536, 4638, 2037, 4299}, {642, 4567, 796, 3527}, {887, 1394, 2496, 3090},
		{2468, 3354, 191, 1228}, {247, 1194, 77, 3561}, {234, 397, 229, 358}, {12, 348, 307, 312}, {5, 10, 2, 12},
	} {
		g, l := bigFisher(c[0], c[1], c[2], c[3])
		fg := must(FisherGreater(c[0], c[1], c[2], c[3]))
		fl := must(FisherLess(c[0], c[1], c[2], c[3]))
		for _, v := range []struct {
			name  string
			got   float64
			exact *big.Float
		}{{"FisherGreater", fg, g}, {"FisherLess", fl, l}} {
			// The big sum carries 256-bit rounding of its own: 1 may come out as 1 + 1e-76.
			floor := new(big.Float).SetPrec(bigPrec).Sub(v.exact, new(big.Float).SetPrec(bigPrec).Mul(v.exact, bigF(0x1p-200)))
			if bigF(v.got).Cmp(floor) < 0 {
				e, _ := v.exact.Float64()
				t.Errorf("%s%v = %.17g, below the exact %.17g (relative %.3g)", v.name, c, v.got, e, (e-v.got)/e)
			}
		}
	}
}
