package spreadvet

import (
	"go/token"
	"math"
	"testing"
)

// binomialPMF is an independent binomial term, from log-gamma.
func binomialPMF(k, n int, p float64) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// TestTailsChance checks the two tails a counted proportion fails in against a direct sum of
// the binomial terms.
func TestTailsChance(t *testing.T) {
	for _, tc := range []struct {
		lo, hi, n int
		p         float64
	}{
		{34, 66, 100, 0.5}, {-1, 301, 1000, 0.23335}, {79, 201, 200, 0.5}, {39, 61, 100, 0.5}, {2, 9, 10, 0.3},
	} {
		want := 0.0
		for k := 0; k <= tc.n; k++ {
			if k <= tc.lo || k >= tc.hi {
				want += binomialPMF(k, tc.n, tc.p)
			}
		}
		got, err := tailsChance(tc.lo, tc.hi, tc.n, tc.p)
		if err != nil || math.Abs(got-want) > 1e-9*want {
			t.Errorf("tailsChance(%d, %d, %d, %v) = %v, %v; the direct sum is %v", tc.lo, tc.hi, tc.n, tc.p, got, err, want)
		}
	}
}

// TestFailRegion checks the counts at which checks fail: two tails, one, or a shape that is
// not two tails (then no chance is told).
func TestFailRegion(t *testing.T) {
	below := func(x float64) countCheck {
		return countCheck{fails: func(k int) bool { return holds(token.LSS, float64(k), x) }}
	}
	above := func(x float64) countCheck {
		return countCheck{fails: func(k int) bool { return holds(token.GTR, float64(k), x) }}
	}
	middle := countCheck{fails: func(k int) bool { return k == 50 }}
	for _, tc := range []struct {
		name   string
		checks []countCheck
		lo, hi int
		ok     bool
	}{
		{"both", []countCheck{below(35), above(65)}, 34, 66, true},
		{"upper", []countCheck{above(300)}, -1, 301, true},
		{"lower", []countCheck{below(0.4 * 200)}, 79, 201, true},
		{"middle", []countCheck{middle}, 0, 0, false},
		{"always", []countCheck{below(101)}, 0, 0, false},
		{"never", []countCheck{above(100)}, 0, 0, false},
	} {
		n := 100
		if tc.name == "upper" {
			n = 1000
		}
		if tc.name == "lower" {
			n = 200
		}
		lo, hi, ok := failRegion(tc.checks, n)
		if ok != tc.ok || ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("%s: failRegion = %d, %d, %v; want %d, %d, %v", tc.name, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}
