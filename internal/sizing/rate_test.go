package sizing

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestMeanUniformTailReference: a test that asks a full jitter's mean to lie "within 5% of
// the base" at n = 1000 allows 5.477 standard deviations and fails a correct jitter with
// probability 4.14e-8 (exact; testdata/reference-values.md).
func TestMeanUniformTailReference(t *testing.T) {
	p, method, err := MeanUniformTail(1000, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p-4.14e-8) > 0.005e-8 || !strings.HasPrefix(method, "exact") {
		t.Errorf("MeanUniformTail(1000, 0.05) = %.4g by %q, want 4.14e-8 exact", p, method)
	}
	if z := 0.05 / (sdUniform / math.Sqrt(1000)); math.Abs(z-5.477) > 0.0005 {
		t.Errorf("the tolerance is %.4f sd, want 5.477", z)
	}
}

// TestMeanUniformTailAtSizedTolerances: at the exact Irwin-Hall tolerances of the reference
// table the rate crosses alpha, from above to below.
func TestMeanUniformTailAtSizedTolerances(t *testing.T) {
	for _, c := range []struct {
		n          int
		alpha, tol float64
	}{{100, 1e-9, 0.1733}, {1000, 1e-6, 0.04461}, {1000, 1e-9, 0.05568}} {
		step := 0.00005
		if c.n == 1000 {
			step = 0.000005
		}
		below, _, _ := MeanUniformTail(c.n, c.tol-step)
		above, _, _ := MeanUniformTail(c.n, c.tol+step)
		if below <= c.alpha || above > c.alpha {
			t.Errorf("n = %d: rate %.4g at tol %.6f and %.4g at %.6f, want alpha %g between",
				c.n, below, c.tol-step, above, c.tol+step, c.alpha)
		}
	}
}

// TestMeanUniformTailAgainstBigFloat compares the exact integer sum with the alternating sum
// in big.Float arithmetic that the mean tests use (irwinHallCDF), at binary tolerances where
// both read the same number.
func TestMeanUniformTailAgainstBigFloat(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 10, 60, 100, 300} {
		for _, tol := range []float64{0.0078125, 0.03125, 0.125, 0.25, 0.375, 0.4375} {
			p, _, err := MeanUniformTail(n, tol)
			if err != nil {
				t.Fatal(err)
			}
			want := uniformMeanTail(n, tol)
			if math.Abs(p-want) > 1e-12*want {
				t.Errorf("n = %d, tol = %g: %.15g, big.Float says %.15g", n, tol, p, want)
			}
		}
	}
}

// TestMeanUniformTailClosedForms: one draw, P(|U - 1/2| > t) = 1 - 2t; two draws (a triangle),
// (1 - 2t)^2.
func TestMeanUniformTailClosedForms(t *testing.T) {
	for _, tol := range []float64{0, 0.01, 0.1, 0.2, 0.3, 0.49} {
		p1, _, _ := MeanUniformTail(1, tol)
		p2, _, _ := MeanUniformTail(2, tol)
		if w := 1 - 2*tol; math.Abs(p1-w) > 1e-15 || math.Abs(p2-w*w) > 1e-15 {
			t.Errorf("tol %g: n = 1 gives %.17g (want %.17g), n = 2 gives %.17g (want %.17g)", tol, p1, w, p2, w*w)
		}
	}
}

// TestMeanUniformTailSimulated checks a moderate rate against 200,000 seeded samples, within
// a binomial band that a correct rate leaves with probability below 1e-9.
func TestMeanUniformTailSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 2026))
	const n, tol, trials = 12, 0.12, 200_000
	p, _, _ := MeanUniformTail(n, tol)
	out := 0
	for range trials {
		s := 0.0
		for range n {
			s += r.Float64()
		}
		if math.Abs(s/n-0.5) > tol {
			out++
		}
	}
	z, _ := ZTwoSided(1e-9)
	if band := z * math.Sqrt(p*(1-p)*trials); math.Abs(float64(out)-p*trials) > band {
		t.Errorf("n = %d, tol = %g: %d of %d outside, rate %.5g predicts %.0f +- %.0f", n, tol, out, trials, p, p*trials, band)
	}
}

// TestMeanUniformTailChernoff: past the exact budget the bound is used, says so, lies above
// the exact rate and within its exponent.
func TestMeanUniformTailChernoff(t *testing.T) {
	p, method, err := MeanUniformTail(5000, 0.01)
	if err != nil || !strings.HasPrefix(method, "Chernoff") {
		t.Fatalf("n = 5000: %v, %q; want the Chernoff bound", err, method)
	}
	exact := 2 * irwinHallLower(5000, irwinHallCut(5000, 0.01)) // 0.0143, costs 0.4 s
	if p < exact || p > 10*exact {
		t.Errorf("n = 5000, tol = 0.01: bound %.4g, exact %.4g; want exact <= bound <= 10 exact", p, exact)
	}
	for _, c := range []struct{ n, tol float64 }{{1000, 0.05}, {100, 0.1733}, {1000, 0.3}} {
		exact, _, _ := MeanUniformTail(int(c.n), c.tol)
		bound := 2 * math.Exp(-c.n*uniformRate(c.tol))
		if bound < exact {
			t.Errorf("n = %g, tol = %g: Chernoff %.4g below the exact %.4g", c.n, c.tol, bound, exact)
		}
	}
	if p, _, _ := MeanUniformTail(100000, 1e-6); p != 1 {
		t.Errorf("a vacuous bound is %g, want capped at 1", p)
	}
}

func TestMeanUniformTailBadInput(t *testing.T) {
	for _, c := range []struct {
		n   int
		tol float64
	}{{0, 0.1}, {-1, 0.1}, {10, math.NaN()}, {10, math.Inf(1)}, {10, math.Inf(-1)}, {10, -0.01}} {
		if p, _, err := MeanUniformTail(c.n, c.tol); err == nil {
			t.Errorf("MeanUniformTail(%d, %g) = %g, want an error", c.n, c.tol, p)
		}
	}
	if p, _, err := MeanUniformTail(10, 0.5); err != nil || p != 0 {
		t.Errorf("tol = 0.5: %g, %v; want 0 (the mean never leaves [0, 1))", p, err)
	}
}

// TestMeanUniformTailMonotone: a wider tolerance or a larger sample never fails more often.
func TestMeanUniformTailMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 300).Draw(t, "n")
		a := rapid.Float64Range(0, 0.5).Draw(t, "a")
		b := rapid.Float64Range(a, 0.5).Draw(t, "b")
		pa, _, _ := MeanUniformTail(n, a)
		pb, _, _ := MeanUniformTail(n, b)
		pn, _, _ := MeanUniformTail(n+1, a)
		if pb > pa*(1+1e-12) || pn > pa*(1+1e-12) {
			t.Fatalf("n = %d: rate %g at tol %g, %g at %g, %g at n+1", n, pa, a, pb, b, pn)
		}
	})
}

// FuzzMeanUniformTail: any input gets a probability or an error, never a panic or a NaN.
func FuzzMeanUniformTail(f *testing.F) {
	for _, c := range []struct {
		n   int
		tol float64
	}{{1000, 0.05}, {1, 0}, {math.MaxInt, 0.1}, {3, 5e-324}, {7, math.NaN()}, {2, 0.4999999999999999}, {0, 1}} {
		f.Add(c.n, c.tol)
	}
	f.Fuzz(func(t *testing.T, n int, tol float64) {
		if n > 3000 {
			n = 3000 + n%50000 // the exact sum's cost grows with n; keep each case quick
		}
		p, _, err := MeanUniformTail(n, tol)
		if err == nil && (math.IsNaN(p) || p < 0 || p > 1) {
			t.Fatalf("MeanUniformTail(%d, %g) = %g", n, tol, p)
		}
	})
}

// TestMeanUniformTailAffordable: the exact sum's cost is its terms times the cost of one power,
// which grows faster than the power's bits. n = 28,702 with a tolerance of 17 digits has 14
// terms of 1.6 million bits each, within the old budget of terms times bits, and took seconds
// (the fuzzer's worker was taken for hung, FuzzMeanUniformTail); it is the Chernoff bound's now,
// and the common cases stay exact.
func TestMeanUniformTailAffordable(t *testing.T) {
	for _, c := range []struct {
		n     int
		tol   float64
		exact bool
	}{{1000, 0.05, true}, {2000, 0.05, true}, {3000, 0.4999, true}, {28702, 0.49952380952380954, false}, {5000, 0.05, false}} {
		if got := meanTailAffordable(c.n, irwinHallCut(c.n, c.tol)); got != c.exact {
			t.Errorf("MeanUniformTail(%d, %v): exact = %v, want %v", c.n, c.tol, got, c.exact)
		}
	}
}
