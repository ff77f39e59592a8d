package spreadvet

import (
	"math"
	"testing"
)

// trinomialPMF is P(X = a, Y = b) for the counts of two categories of rate p each among n
// trials, from log-gamma: the pairwise term the union bound leaves out.
func trinomialPMF(a, b, n int, p float64) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	la, _ := math.Lgamma(float64(a + 1))
	lb, _ := math.Lgamma(float64(b + 1))
	lr, _ := math.Lgamma(float64(n - a - b + 1))
	return math.Exp(ln - la - lb - lr + float64(a+b)*math.Log(p) + float64(n-a-b)*math.Log1p(-2*p))
}

// TestCategoriesChance checks the chance told for per-category tallies against a direct sum
// of binomial terms, on the two real tests it was made for. For uniuri's it also bounds the
// true chance from below (Bonferroni's second inequality: P(any) >= sum P(A_i) - sum P(A_i and
// A_j), the pairs summed over trinomial terms), so the union bound is shown to be an upper
// bound that is not far above, and checks both against the failure rate measured by running
// the test 3000 times.
func TestCategoriesChance(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lo, hi, n, k int
		measured     float64 // the fraction of real runs that failed
		runs         int
	}{
		// github.com/dchest/uniuri v1.2.0 TestBias: 100,000 letters of 26, each count within
		// 5% of 100000/26 = 3846.15 (fails at <= 3653 or >= 4039); 113 of 3000 runs failed.
		{"uniuri", 3653, 4039, 100000, 26, 113.0 / 3000, 3000},
		// github.com/matoous/go-nanoid/v2 v2.1.0 TestFlatDistribution: 1e6 letters of 10, each
		// count within 1% of 100,000; 0.70% of runs failed.
		{"nanoid", 98999, 101001, 1000000, 10, 0.0070, 0},
	} {
		p := 1 / float64(tc.k)
		direct := 0.0
		for x := 0; x <= tc.n; x++ {
			if x <= tc.lo || x >= tc.hi {
				direct += binomialPMF(x, tc.n, p)
			}
		}
		one, union, err := categoriesChance(tc.lo, tc.hi, tc.n, tc.k)
		if err != nil || math.Abs(one-direct) > 1e-9*direct || math.Abs(union-float64(tc.k)*direct) > 1e-9*union {
			t.Errorf("%s: categoriesChance = %v, %v, %v; the direct sum gives %v per count, %v for any", tc.name, one, union, err, direct, float64(tc.k)*direct)
		}
		t.Logf("%s: one count leaves its band with probability %.4g; any of %d: at most %.4g", tc.name, one, tc.k, union)
		if tc.runs == 0 {
			if union < tc.measured || union > 2*tc.measured {
				t.Errorf("%s: union bound %v against a measured %v", tc.name, union, tc.measured)
			}
			continue
		}
		// The pairs: each tail cut 12 standard deviations out, past which the terms are below
		// 1e-30.
		w := int(12 * math.Sqrt(float64(tc.n)*p*(1-p)))
		tail := func(yield func(int)) {
			for x := max(0, tc.lo-w); x <= tc.lo; x++ {
				yield(x)
			}
			for x := tc.hi; x <= min(tc.n, tc.hi+w); x++ {
				yield(x)
			}
		}
		pair := 0.0
		tail(func(a int) {
			tail(func(b int) {
				if a+b <= tc.n {
					pair += trinomialPMF(a, b, tc.n, p)
				}
			})
		})
		pairs := float64(tc.k*(tc.k-1)/2) * pair
		lower := union - pairs
		t.Logf("%s: the true chance is between %.4g and %.4g", tc.name, lower, union)
		if lower <= 0 || lower > union || union-lower > 0.05*union {
			t.Errorf("%s: the true chance is in [%v, %v]: the union bound is too loose", tc.name, lower, union)
		}
		// The measured rate must agree with [lower, union] within 3 standard errors.
		se := math.Sqrt(tc.measured * (1 - tc.measured) / float64(tc.runs))
		if tc.measured+3*se < lower || tc.measured-3*se > union {
			t.Errorf("%s: measured %v ± %v against [%v, %v]", tc.name, tc.measured, se, lower, union)
		}
	}
}
