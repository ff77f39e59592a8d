package sizing

import (
	"errors"
	"math"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// bigPow returns x^k in big.Float arithmetic at 400 bits.
func bigPow(x *big.Float, k int) *big.Float {
	r := new(big.Float).SetPrec(400).SetInt64(1)
	b := new(big.Float).SetPrec(400).Set(x)
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			r.Mul(r, b)
		}
		b.Mul(b, b)
	}
	return r
}

func TestSidakAgainstBigFloat(t *testing.T) {
	for _, alpha := range []float64{1e-12, 1e-9, 1e-6, 0.01, 0.5, 0.99} {
		for _, k := range []int{1, 2, 7, 1000, 1 << 20} {
			a, err := Sidak(alpha, k)
			if err != nil {
				t.Fatalf("Sidak(%g, %d): %v", alpha, k, err)
			}
			// 1 - (1 - a)^k at 400 bits must give back alpha.
			one := new(big.Float).SetPrec(400).SetInt64(1)
			pass := new(big.Float).SetPrec(400).Sub(one, new(big.Float).SetPrec(400).SetFloat64(a))
			got, _ := new(big.Float).SetPrec(400).Sub(one, bigPow(pass, k)).Float64()
			if math.Abs(got-alpha) > 1e-12*alpha {
				t.Errorf("Sidak(%g, %d) = %g: 1-(1-a)^k = %.15g, want %.15g", alpha, k, a, got, alpha)
			}
		}
	}
}

func TestSidakOnePartIsAlpha(t *testing.T) {
	if a, _ := Sidak(1e-9, 1); a != 1e-9 {
		t.Errorf("Sidak(1e-9, 1) = %g, want 1e-9", a)
	}
}

func TestSidakErrors(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		k     int
	}{{0, 1}, {1, 1}, {-0.1, 1}, {math.NaN(), 1}, {math.Inf(1), 1}, {0.1, 0}, {0.1, -3}} {
		if _, err := Sidak(c.alpha, c.k); err == nil {
			t.Errorf("Sidak(%v, %d): no error", c.alpha, c.k)
		}
	}
}

func TestBonferroni(t *testing.T) {
	if a, err := Bonferroni(1e-9, 5); a != 2e-10 || err != nil {
		t.Errorf("Bonferroni(1e-9, 5) = %g, %v; want 2e-10", a, err)
	}
	// Below Sidak's share, by a relative (k-1) alpha / 2 at most.
	for _, alpha := range []float64{1e-9, 0.01, 0.5} {
		b, _ := Bonferroni(alpha, 7)
		s, _ := Sidak(alpha, 7)
		if b > s || s-b > 3*alpha*b*1.01 {
			t.Errorf("alpha %g, k = 7: Bonferroni %g, Sidak %g", alpha, b, s)
		}
	}
	var e *InputError
	for _, c := range []struct {
		alpha float64
		k     int
	}{{0, 1}, {1, 1}, {math.NaN(), 1}, {0.1, 0}, {5e-324, 2}, {1e-300, 2}, {2e-300, 3}} {
		if a, err := Bonferroni(c.alpha, c.k); !errors.As(err, &e) {
			t.Errorf("Bonferroni(%v, %d) = %v, %v; want an *InputError", c.alpha, c.k, a, err)
		}
	}
}

func TestCombine(t *testing.T) {
	for _, c := range []struct {
		alphas []float64
		want   float64
	}{{nil, 0}, {[]float64{0.5, 0.5}, 0.75}, {[]float64{1, 1e-9}, 1}} {
		if got, err := Combine(c.alphas...); got != c.want || err != nil {
			t.Errorf("Combine(%v) = %g, %v; want %g", c.alphas, got, err, c.want)
		}
	}
	// Tiny rates add up to their sum to first order, with no loss of digits.
	if got, _ := Combine(1e-15, 2e-15); math.Abs(got-3e-15) > 1e-28 {
		t.Errorf("Combine(1e-15, 2e-15) = %g, want 3e-15", got)
	}
	var e *InputError
	for _, bad := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		if got, err := Combine(0.1, bad); !errors.As(err, &e) {
			t.Errorf("Combine(0.1, %v) = %g, %v; want an *InputError", bad, got, err)
		}
	}
}

func TestSuiteAlpha(t *testing.T) {
	got, err := SuiteAlpha(1e-3, 20, 500)
	run, _ := Sidak(1e-3, 500)
	if err != nil || got != run/20 {
		t.Errorf("SuiteAlpha(1e-3, 20, 500) = %g, %v; want %g", got, err, run/20)
	}
	for _, c := range [][2]int{{0, 5}, {5, 0}, {-1, 5}} {
		if _, err := SuiteAlpha(1e-3, c[0], c[1]); err == nil {
			t.Errorf("SuiteAlpha(1e-3, %d, %d): no error", c[0], c[1])
		}
	}
	// No product checks*runs is formed, so nothing overflows; a share below MinAlpha is an error.
	if a, err := SuiteAlpha(1e-3, math.MaxInt, math.MaxInt); a <= 0 || err != nil {
		t.Errorf("SuiteAlpha(1e-3, MaxInt, MaxInt) = %g, %v", a, err)
	}
	if _, err := SuiteAlpha(1e-290, math.MaxInt, math.MaxInt); err == nil {
		t.Error("SuiteAlpha(1e-290, MaxInt, MaxInt): no error for a share below MinAlpha")
	}
	if _, err := SuiteAlpha(2, 1, 1); err == nil {
		t.Error("SuiteAlpha(2, 1, 1): no error")
	}
}

// TestSidakDenormal is issue 8's case: a denormal rate gave a share of 0 with no error.
func TestSidakDenormal(t *testing.T) {
	var e *InputError
	for _, alpha := range []float64{5e-324, 1e-320, 1e-310} {
		if a, err := Sidak(alpha, 2); !errors.As(err, &e) {
			t.Errorf("Sidak(%g, 2) = %g, %v; want an *InputError", alpha, a, err)
		}
	}
	if a, err := Sidak(1e-300, 1e6); !errors.As(err, &e) {
		t.Errorf("Sidak(1e-300, 1e6) = %g, %v; want an *InputError: the share is below MinAlpha", a, err)
	}
}

func TestSidakProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alpha := rapid.Float64Range(1e-15, 0.999).Draw(t, "alpha")
		k := rapid.IntRange(1, 1e9).Draw(t, "k")
		a, err := Sidak(alpha, k)
		if err != nil {
			t.Fatal(err)
		}
		// The per-part rate is at most alpha and at least alpha/k (Bonferroni is conservative).
		if a > alpha || a < alpha/float64(k)*(1-1e-12) {
			t.Fatalf("Sidak(%g, %d) = %g, outside [alpha/k, alpha]", alpha, k, a)
		}
		// Combining the k parts gives alpha back.
		if got := -math.Expm1(float64(k) * math.Log1p(-a)); math.Abs(got-alpha) > 1e-9*alpha {
			t.Fatalf("combined %d parts of %g: %g, want %g", k, a, got, alpha)
		}
		// More parts, smaller share; larger total, larger share.
		if b, _ := Sidak(alpha, k+1); b > a {
			t.Fatalf("Sidak(%g, %d) = %g > Sidak(.., %d) = %g", alpha, k+1, b, k, a)
		}
		if b, _ := Sidak(math.Min(alpha*1.01, 0.9995), k); b < a {
			t.Fatalf("Sidak not increasing in alpha at %g, %d", alpha, k)
		}
	})
}

func TestSidakNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alpha := rapid.Float64().Draw(t, "alpha")
		k := rapid.Int().Draw(t, "k")
		a, err := Sidak(alpha, k)
		if err == nil && (math.IsNaN(a) || a <= 0 || a > alpha) {
			t.Fatalf("Sidak(%v, %d) = %v with no error", alpha, k, a)
		}
		_, _ = SuiteAlpha(alpha, k, rapid.Int().Draw(t, "runs"))
	})
}
