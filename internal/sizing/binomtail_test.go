package sizing

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// refPMF returns P(Binomial(n, p) = k) in 256 bits, from C(n, k) as a product of
// min(k, n-k) fractions and the two powers; q = 1-p is formed in big floats, exactly.
func refPMF(n, k int, p float64) *big.Float {
	bp := bigF(p)
	bq := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bp)
	c, s := bigF(1), min(k, n-k)
	for i := 0; i < s; i++ {
		c.Mul(c, bigF(float64(n-i)))
		c.Quo(c, bigF(float64(i+1)))
	}
	c.Mul(c, bigFloatPow(bp, k))
	return c.Mul(c, bigFloatPow(bq, n-k))
}

// refTail returns P(Binomial(n, p) >= k) in 256 bits for k above the mode: the terms from
// k up, each from the last by its exact ratio, until they fall under 2^-100 of the sum.
func refTail(n, k int, p float64) float64 {
	bp := bigF(p)
	ratio := new(big.Float).SetPrec(bigPrec).Quo(bp, new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bp))
	t := refPMF(n, k, p)
	sum := new(big.Float).SetPrec(bigPrec).Set(t)
	for j := k; j < n; j++ {
		t.Mul(t, bigF(float64(n-j)))
		t.Quo(t, bigF(float64(j+1)))
		t.Mul(t, ratio)
		sum.Add(sum, t)
		if t.Cmp(new(big.Float).SetMantExp(sum, -100)) < 0 {
			break
		}
	}
	f, _ := sum.Float64()
	return f
}

// TestBinomLogPMF checks Loader's form against the probability in 256-bit floats, at n from 2
// to 2^53, where lgamma's terms of size n log n would cancel.
func TestBinomLogPMF(t *testing.T) {
	for _, c := range []struct {
		n, k int
		p    float64
	}{
		{2, 1, 0.5}, {10, 3, 0.1}, {15, 7, 0.3}, {16, 8, 0.5}, {36, 5, 0.2}, {81, 40, 0.5},
		{501, 17, 0.02}, {1000, 0, 0.001}, {1000, 1000, 0.999}, {1000, 999, 0.99},
		{1e6, 1000, 1e-3}, {1e7, 12, 1e-6}, {1e9, 3, 3e-9}, {1e11, 150, 1e-9},
		{1106398881260988, 16, 6.408868915287302e-15}, {1 << 53, 5, 1e-15}, {1 << 53, 1<<53 - 3, 1 - 0x1p-50},
		{1 << 18, 1 << 17, 0.5}, {1 << 18, 1<<17 + 2000, 0.5},
	} {
		want, _ := refPMF(c.n, c.k, c.p).Float64()
		got := math.Exp(binomLogPMF(c.n, c.k, c.p, 1-c.p))
		if !closeRel(got, want, 1e-12) {
			t.Errorf("P(Bin(%d, %v) = %d) = %.15g, exact %.15g (relative %.2g)", c.n, c.p, c.k, got, want, math.Abs(got-want)/want)
		}
	}
}

// TestBinomialTailLargeN checks the tail against sums in 256-bit floats at n where gonum's
// incomplete beta function drifts (3e-8 at 10^7) or leaves [0, 1]: at n = 1106398881260988,
// k = 16, p = 6.4e-15 it gave 41.3, the input FuzzProportions found.
func TestBinomialTailLargeN(t *testing.T) {
	for _, c := range []struct {
		n, k int
		p    float64
	}{
		{1106398881260988, 16, 6.408868915287302e-15},
		{5701995609203155, 9, 1.0528189267823219e-16},
		{2833487834353175, 14087, 5.163769919998232e-12},
		{1e7, 12, 3e-7}, {1e7, 2224, 2e-4}, {1e9, 150, 1e-7}, {1e9, 7, 3e-9},
		{1e13, 2090, 2e-10}, {1 << 18, 1<<17 + 1500, 0.5}, {1 << 18, 1<<16 + 200, 0.25},
		{1000, 148, 0.1}, {50, 49, 0.5}, {1 << 53, 3, 1e-300},
	} {
		want := refTail(c.n, c.k, c.p)
		got := binomialTail(c.n, c.p, c.k)
		if !closeRel(got, want, 1e-12) {
			t.Errorf("P(Bin(%d, %v) >= %d) = %.15g, exact %.15g (relative %.2g)", c.n, c.p, c.k, got, want, math.Abs(got-want)/want)
		}
	}
}

// TestBinomialTailSmallN checks every tail of small binomials, either side of the mode,
// against exact rational sums (binomialTailRat).
func TestBinomialTailSmallN(t *testing.T) {
	for _, c := range []struct {
		n        int
		num, den int64
	}{{1, 1, 2}, {7, 1, 3}, {40, 1, 32}, {40, 31, 32}, {200, 1, 2}, {333, 7, 10}} {
		p := float64(c.num) / float64(c.den)
		for m := 0; m <= c.n+1; m++ {
			want, _ := binomialTailRat(c.n, c.num, c.den, m).Float64()
			if got := binomialTail(c.n, p, m); !closeRel(got, want, 1e-12) && math.Abs(got-want) > 1e-300 {
				t.Errorf("P(Bin(%d, %d/%d) >= %d) = %.15g, exact %.15g", c.n, c.num, c.den, m, got, want)
			}
			lowWant := 1 - want
			if m > 0 {
				lowWant, _ = new(big.Rat).Sub(big.NewRat(1, 1), binomialTailRat(c.n, c.num, c.den, m)).Float64()
			}
			if got := binomialLower(c.n, p, m-1); m > 0 && !closeRel(got, lowWant, 1e-12) && math.Abs(got-lowWant) > 1e-300 {
				t.Errorf("P(Bin(%d, %d/%d) <= %d) = %.15g, exact %.15g", c.n, c.num, c.den, m-1, got, lowWant)
			}
		}
	}
}

// TestBinomialTailProperties: at any n to 2^32 the tail is a probability, falls as m grows
// and rises with p.
func TestBinomialTailProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, maxRuns).Draw(t, "n")
		m := rapid.IntRange(-1, n+1).Draw(t, "m")
		p := rapid.Float64Range(0, 1).Draw(t, "p")
		dp := rapid.Float64Range(0, 1-p).Draw(t, "dp")
		v := binomialTail(n, p, m)
		if !(v >= 0 && v <= 1) {
			t.Fatalf("P(Bin(%d, %v) >= %d) = %v", n, p, m, v)
		}
		if w := binomialTail(n, p, m+1); w > v*(1+1e-12) {
			t.Fatalf("P(Bin(%d, %v) >= %d) = %v > P(... >= %d) = %v", n, p, m+1, w, m, v)
		}
		if w := binomialTail(n, p+dp, m); w < v*(1-1e-12) {
			t.Fatalf("P(Bin(%d, %v) >= %d) = %v < %v at p = %v", n, p+dp, m, w, v, p)
		}
	})
}

// TestBinomialTailMpmath checks tails whose sums hold 10^5 to 10^6 terms, at n = 2^32 and
// 10^12, with the mode on either side, against 45-digit sums (testdata/binomtail_mpmath.py,
// mpmath 1.3.0): too many terms for the 256-bit reference to sum here.
func TestBinomialTailMpmath(t *testing.T) {
	for _, c := range []struct {
		n, k    int
		p, want float64
	}{
		{4294967296, 2147583648, 0.5, 0.0011375857278935571},
		{4294967296, 1073891824, 0.25, 6.2611507635189949e-8},
		{4294967296, 2147443648, 0.5, 0.88890366762288156},
		{1000000000000, 1000150000, 0.001, 1.0391331396103173e-6},
		{4294967296, 4400, 1e-06, 0.055785562384518596},
		{4294967296, 3865410566, 0.9, 0.99886243192650219},
	} {
		if got := binomialTail(c.n, c.p, c.k); !closeRel(got, c.want, 1e-11) {
			t.Errorf("P(Bin(%d, %v) >= %d) = %.17g, mpmath %.17g (relative %.2g)", c.n, c.p, c.k, got, c.want, math.Abs(got-c.want)/c.want)
		}
	}
}
