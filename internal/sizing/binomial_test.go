package sizing

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// binomPMF is P(X = k) for X ~ Binomial(n, p), from log-gamma: independent of the beta
// functions that ClopperPearson and BinomialTail use.
func binomPMF(k, n int, p float64) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// binomSum is P(X >= k) by direct summation, in 256-bit big floats with exact binomial
// coefficients (past 10^5 trials, over the shorter side and its complement), p the float64 exactly: float64
// sums from log-gamma are off by 1e-9 relative at 10^6 trials, as much as the ends may be.
func binomSum(k, n int, p float64) float64 {
	if n > 100_000 && k <= n/2 {
		v, _ := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bigBinomRange(0, k-1, n, p)).Float64()
		return v
	}
	v, _ := bigBinomRange(k, n, n, p).Float64()
	return v
}

// binomUpTo is P(X <= k) by direct summation, as binomSum.
func binomUpTo(k, n int, p float64) float64 {
	if n > 100_000 && k > n/2 {
		v, _ := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bigBinomRange(k+1, n, n, p)).Float64()
		return v
	}
	v, _ := bigBinomRange(0, min(k, n), n, p).Float64()
	return v
}

// bigBinomRange returns P(lo <= X <= hi) for X ~ Binomial(n, p) in big floats.
func bigBinomRange(lo, hi, n int, p float64) *big.Float {
	bp := bigF(p)
	q := new(big.Float).SetPrec(bigPrec).Sub(bigF(1), bp)
	sum := bigF(0)
	for j := max(lo, 0); j <= min(hi, n); j++ {
		term := bigFloatPow(bp, j)
		term.Mul(term, bigFloatPow(q, n-j))
		term.Mul(term, new(big.Float).SetPrec(bigPrec).SetInt(new(big.Int).Binomial(int64(n), int64(j))))
		sum.Add(sum, term)
	}
	return sum
}

// TestClopperPearsonPublished: R's binom.test(1, 10)$conf.int is [0.002528579, 0.445016117];
// Conover's table (Practical Nonparametric Statistics, 1999) gives [0.068, 0.407] after 5 of
// 25; after 0 of 500 the upper end is 1 - 0.025^(1/500).
func TestClopperPearsonPublished(t *testing.T) {
	lo, hi, err := ClopperPearson(1, 10, 0.05)
	if err != nil || math.Abs(lo-0.002528579) > 1e-9 || math.Abs(hi-0.445016117) > 1e-9 {
		t.Errorf("ClopperPearson(1, 10, 0.05) = %.9f, %.9f, %v; want 0.002528579, 0.445016117", lo, hi, err)
	}
	lo, hi, _ = ClopperPearson(5, 25, 0.05)
	if math.Abs(lo-0.068) > 5e-4 || math.Abs(hi-0.407) > 5e-4 {
		t.Errorf("ClopperPearson(5, 25, 0.05) = %.4f, %.4f; want 0.068, 0.407", lo, hi)
	}
	lo, hi, _ = ClopperPearson(0, 500, 0.05)
	if want := 1 - math.Pow(0.025*(1-rateErr), 1.0/500); lo != 0 || math.Abs(hi-want) > 1e-12 { // rounded outwards
		t.Errorf("ClopperPearson(0, 500, 0.05) = %v, %v; want 0, %v", lo, hi, want)
	}
}

// TestClopperPearsonEnds checks each end against its definition by direct summation: the lower
// end is the rate at which k or more events have probability alpha/2, the upper end the rate
// at which k or fewer do (each less rateErr, as the ends are rounded outwards). The small rates are where gonum's beta quantile, which gave the ends
// before, misses: at 1e-9 with 999,995 events in 10^6 trials its lower end was 0.95, and at
// 1e-50 it returns 0 or 1.
func TestClopperPearsonEnds(t *testing.T) {
	for _, c := range []struct {
		k, n  int
		alpha float64
	}{{1, 10, 0.05}, {3, 500, 0.05}, {26, 500, 0.05}, {250, 500, 0.05}, {499, 500, 0.05}, {7, 40, 0.05}, {7, 40, 1e-6},
		{999_995, 1_000_000, 1e-9}, {5, 1_000_000, 1e-9}, {1, 2, 1e-50}, {3, 10, 1e-50}, {300, 1000, 1e-300}, {700, 1000, 1e-300}} {
		lo, hi, err := ClopperPearson(c.k, c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		// Each end is rounded outwards: its tail is alpha/2 less the bound on its rounding.
		want := c.alpha / 2 * (1 - rateErr)
		if !hits(func(p float64) float64 { return binomSum(c.k, c.n, p) }, lo, want) {
			t.Errorf("%+v: P(X >= k; lo=%v) = %v, want %v", c, lo, binomSum(c.k, c.n, lo), want)
		}
		if !hits(func(p float64) float64 { return binomUpTo(c.k, c.n, p) }, hi, want) {
			t.Errorf("%+v: P(X <= k; hi=%v) = %v, want %v", c, hi, binomUpTo(c.k, c.n, hi), want)
		}
	}
}

// hits reports whether f(p) is the target to 1e-9, or p is as near as a float64 gets: the
// target lies between f at p and f at a neighbour of p (near 1, the rate 1 - 2.5e-51 is 1).
func hits(f func(float64) float64, p, target float64) bool {
	if math.Abs(f(p)-target) <= 1e-9*target {
		return true
	}
	for _, q := range []float64{math.Nextafter(p, 0), math.Nextafter(p, 1)} {
		if (f(p)-target)*(f(q)-target) <= 0 {
			return true
		}
	}
	return false
}

// TestClopperPearsonCoverage checks by exact enumeration that the interval covers the true
// rate with probability at least 95% over a grid of rates, including the small rates flakes
// have.
func TestClopperPearsonCoverage(t *testing.T) {
	for _, n := range []int{10, 37, 200} {
		los, his := make([]float64, n+1), make([]float64, n+1)
		for k := 0; k <= n; k++ {
			los[k], his[k], _ = ClopperPearson(k, n, 0.05)
		}
		for i := 1; i < 400; i++ {
			p := math.Pow(float64(i)/400, 2) // denser near 0
			cov := 0.0
			for k := 0; k <= n; k++ {
				if los[k] <= p && p <= his[k] {
					cov += binomPMF(k, n, p)
				}
			}
			if cov < 0.95-1e-9 {
				t.Errorf("n=%d p=%.5f: coverage %.4f < 0.95", n, p, cov)
			}
		}
	}
}

// TestClopperPearsonProperties: the interval holds k/n, one more event moves both ends up,
// twice the trials at the same rate narrow it, and a smaller alpha widens it.
func TestClopperPearsonProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5000).Draw(t, "n")
		k := rapid.IntRange(0, n).Draw(t, "k")
		lo, hi, err := ClopperPearson(k, n, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		if p := float64(k) / float64(n); !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
			t.Fatalf("[%v, %v] does not hold %v", lo, hi, p)
		}
		if k < n {
			lo2, hi2, _ := ClopperPearson(k+1, n, 0.05)
			if lo2 < lo || hi2 < hi {
				t.Fatalf("one more event: [%v, %v] -> [%v, %v]", lo, hi, lo2, hi2)
			}
		}
		if lo3, hi3, _ := ClopperPearson(2*k, 2*n, 0.05); hi3-lo3 > hi-lo {
			t.Fatalf("twice the trials: [%v, %v] wider than [%v, %v]", lo3, hi3, lo, hi)
		}
		if lo4, hi4, _ := ClopperPearson(k, n, 1e-6); lo4 > lo || hi4 < hi {
			t.Fatalf("alpha 1e-6: [%v, %v] inside [%v, %v]", lo4, hi4, lo, hi)
		}
	})
}

func TestClopperPearsonBadInput(t *testing.T) {
	for _, c := range []struct {
		k, n  int
		alpha float64
	}{{0, 0, 0.05}, {-1, 10, 0.05}, {11, 10, 0.05}, {0, -5, 0.05}, {0, MaxN + 1, 0.05}, {1, 10, 0}, {1, 10, 1}, {1, 10, math.NaN()}} {
		if lo, hi, err := ClopperPearson(c.k, c.n, c.alpha); !isInput(err) {
			t.Errorf("ClopperPearson(%d, %d, %v) = %v, %v, %v; want an *InputError", c.k, c.n, c.alpha, lo, hi, err)
		}
	}
}

func TestBinomialTail(t *testing.T) {
	for _, c := range []struct {
		k, n int
		p    float64
	}{{3, 500, 2e-9}, {1, 500, 0.01}, {26, 500, 0.05}, {40, 100, 0.5}} {
		want := binomSum(c.k, c.n, c.p)
		if got := must(BinomialTail(c.k, c.n, c.p)); math.Abs(got-want) > 1e-9*want+1e-300 {
			t.Errorf("BinomialTail(%d, %d, %v) = %v, want %v", c.k, c.n, c.p, got, want)
		}
	}
	for _, c := range []struct {
		k, n int
		p    float64
		want float64
	}{{0, 10, 0.1, 1}, {-3, 10, 0.1, 1}, {11, 10, 0.1, 0}, {1, 10, 0, 0}, {1, 10, 1, 1}, {10, 10, 1, 1}} {
		if got := must(BinomialTail(c.k, c.n, c.p)); got != c.want {
			t.Errorf("BinomialTail(%d, %d, %v) = %v, want %v", c.k, c.n, c.p, got, c.want)
		}
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN(), math.Inf(1)} {
		if _, err := BinomialTail(1, 10, p); !isInput(err) {
			t.Errorf("BinomialTail(1, 10, %v): %v, want an *InputError", p, err)
		}
	}
	// Past 2^32 trials a sum would hold millions of terms; the fuzzer's 10^15 is refused.
	for _, n := range []int{0, -1, maxRuns + 1, 1106398881260988, MaxN, math.MaxInt64} {
		if _, err := BinomialTail(16, n, 6.4e-15); !isInput(err) {
			t.Errorf("BinomialTail(16, %d, 6.4e-15): %v, want an *InputError", n, err)
		}
	}
	if p, err := BinomialTail(1, maxRuns, 0.5); err != nil || p != 1 {
		t.Errorf("BinomialTail(1, 2^32, 0.5) = %v, %v; want 1", p, err)
	}
}

// TestNewcombePublished checks the difference interval against Newcombe (1998), Statistics in
// Medicine 17:873, table II, method 10.
func TestNewcombePublished(t *testing.T) {
	for _, c := range []struct {
		x1, n1, x2, n2 int
		lo, hi         float64
	}{
		{56, 70, 48, 80, 0.0524, 0.3339},
		{9, 10, 3, 10, 0.1705, 0.8090},
		{6, 7, 2, 7, 0.0582, 0.8062},
		{5, 56, 0, 29, -0.0381, 0.1926},
		{0, 10, 0, 20, -0.1611, 0.2775},
		{0, 10, 0, 10, -0.2775, 0.2775},
		{10, 10, 0, 20, 0.6791, 1.0000},
		{10, 10, 0, 10, 0.6075, 1.0000},
	} {
		lo, hi, err := NewcombeInterval(c.x1, c.n1, c.x2, c.n2, 0.05)
		if err != nil || math.Abs(lo-c.lo) > 6e-5 || math.Abs(hi-c.hi) > 6e-5 {
			t.Errorf("NewcombeInterval(%d/%d - %d/%d) = [%.4f, %.4f] (%v), want [%.4f, %.4f]", c.x1, c.n1, c.x2, c.n2, lo, hi, err, c.lo, c.hi)
		}
	}
}

// TestNewcombeProperties: the interval holds the observed difference inside [-1, 1], and
// swapping the samples mirrors it.
func TestNewcombeProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x1, n1, x2, n2 := drawSamples(t, 1, 5000)
		lo, hi, err := NewcombeInterval(x1, n1, x2, n2, 0.05)
		d := float64(x1)/float64(n1) - float64(x2)/float64(n2)
		if err != nil || !(-1 <= lo && lo <= d+1e-12 && d-1e-12 <= hi && hi <= 1) {
			t.Fatalf("[%v, %v] (%v) does not hold %v", lo, hi, err, d)
		}
		lo2, hi2, _ := NewcombeInterval(x2, n2, x1, n1, 0.05)
		if math.Abs(lo+hi2) > 1e-12 || math.Abs(hi+lo2) > 1e-12 {
			t.Fatalf("[%v, %v], swapped [%v, %v]", lo, hi, lo2, hi2)
		}
	})
}

func TestNewcombeBadInput(t *testing.T) {
	for _, c := range [][4]int{{0, 0, 0, 1}, {-1, 5, 0, 5}, {6, 5, 0, 5}, {0, 5, 0, -1}, {0, MaxN + 1, 0, 1}} {
		if lo, hi, err := NewcombeInterval(c[0], c[1], c[2], c[3], 0.05); !isInput(err) {
			t.Errorf("NewcombeInterval(%v) = %v, %v, %v; want an *InputError", c, lo, hi, err)
		}
	}
	if _, _, err := NewcombeInterval(1, 5, 1, 5, 1); !isInput(err) {
		t.Errorf("NewcombeInterval at alpha = 1: %v, want an *InputError", err)
	}
}

// BenchmarkClopperPearson times the interval with its verification (both ends checked by a
// directed-rounding binomial sum) and the float64 solve alone, side by side.
func BenchmarkClopperPearson(b *testing.B) {
	for _, c := range []struct{ k, n int }{{1, 10}, {81, 1000}, {50, 100_000}} {
		name := fmt.Sprintf("k=%d/n=%d", c.k, c.n)
		b.Run("verified/"+name, func(b *testing.B) {
			for b.Loop() {
				_, _, _ = ClopperPearson(c.k, c.n, 1e-9)
			}
		})
		b.Run("float64/"+name, func(b *testing.B) {
			a, bb := float64(c.k), float64(c.n-c.k+1)
			f := func(p float64) float64 { return mathext.RegIncBeta(a, bb, p) }
			for b.Loop() {
				findRate(distuv.Beta{Alpha: a, Beta: bb}.Quantile(5e-10), 5e-10, true, f)
				a2, b2 := float64(c.k+1), float64(c.n-c.k)
				findRate(distuv.Beta{Alpha: a2, Beta: b2}.Quantile(1-5e-10), 5e-10, false,
					func(p float64) float64 { return mathext.RegIncBeta(b2, a2, 1-p) })
			}
		})
	}
}
