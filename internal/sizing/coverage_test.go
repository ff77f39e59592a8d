package sizing

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

func TestCoverageGapReference(t *testing.T) {
	// testdata/reference-values.md: eps at 1e-9, and with min and max sharing it (5e-10 each).
	for _, c := range []struct {
		n     int
		alpha float64
		want  float64
	}{
		{30, 1e-9, 0.499}, {100, 1e-9, 0.187}, {1000, 1e-9, 0.0205},
		{30, 5e-10, 0.510}, {100, 5e-10, 0.193}, {1000, 5e-10, 0.0212},
	} {
		got, err := CoverageGap(c.n, c.alpha)
		if err != nil || math.Abs(got-c.want) > 0.0005*math.Max(1, c.want/0.1) {
			t.Errorf("CoverageGap(%d, %g) = %.4f, %v; want %.4g", c.n, c.alpha, got, err, c.want)
		}
	}
}

func TestCoverageGapExact(t *testing.T) {
	for _, n := range []int{1, 2, 30, 1000, 1e7} {
		for _, alpha := range []float64{1e-12, 1e-9, 0.01, 0.5, 0.999} {
			eps, err := CoverageGap(n, alpha)
			if err != nil {
				t.Fatal(err)
			}
			// (1 - eps)^n in 400-bit arithmetic gives alpha back.
			one := new(big.Float).SetPrec(400).SetInt64(1)
			x := new(big.Float).SetPrec(400).Sub(one, new(big.Float).SetPrec(400).SetFloat64(eps))
			// eps is within half an ulp of 1, and (1 - eps)^n moves by n times that.
			if got, _ := bigPow(x, n).Float64(); math.Abs(got-alpha) > 1e-12*alpha+float64(n)*1.2e-16 {
				t.Errorf("n = %d, alpha = %g: (1 - eps)^n = %.12g", n, alpha, got)
			}
		}
	}
}

// TestCoverageGapSimulation draws samples with a fixed seed and counts how often the maximum
// stays below 1 - eps: about alpha of the time.
func TestCoverageGapSimulation(t *testing.T) {
	const n, alpha, trials = 50, 0.02, 20000
	eps, _ := CoverageGap(n, alpha)
	r := rand.New(rand.NewPCG(1, 2))
	short := 0
	for range trials {
		m := 0.0
		for range n {
			m = math.Max(m, r.Float64())
		}
		if m < 1-eps {
			short++
		}
	}
	sd := math.Sqrt(alpha * (1 - alpha) / trials)
	if got := float64(short) / trials; math.Abs(got-alpha) > 4.5*sd {
		t.Errorf("max < 1 - eps in %.4f of %d runs, want %.4f +- %.4f", got, trials, alpha, 4.5*sd)
	}
}

// ratPow returns (num/den)^n exactly.
func ratPow(num, den uint64, n int) *big.Rat {
	a := new(big.Int).Exp(new(big.Int).SetUint64(num), big.NewInt(int64(n)), nil)
	b := new(big.Int).Exp(new(big.Int).SetUint64(den), big.NewInt(int64(n)), nil)
	return new(big.Rat).SetFrac(a, b)
}

func ratAlpha(alpha float64) *big.Rat { return new(big.Rat).SetFloat64(alpha) }

// rangeCDF returns P(range <= r) = (w-L+1)(L/w)^n - (w-L)((L-1)/w)^n, L = r+1, exactly.
func rangeCDF(w uint64, n int, r uint64) *big.Rat {
	l := r + 1
	u := func(x uint64) *big.Rat { return new(big.Rat).SetInt(new(big.Int).SetUint64(x)) }
	a := new(big.Rat).Mul(ratPow(l, w, n), new(big.Rat).Add(u(w-l), big.NewRat(1, 1)))
	b := new(big.Rat).Mul(ratPow(l-1, w, n), u(w-l))
	return a.Sub(a, b)
}

func TestCoverageGapIntExact(t *testing.T) {
	for _, w := range []uint64{2, 3, 10, 1000, 1 << 40, 1<<64 - 1} {
		for _, n := range []int{1, 5, 30, 1000} {
			for _, alpha := range []float64{1e-12, 1e-9, 0.01, 0.3} {
				j, err := CoverageGapInt(w, n, alpha)
				fits := ratPow(1, w, n).Cmp(ratAlpha(alpha)) <= 0 // j = w-1 works
				var tooSmall *TooSmallError
				if !fits {
					if !errors.As(err, &tooSmall) {
						t.Errorf("CoverageGapInt(%d, %d, %g) = %d, %v; want a TooSmallError", w, n, alpha, j, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("CoverageGapInt(%d, %d, %g): %v", w, n, alpha, err)
				}
				if ratPow(w-j, w, n).Cmp(ratAlpha(alpha)) > 0 {
					t.Errorf("CoverageGapInt(%d, %d, %g) = %d: P(max <= w-1-j) > alpha", w, n, alpha, j)
				}
				// j is the smallest gap, exactly where the integers are small enough to compare
				// (exactBits) and to a relative 1e-8 beyond, where logarithms decide with a
				// margin on the side of passing.
				smaller := j - 1
				if float64(n)*math.Log2(float64(w)) > exactBits {
					smaller = j - uint64(float64(j)*1e-8) - 1
				}
				if j > 1 && ratPow(w-smaller, w, n).Cmp(ratAlpha(alpha)) <= 0 {
					t.Errorf("CoverageGapInt(%d, %d, %g) = %d: %d would do", w, n, alpha, j, smaller)
				}
			}
		}
	}
}

// TestCoverageGapIntExtreme covers the largest w, also at alphas so small that the continuous
// gap rounds to the whole range.
func TestCoverageGapIntExtreme(t *testing.T) {
	for _, w := range []uint64{math.MaxInt64, 1<<63 + 1, math.MaxUint64} {
		for _, c := range []struct {
			n     int
			alpha float64
		}{{16, 1e-300}, {1, 0.5}, {1e7, 1e-300}, {2, 1e-30}} {
			j, err := CoverageGapInt(w, c.n, c.alpha)
			if err != nil || j < 1 || j > w-1 {
				t.Errorf("CoverageGapInt(%d, %d, %g) = %d, %v", w, c.n, c.alpha, j, err)
			}
			r, err := RangeLimitInt(w, c.n+1, c.alpha)
			if err != nil || r > w-2 {
				t.Errorf("RangeLimitInt(%d, %d, %g) = %d, %v", w, c.n+1, c.alpha, r, err)
			}
		}
	}
}

// TestDiscreteLimitsNearAlphaOne is the case where the logarithmic search lands far from the
// answer (alpha = 1 - 2^-53 on 2^57 values): the exact search must settle it quickly.
func TestDiscreteLimitsNearAlphaOne(t *testing.T) {
	const w, n = 0x30cee9371f28913, 100
	alpha := math.Nextafter(1, 0)
	r, err := RangeLimitInt(w, n, alpha)
	if err != nil {
		t.Fatal(err)
	}
	p := func(r uint64) *big.Rat { return rangeCDF(w, n, r) }
	if p(r).Cmp(ratAlpha(alpha)) > 0 || p(r+1).Cmp(ratAlpha(alpha)) <= 0 {
		t.Errorf("RangeLimitInt(%d, %d, 1-2^-53) = %d is not the largest r with P <= alpha", int64(w), n, r)
	}
	j, err := CoverageGapInt(w, n, alpha)
	if err != nil || ratPow(w-j, w, n).Cmp(ratAlpha(alpha)) > 0 || ratPow(w-j+1, w, n).Cmp(ratAlpha(alpha)) <= 0 {
		t.Errorf("CoverageGapInt(%d, %d, 1-2^-53) = %d, %v is not the smallest gap", int64(w), n, j, err)
	}
}

func TestLastTrue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.Uint64Range(0, 1<<40).Draw(t, "lo")
		hi := lo + rapid.OneOf(rapid.Uint64Range(0, 1<<50), rapid.Just(math.MaxUint64-lo)).Draw(t, "width")
		answer := rapid.Uint64Range(lo, hi).Draw(t, "answer")
		guess := rapid.Uint64Range(lo-min(lo, 5), hi+min(5, math.MaxUint64-hi)).Draw(t, "guess")
		calls := 0
		got := lastTrue(lo, hi, guess, func(x uint64) bool { calls++; return x <= answer })
		if got != answer || calls > 4*64+4 {
			t.Fatalf("lastTrue(%d, %d, %d) = %d after %d calls, want %d", lo, hi, guess, got, calls, answer)
		}
	})
}

func TestCoverageGapIntTooSmall(t *testing.T) {
	// (1/10)^8 = 1e-8 > 1e-9 but (1/10)^9 <= 1e-9 up to rounding; 10 values need n >= 9 or 10.
	_, err := CoverageGapInt(10, 8, 1e-9)
	var e *TooSmallError
	if !errors.As(err, &e) {
		t.Fatalf("CoverageGapInt(10, 8, 1e-9): %v, want a TooSmallError", err)
	}
	if _, err := CoverageGapInt(10, e.Need, 1e-9); err != nil {
		t.Errorf("n = Need = %d still fails: %v", e.Need, err)
	}
	if _, err := CoverageGapInt(10, e.Need-1, 1e-9); err == nil {
		t.Errorf("n = Need-1 = %d already works", e.Need-1)
	}
	if e.Check != "coverage" || e.N != 8 || e.Alpha != 1e-9 {
		t.Errorf("TooSmallError = %+v", e)
	}
}

func TestRangeLimitExact(t *testing.T) {
	for _, n := range []int{2, 3, 10, 100, 10000, 1e6} {
		for _, alpha := range []float64{1e-12, 1e-9, 1e-3, 0.5} {
			r, err := RangeLimit(n, alpha)
			if err != nil {
				t.Fatal(err)
			}
			// n r^(n-1) - (n-1) r^n at 400 bits.
			x := new(big.Float).SetPrec(400).SetFloat64(r)
			a := new(big.Float).SetPrec(400).Mul(bigPow(x, n-1), new(big.Float).SetInt64(int64(n)))
			b := new(big.Float).SetPrec(400).Mul(bigPow(x, n), new(big.Float).SetInt64(int64(n-1)))
			got, _ := a.Sub(a, b).Float64()
			// r is within half an ulp, and log P moves by (n-1)/r times that; it errs on the
			// side of passing by the relative margin of 1e-9.
			if got > alpha || got/alpha-1 < -1e-9-1e-12-float64(n)*2.3e-16 {
				t.Errorf("RangeLimit(%d, %g) = %.15g: P(range <= r) = %.17g", n, alpha, r, got)
			}
		}
	}
}

func TestRangeLimitSimulation(t *testing.T) {
	const n, alpha, trials = 20, 0.05, 20000
	lim, _ := RangeLimit(n, alpha)
	r := rand.New(rand.NewPCG(3, 4))
	narrow := 0
	for range trials {
		lo, hi := 1.0, 0.0
		for range n {
			u := r.Float64()
			lo, hi = math.Min(lo, u), math.Max(hi, u)
		}
		if hi-lo <= lim {
			narrow++
		}
	}
	sd := math.Sqrt(alpha * (1 - alpha) / trials)
	if got := float64(narrow) / trials; math.Abs(got-alpha) > 4.5*sd {
		t.Errorf("range <= %.4f in %.4f of runs, want %.4f", lim, got, alpha)
	}
}

func TestRangeLimitErrors(t *testing.T) {
	var e *TooSmallError
	if _, err := RangeLimit(1, 0.1); !errors.As(err, &e) || e.Need != 2 {
		t.Errorf("RangeLimit(1, 0.1): %v, want TooSmallError with Need 2", err)
	}
	if _, err := RangeLimit(0, 0.1); err == nil {
		t.Error("RangeLimit(0, 0.1): no error")
	}
	if _, err := RangeLimit(10, math.NaN()); err == nil {
		t.Error("RangeLimit(10, NaN): no error")
	}
}

// rangeCounts enumerates all w^n samples and counts them by their range.
func rangeCounts(w, n int) []int {
	counts := make([]int, w)
	everySample(w, n, func(x []int) {
		lo, hi := w, -1
		for _, v := range x {
			lo, hi = min(lo, v), max(hi, v)
		}
		counts[hi-lo]++
	})
	return counts
}

// everySample calls f on each of the w^n samples of n values from {0, ..., w-1}, in
// odometer order; f must not keep x.
func everySample(w, n int, f func(x []int)) {
	x := make([]int, n)
	for {
		f(x)
		i := 0
		for i < n && x[i] == w-1 {
			x[i] = 0
			i++
		}
		if i == n {
			return
		}
		x[i]++
	}
}

func TestRangeLimitIntEnumeration(t *testing.T) {
	for w := 2; w <= 6; w++ {
		for n := 1; n <= 7; n++ {
			counts := rangeCounts(w, n)
			total := math.Pow(float64(w), float64(n))
			for _, alpha := range []float64{1e-3, 0.01, 0.05, 0.2, 0.6} {
				// The largest r with P(range <= r) <= alpha, or -1 for none.
				want, cum := -1, 0
				for r := range w {
					cum += counts[r]
					if float64(cum)/total > alpha {
						break
					}
					want = r
				}
				got, err := RangeLimitInt(uint64(w), n, alpha)
				if want < 0 {
					var e *TooSmallError
					if !errors.As(err, &e) {
						t.Errorf("RangeLimitInt(%d, %d, %g) = %d, %v; want a TooSmallError", w, n, alpha, got, err)
					}
					continue
				}
				if err != nil || got != uint64(want) {
					t.Errorf("RangeLimitInt(%d, %d, %g) = %d, %v; want %d", w, n, alpha, got, err, want)
				}
			}
		}
	}
}

// TestRangeLimitIntFormula checks larger cases against the closed form in exact rationals.
func TestRangeLimitIntFormula(t *testing.T) {
	p := rangeCDF
	for _, c := range []struct {
		w uint64
		n int
	}{{10, 30}, {1000, 30}, {1000, 1000}, {1 << 30, 5}, {1<<64 - 1, 5}, {1<<63 + 7, 40}} {
		for _, alpha := range []float64{1e-9, 1e-3} {
			r, err := RangeLimitInt(c.w, c.n, alpha)
			if err != nil {
				t.Fatalf("RangeLimitInt(%d, %d, %g): %v", c.w, c.n, alpha, err)
			}
			if p(c.w, c.n, r).Cmp(ratAlpha(alpha)) > 0 || p(c.w, c.n, r+1).Cmp(ratAlpha(alpha)) <= 0 {
				t.Errorf("RangeLimitInt(%d, %d, %g) = %d is not the largest r with P <= alpha", c.w, c.n, alpha, r)
			}
		}
	}
}

func TestCoverageErrors(t *testing.T) {
	if _, err := CoverageGap(0, 0.1); err == nil {
		t.Error("CoverageGap(0, 0.1): no error")
	}
	for _, a := range []float64{0, 1, math.NaN(), math.Inf(1)} {
		if _, err := CoverageGap(10, a); err == nil {
			t.Errorf("CoverageGap(10, %v): no error", a)
		}
		if _, err := CoverageGapInt(10, 10, a); err == nil {
			t.Errorf("CoverageGapInt(10, 10, %v): no error", a)
		}
		if _, err := RangeLimitInt(10, 10, a); err == nil {
			t.Errorf("RangeLimitInt(10, 10, %v): no error", a)
		}
	}
	for _, w := range []uint64{1, 0} {
		if _, err := CoverageGapInt(w, 10, 0.1); err == nil {
			t.Errorf("CoverageGapInt(%d, 10, 0.1): no error", w)
		}
		if _, err := RangeLimitInt(w, 10, 0.1); err == nil {
			t.Errorf("RangeLimitInt(%d, 10, 0.1): no error", w)
		}
	}
}

func TestCoverageProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 1e7).Draw(t, "n")
		alpha := rapid.Float64Range(1e-14, 0.99).Draw(t, "alpha")
		eps, err := CoverageGap(n, alpha)
		if err != nil || !(eps > 0 && eps < 1) {
			t.Fatalf("CoverageGap(%d, %g) = %v, %v", n, alpha, eps, err)
		}
		if e2, _ := CoverageGap(n+1, alpha); e2 > eps {
			t.Fatalf("CoverageGap grows with n at %d, %g", n, alpha)
		}
		if e2, _ := CoverageGap(n, alpha*0.9); e2 < eps {
			t.Fatalf("CoverageGap shrinks as alpha falls at %d, %g", n, alpha)
		}
		w := rapid.OneOf(rapid.Uint64Range(2, 1<<53), rapid.Uint64Min(2)).Draw(t, "w")
		if j, err := CoverageGapInt(w, n, alpha); err == nil {
			if j < 1 || j > w-1 {
				t.Fatalf("CoverageGapInt(%d, %d, %g) = %d", w, n, alpha, j)
			}
			if j2, err := CoverageGapInt(w, n+1, alpha); err != nil || j2 > j {
				t.Fatalf("CoverageGapInt(%d, %d+1, %g) = %d, %v > %d", w, n, alpha, j2, err, j)
			}
		}
		if n >= 2 {
			r, err := RangeLimit(n, alpha)
			if err != nil || !(r > 0 && r < 1) {
				t.Fatalf("RangeLimit(%d, %g) = %v, %v", n, alpha, r, err)
			}
			if r2, _ := RangeLimit(n+1, alpha); r2 < r {
				t.Fatalf("RangeLimit shrinks with n at %d, %g", n, alpha)
			}
		}
		if r, err := RangeLimitInt(w, n, alpha); err == nil {
			if r > w-2 {
				t.Fatalf("RangeLimitInt(%d, %d, %g) = %d", w, n, alpha, r)
			}
			if r2, err := RangeLimitInt(w, n+1, alpha); err != nil || r2 < r {
				t.Fatalf("RangeLimitInt(%d, %d+1, %g) = %d, %v < %d", w, n, alpha, r2, err, r)
			}
		}
	})
}
