package sizing

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// TestFisherPublished checks the three p-values against R's fisher.test on published tables:
// the lady tasting tea (Fisher 1935: 3 of 4 cups right each way; 17/70 one-sided, 0.4857 two-
// sided, 69/70 the other way), the dieting table on Wikipedia's page on the test (9 of 12
// women against 1 of 12 men: the table has probability 0.001346, the one with all 10 women
// 0.0000337, so 0.001380 one-sided, 0.9999663 the other way, 0.002759 two-sided; a check that
// took 0.001346 for the tail passed here before, by a loose tolerance), and tables whose one-sided tail is one
// term: 10 of 10 against 2 of 10 (C(12,10)/C(20,10) = 66/184756, R's 0.0003572), 5 of 5
// against 0 of 20 (1/C(25,5) = 1/53130).
func TestFisherPublished(t *testing.T) {
	for _, c := range []struct {
		x1, n1, x2, n2        int
		greater, less, twoSid float64
	}{
		{3, 4, 1, 4, 17.0 / 70, 69.0 / 70, 0.4857},
		{9, 12, 1, 12, 0.001380, 0.9999663, 0.002759},
		{10, 10, 2, 10, 66.0 / 184756, 1, 2 * 66.0 / 184756},
		{5, 5, 0, 20, 1 / 53130.0, 1, 1 / 53130.0},
		{0, 20, 0, 20, 1, 1, 1},
	} {
		g := must(FisherGreater(c.x1, c.n1, c.x2, c.n2))
		l := must(FisherLess(c.x1, c.n1, c.x2, c.n2))
		two := must(FisherTwoSided(c.x1, c.n1, c.x2, c.n2))
		// The published values have four significant digits.
		for _, v := range [][2]float64{{g, c.greater}, {l, c.less}, {two, c.twoSid}} {
			if math.Abs(v[0]-v[1]) > 5e-5*v[1] && math.Abs(v[0]-v[1]) > 5e-5 {
				t.Errorf("Fisher(%d/%d against %d/%d) = %.7g greater, %.7g less, %.7g two-sided; want %.7g, %.7g, %.7g",
					c.x1, c.n1, c.x2, c.n2, g, l, two, c.greater, c.less, c.twoSid)
				break
			}
		}
	}
}

// hyperRat returns P(X = x) for the hypergeometric of x1 + x2 = t failures among n1 + n2
// runs, in exact rationals.
func hyperRat(n1, n2, t, x int) *big.Rat {
	num := new(big.Int).Mul(new(big.Int).Binomial(int64(n1), int64(x)), new(big.Int).Binomial(int64(n2), int64(t-x)))
	return new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(n1+n2), int64(t)))
}

// fisherRat computes the three p-values in exact rationals, the two-sided one by its
// definition: the tables at most as likely as the observed, within R's relative 1e-7.
func fisherRat(x1, n1, x2, n2 int) (greater, less, two float64) {
	t := x1 + x2
	obs := hyperRat(n1, n2, t, x1)
	limit := new(big.Rat).Mul(obs, new(big.Rat).SetFloat64(1+1e-7))
	g, l, s := new(big.Rat), new(big.Rat), new(big.Rat)
	for x := max(0, t-n2); x <= min(t, n1); x++ {
		p := hyperRat(n1, n2, t, x)
		if x >= x1 {
			g.Add(g, p)
		}
		if x <= x1 {
			l.Add(l, p)
		}
		if p.Cmp(limit) <= 0 {
			s.Add(s, p)
		}
	}
	greater, _ = g.Float64()
	less, _ = l.Float64()
	two, _ = s.Float64()
	return greater, less, two
}

// drawSamples draws two samples of runs, x1 failures in n1 runs and x2 in n2, each with
// lo to hi runs.
func drawSamples(t *rapid.T, lo, hi int) (x1, n1, x2, n2 int) {
	n1 = rapid.IntRange(lo, hi).Draw(t, "n1")
	n2 = rapid.IntRange(lo, hi).Draw(t, "n2")
	return rapid.IntRange(0, n1).Draw(t, "x1"), n1, rapid.IntRange(0, n2).Draw(t, "x2"), n2
}

// TestFisherExact: the three p-values agree with exact rational sums on every table of up to
// 60 runs a side.
func TestFisherExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x1, n1, x2, n2 := drawSamples(t, 0, 60)
		wg, wl, w2 := fisherRat(x1, n1, x2, n2)
		g, _ := FisherGreater(x1, n1, x2, n2)
		l, _ := FisherLess(x1, n1, x2, n2)
		two, _ := FisherTwoSided(x1, n1, x2, n2)
		for _, v := range [][3]any{{"greater", g, wg}, {"less", l, wl}, {"two-sided", two, w2}} {
			if got, want := v[1].(float64), v[2].(float64); math.Abs(got-want) > 1e-9*want+1e-300 {
				t.Fatalf("%s: %g, exact %g", v[0], got, want)
			}
		}
	})
}

// TestFisherProperties: the p-values lie in [0, 1]; the one-sided ones move the right way with
// one more failure in the first sample, and their tails overlap in exactly the observed
// table; the two-sided one is symmetric in the samples.
func TestFisherProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x1, n1, x2, n2 := drawSamples(t, 1, 3000)
		g, _ := FisherGreater(x1, n1, x2, n2)
		l, _ := FisherLess(x1, n1, x2, n2)
		two, _ := FisherTwoSided(x1, n1, x2, n2)
		swapped, _ := FisherTwoSided(x2, n2, x1, n1)
		for _, p := range []float64{g, l, two} {
			if !(p >= 0 && p <= 1) {
				t.Fatalf("p-values %v, %v, %v", g, l, two)
			}
		}
		if math.Abs(two-swapped) > 1e-9*two {
			t.Fatalf("two-sided %v, swapped %v", two, swapped)
		}
		obs := math.Exp(hyper{n1, n2, x1 + x2, 0, 0}.logProb(x1))
		if math.Abs(g+l-1-obs) > 1e-9 {
			t.Fatalf("greater %v + less %v - 1 = %v, want the observed table's probability %v", g, l, g+l-1, obs)
		}
		if x1 < n1 {
			g2, _ := FisherGreater(x1+1, n1, x2, n2)
			l2, _ := FisherLess(x1+1, n1, x2, n2)
			if g2 > g*(1+1e-12) || l2 < l*(1-1e-12) {
				t.Fatalf("one more failure: greater %v -> %v, less %v -> %v", g, g2, l, l2)
			}
		}
	})
}

// TestFisherAgainstBinomial: with a second sample so large that it fixes the rate, the
// one-sided test becomes the binomial tail at that rate (the replay verdict relies on it).
// Drawing n1 = 12 of N runs without replacement rather than with changes the probability of
// each table by a factor within exp(±n1²/(N - n1)), so the tails agree to that relative bound.
func TestFisherAgainstBinomial(t *testing.T) {
	const n1, n2 = 12, 1_000_000
	got := must(FisherGreater(10, n1, 550_000, n2))
	want := must(BinomialTail(10, n1, 550_010.0/(n1+n2)))
	if bound := math.Expm1(n1 * n1 / float64(n2)); math.Abs(got-want) > bound*want {
		t.Errorf("FisherGreater(10/12 against 55%% of 1e6) = %v, want the binomial tail %v", got, want)
	}
}

// TestFisherHuge: the largest samples get an answer, their far tails 0 rather than a NaN;
// beyond 2^32 runs in all is an *InputError, as are bad counts.
func TestFisherHuge(t *testing.T) {
	half := maxRuns / 2
	for _, c := range [][4]int{{half / 2, half, half / 2, half}, {half/2 + 100_000, half, half / 2, half}, {half, half, 0, half}, {0, 1, half, half}} {
		for _, f := range []func(int, int, int, int) (float64, error){FisherGreater, FisherLess, FisherTwoSided} {
			if p, err := f(c[0], c[1], c[2], c[3]); err != nil || !(p >= 0 && p <= 1) {
				t.Errorf("Fisher(%v) = %v, %v", c, p, err)
			}
		}
	}
	if p := must(FisherGreater(half, half, 0, half)); p != 0 {
		t.Errorf("FisherGreater(all of 2^31 against none of 2^31) = %v, want 0 (far below 1e-300)", p)
	}
	for _, c := range [][4]int{{0, half + 1, 0, half}, {0, math.MaxInt64, 0, 1}, {-1, 5, 0, 5}, {6, 5, 0, 5}, {0, 5, 0, -1}, {math.MinInt64, 0, 0, 0}} {
		for _, f := range []func(int, int, int, int) (float64, error){FisherGreater, FisherLess, FisherTwoSided} {
			if p, err := f(c[0], c[1], c[2], c[3]); !isInput(err) {
				t.Errorf("Fisher(%v) = %v, %v; want an *InputError", c, p, err)
			}
		}
	}
}

// BenchmarkFisherGreater times the verified p-value against the float64 sum alone, side by
// side, at a table of a few runs and one of thousands.
func BenchmarkFisherGreater(b *testing.B) {
	for _, c := range [][4]int{{5, 10, 2, 12}, {579, 4038, 303, 3620}} {
		h, _ := newHyper("bench", c[0], c[1], c[2], c[3])
		name := fmt.Sprintf("%d_of_%d/%d_of_%d", c[0], c[1], c[2], c[3])
		b.Run("verified/"+name, func(b *testing.B) {
			for b.Loop() {
				h.tail(c[0], 1)
			}
		})
		b.Run("float64/"+name, func(b *testing.B) {
			for b.Loop() {
				h.up(h.upper(c[0]))
			}
		})
	}
}
