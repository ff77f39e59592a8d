package sizing

import (
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
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
// tail at the returned d was above alpha by 2e-11 relative, rounding of the sum of logs. A
// margin measured on the rounding hid it; now the d solved in float64 is checked by a tail
// with every rounding directed (ksVerify) and stepped outwards until that tail is at most
// alpha. The test solves with no margin at all (guess 0), as before the margin, and wants the
// tail computed independently in 256-bit floats at most alpha, and d within 1e-9 of the exact
// answer (0.10320 in testdata/reference-values.md).
func TestKSCriticalConservative(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
	}{{1000, 1e-9}, {100, 1e-9}, {30, 1e-9}, {1000, 1e-6}, {5000, 1e-9}} {
		for _, guess := range []float64{0, ksGuess(c.n)} {
			r := ksCritical(c.n, c.alpha, guess)
			if r.err != nil {
				t.Fatal(r.err)
			}
			tail := bigOneSidedKS(c.n, r.d)
			tail.Mul(tail, bigF(2))
			if tail.Cmp(bigF(c.alpha)) > 0 {
				excess, _ := new(big.Float).Quo(tail, bigF(c.alpha)).Float64()
				t.Errorf("KSCritical(%d, %g) with a guess of %g = %.17g: twice the exact one-sided tail there is alpha (1 + %.3g)", c.n, c.alpha, guess, r.d, excess-1)
			}
			if ratio, _ := new(big.Float).Quo(tail, bigF(c.alpha)).Float64(); ratio < 1-1e-9*4*float64(c.n)*r.d {
				t.Errorf("KSCritical(%d, %g) = %.17g: the exact tail there is alpha x %.12g, further below than 1e-9 of d allows", c.n, c.alpha, r.d, ratio)
			}
		}
	}
}

// The verified tails bound the exact ones from above, and closely: the one-sided sum against
// the same sum in 256-bit floats rounded to nearest, the DKW bound against its float64 value,
// and the matrix power (a lower bound on the CDF) against 1 - 2 P+, its exact value where
// d >= 1/2, and against the float64 matrix power.
func TestKSVerifiedTails(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 30, 100, 140, 1000} {
		for _, d := range []float64{0.5 / float64(n) * 1.01, 0.05, 0.1, 0.1032, 0.2, 0.3220, 0.5, 0.5695, 0.7, 0.99} {
			if d <= 0.5/float64(n) || d >= 1 {
				continue
			}
			exactP := bigOneSidedKS(n, d)
			got := ksOneSidedUpper(n, d)
			if got.Cmp(exactP) < 0 {
				t.Errorf("n = %d, d = %v: verified one-sided tail %.17g below the exact %.17g", n, d, got, exactP)
			}
			if r, _ := new(big.Float).Quo(got, exactP).Float64(); exactP.Sign() > 0 && r > 1+1e-13 {
				t.Errorf("n = %d, d = %v: verified one-sided tail exact x %.17g", n, d, r)
			}
			if n > ksMaxExactN { // where KSCritical uses the matrix power
				continue
			}
			lower := ksMTWLower(n, d)
			if f := ksMTW(n, d); lower > f || lower < f-1e-12 {
				t.Errorf("n = %d, d = %v: matrix power %.17g, its lower bound %.17g", n, d, f, lower)
			}
			if d >= 0.5 {
				cdf := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), new(big.Float).SetPrec(bigPrec).Mul(bigF(2), exactP))
				if bigF(lower).Cmp(cdf) > 0 {
					t.Errorf("n = %d, d = %v: matrix power's lower bound %.17g above the exact CDF %.17g", n, d, lower, cdf)
				}
			}
		}
	}
	for _, c := range []struct {
		n int
		d float64
	}{{60_000, 0.01}, {60_000, 0.02}, {1 << 40, 1e-6}, {1000, 0.9}} {
		got, _ := dkwUpper(c.n, c.d).Float64()
		want := 2 * math.Exp(-2*float64(c.n)*c.d*c.d)
		if got < want*(1-1e-12) || got > want*(1+1e-12) { // float64's exp is within an ulp or two
			t.Errorf("DKW at n = %d, d = %v: verified %.17g, float64 %.17g", c.n, c.d, got, want)
		}
	}
}

// KSCritical keeps alpha on every input, checked independently: twice the one-sided tail in
// 256-bit floats at its d is at most alpha wherever it uses that bound, over n and alpha.
func TestKSCriticalKeepsAlphaProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 1500).Draw(t, "n")
		alpha := math.Pow(10, rapid.Float64Range(-15, -5.5).Draw(t, "log10 alpha"))
		d, method, err := KSCritical(n, alpha)
		if err != nil {
			t.Skip(err)
		}
		if method == ksMethodExact {
			return // d <= 1/(2n): every tail is 1 below
		}
		tail := bigOneSidedKS(n, d)
		tail.Mul(tail, bigF(2))
		if tail.Cmp(bigF(alpha)) > 0 {
			t.Fatalf("KSCritical(%d, %g) = %.17g by %s: twice the exact one-sided tail there is %.17g", n, alpha, d, method, tail)
		}
	})
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

// The verified binomial tail bounds the exact sum in 256-bit floats from above, within 1e-15.
func TestBinomTailUpper(t *testing.T) {
	for _, c := range []struct {
		k, n  int
		p     float64
		upper bool
	}{{1, 10, 0.0025, true}, {81, 1000, 0.05, true}, {81, 1000, 0.11, false}, {999, 1000, 0.99, true},
		{3, 1000, 0.02, false}, {500, 1000, 0.45, true}, {500, 1000, 0.55, false}, {9, 10, 0.4, true}} {
		got, ok := binomTailUpper(c.k, c.n, c.p, c.upper)
		if !ok {
			t.Fatalf("%+v: not verified", c)
		}
		want := bigBinomTail(c.k, c.n, c.p, c.upper)
		if got.Cmp(want) < 0 {
			t.Errorf("%+v: verified %.17g below the exact %.17g", c, got, want)
		}
		if r, _ := new(big.Float).Quo(got, want).Float64(); r > 1+1e-15 {
			t.Errorf("%+v: verified tail exact x %.17g", c, r)
		}
	}
	if _, ok := binomTailUpper(500, 1000, 0.55, true); ok {
		t.Error("a tail holding the mode verified by a falling ratio")
	}
}

// ClopperPearson's ends were solved to a margin of 1e-9 below alpha/2, measured on gonum's
// beta function; now each end is verified. With no margin at all (the float64 solve aimed at
// alpha/2 itself, where the lower end after 81 events in 1,000 at 1e-9 had its exact tail
// 1.6e-12 above alpha/2) the verified end keeps alpha/2 in 256-bit sums.
func TestClopperPearsonVerified(t *testing.T) {
	for _, alpha := range []float64{1e-9, 0.05} {
		for _, n := range []int{10, 100, 1000} {
			for k := 1; k < n; k += max(1, n/13) {
				a, b := float64(k), float64(n-k+1)
				f := func(p float64) float64 { return mathext.RegIncBeta(a, b, p) }
				tail := alpha / 2
				p := findRate(distuv.Beta{Alpha: a, Beta: b}.Quantile(tail), tail/(1-rateErr), true, f)
				p = verifyRate(p, tail, true, func(p float64) (*big.Float, bool) { return binomTailUpper(k, n, p, true) })
				if bigBinomTail(k, n, p, true).Cmp(bigF(tail)) > 0 {
					t.Errorf("k = %d, n = %d, alpha = %g: P(X >= k) at the verified lower end %.17g above alpha/2", k, n, alpha, p)
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
// rates failed a little more often than its rate. They were padded by a bound on that error;
// now they are verified sums, rounded up: at least the exact sums in big floats, and within
// 1e-13 of them, here at the tables of up to 5,000 runs a side where they were furthest below.
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
			// Verified, not padded: within 1e-13 of the exact sum (the padding of up is 1e-10).
			if r, _ := new(big.Float).Quo(bigF(v.got), v.exact).Float64(); r > 1+1e-13 {
				t.Errorf("%s%v = %.17g: exact x %.17g", v.name, c, v.got, r)
			}
		}
	}
}

// TestKSTailAtDKWCritical: beyond 50,000 values KSTail gave 2*math.Exp(-2nd^2), which rounds
// either way, at the d that KSCritical had verified with the bound rounded up, so KSTail at
// the critical value came out a float above alpha (the fuzzer's n = 9007199254740863 at
// alpha = 0.11066666666666668 gave 0.1106666666666667). KSTail now gives the verified bound.
func TestKSTailAtDKWCritical(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
	}{{9007199254740863, 0.11066666666666668}, {50001, 1e-9}, {1e6, 0.01}, {MaxN, 1e-12}, {123456789, 0.3}} {
		d, method, err := KSCritical(c.n, c.alpha)
		if err != nil || method != ksMethodDKW {
			t.Fatalf("KSCritical(%d, %v) = %v, %q, %v; want the DKW bound", c.n, c.alpha, d, method, err)
		}
		if p, _, _ := KSTail(c.n, d); p > c.alpha {
			t.Errorf("KSTail(%d, KSCritical = %v) = %v > alpha = %v", c.n, d, p, c.alpha)
		}
		if exact := dkwUpper(c.n, d); exact.Cmp(bigF(c.alpha)) > 0 {
			t.Errorf("the verified bound at KSCritical(%d, %v) is above alpha", c.n, c.alpha)
		}
	}
}
