package sizing

import (
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// The tolerance holds against the exact distribution of the sum (integer convolution,
// sumCounts), for every small case.
func TestUniformSumTolExact(t *testing.T) {
	for _, w := range []int{1, 2, 3, 10, 100} { // w = 1: the sum is a constant, and tol must exceed 0
		for _, k := range []int{1, 2, 3, 5, 10, 20, 40, 60} {
			if w*k > 1000 {
				continue // the integer counts grow costly; the shape is set by then
			}
			counts := sumCounts(w, k)
			total := new(big.Int).Exp(big.NewInt(int64(w)), big.NewInt(int64(k)), nil)
			mu := float64(k) * float64(w-1) / 2
			for _, alpha := range []float64{0.05, 1e-3, 1e-6, 1e-9} {
				tol, err := UniformSumTol(uint64(w), k, alpha)
				if err != nil {
					t.Fatal(err)
				}
				out := new(big.Int)
				for s, c := range counts {
					if math.Abs(float64(s)-mu) >= tol {
						out.Add(out, c)
					}
				}
				p, _ := new(big.Rat).SetFrac(out, total).Float64()
				if p > alpha {
					t.Errorf("w = %d, k = %d, alpha = %g: P(|S - mu| >= %.4g) = %.3g exactly, above alpha", w, k, alpha, tol, p)
				}
			}
		}
	}
}

// How much wider than the normal quantile the proven bound is: sqrt(2 ln(2/alpha)) / z.
func TestUniformSumTolAgainstNormal(t *testing.T) {
	for _, c := range []struct{ alpha, lo, hi float64 }{{1e-6, 1.09, 1.11}, {1e-9, 1.06, 1.08}, {1e-12, 1.05, 1.06}} {
		tol, _ := UniformSumTol(1<<40, 1000, c.alpha)
		z, _ := ZTwoSided(c.alpha)
		sd := math.Sqrt(1000.0/12) * (1 << 40)
		if r := tol / (z * sd); r < c.lo || r > c.hi {
			t.Errorf("alpha %g: the bound is %.4f times the normal quantile, want within [%g, %g]", c.alpha, r, c.lo, c.hi)
		}
	}
}

// logSinhc returns ln(sinh(y)/y) for y > 0, without overflow for large y and without
// cancellation for small y (by its series below 0.5).
func logSinhc(y float64) float64 {
	if y < 0.5 {
		y2 := y * y
		return math.Log1p(y2/6 + y2*y2/120 + y2*y2*y2/5040 + y2*y2*y2*y2/362880 + y2*y2*y2*y2*y2/39916800)
	}
	return y + math.Log1p(-math.Exp(-2*y)) - math.Ln2 - math.Log(y)
}

// The step of the proof: a uniform draw over w equally spaced values has a centred moment
// generating function at most exp(lambda^2 sd^2 / 2), sd^2 = (w^2-1)/12.
func TestUniformStrictlySubGaussian(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Int64Range(2, 1<<40).Draw(t, "w")
		x := rapid.Float64Range(1e-6, 50).Draw(t, "w*lambda/2") / float64(w) // x = lambda/2
		wf := float64(w)
		logMGF := logSinhc(wf*x) - logSinhc(x) // ln(sinh(wx)/(w sinh x))
		bound := 2 * x * x * (wf*wf - 1) / 12  // lambda^2 sd^2 / 2 with lambda = 2x
		if logMGF > bound*(1+1e-9)+1e-12 {
			t.Fatalf("w = %d, lambda = %g: log MGF %.10g above %.10g", w, 2*x, logMGF, bound)
		}
	})
}

func TestUniformSumTolProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Uint64Range(1, math.MaxUint64).Draw(t, "w")
		k := rapid.IntRange(1, 1e9).Draw(t, "k")
		alpha := math.Max(MinAlpha, math.Pow(10, -rapid.Float64Range(0.01, 300).Draw(t, "-log10 alpha")))
		tol, err := UniformSumTol(w, k, alpha)
		if err != nil || math.IsNaN(tol) || math.IsInf(tol, 0) || tol < 0 {
			t.Fatalf("UniformSumTol(%d, %d, %g) = %v, %v", w, k, alpha, tol, err)
		}
		more, _ := UniformSumTol(w, k+1, alpha)
		tighter, err := UniformSumTol(w, k, alpha/2)
		if err != nil {
			tighter = tol // alpha/2 below MinAlpha
		}
		if more < tol || tighter < tol {
			t.Fatalf("tol %g; with k+1: %g; with alpha/2: %g", tol, more, tighter)
		}
	})
}

func TestUniformSumTolBadInput(t *testing.T) {
	for _, c := range []struct {
		w     uint64
		k     int
		alpha float64
	}{{0, 1, 0.1}, {10, 0, 0.1}, {10, -1, 0.1}, {10, 1, 0}, {10, 1, math.NaN()}, {10, 1, 1}} {
		if _, err := UniformSumTol(c.w, c.k, c.alpha); err == nil {
			t.Errorf("UniformSumTol(%d, %d, %v): no error", c.w, c.k, c.alpha)
		}
	}
	if tol, err := UniformSumTol(1, 10, 0.1); err != nil || tol != 0.5 {
		t.Errorf("UniformSumTol(1, ...) = %v, %v; one value sums to a constant, and any deviation fails", tol, err)
	}
}
