package audit

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestFisherPublished checks the one-sided p-values against published values: Fisher's lady
// tasting tea (3 of 4 cups right: 17/70), and R's fisher.test(matrix(c(10,0,2,8),2),
// alternative="greater") = 0.0003572, C(12,10)/C(20,10) = 66/184756 exactly (10 of 10 runs fail under the mutant, 2 of 10 at baseline).
func TestFisherPublished(t *testing.T) {
	for _, c := range []struct {
		a, m, b, n int
		want       float64
	}{
		{3, 4, 1, 4, 17.0 / 70},
		{10, 10, 2, 10, 66.0 / 184756},
		{5, 5, 0, 20, 1 / 53130.0},
		{0, 20, 0, 20, 1},
	} {
		if got := fisherGreater(c.a, c.m, c.b, c.n); math.Abs(got-c.want) > 1e-6*c.want+1e-12 {
			t.Errorf("fisherGreater(%d, %d, %d, %d) = %.7g, want %.7g", c.a, c.m, c.b, c.n, got, c.want)
		}
	}
}

// exactTail computes the same tail in exact rational arithmetic.
func exactTail(k, m, n, lo, hi int) float64 {
	num := new(big.Int)
	for x := lo; x <= hi; x++ {
		num.Add(num, new(big.Int).Mul(new(big.Int).Binomial(int64(k), int64(x)), new(big.Int).Binomial(int64(m+n-k), int64(m-x))))
	}
	f, _ := new(big.Rat).SetFrac(num, new(big.Int).Binomial(int64(m+n), int64(m))).Float64()
	return f
}

// TestFisherExact: both tails agree with exact big-integer sums on every table with up to
// 60 runs a side, and the two tails of a table sum to 1 plus the probability of the table.
func TestFisherExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 60).Draw(t, "m")
		n := rapid.IntRange(1, 60).Draw(t, "n")
		a := rapid.IntRange(0, m).Draw(t, "a")
		b := rapid.IntRange(0, n).Draw(t, "b")
		k := a + b
		hi := exactTail(k, m, n, a, min(k, m))
		lo := exactTail(k, m, n, max(0, k-n), a)
		if g := fisherGreater(a, m, b, n); math.Abs(g-hi) > 1e-9*hi+1e-300 {
			t.Fatalf("greater: %g, exact %g", g, hi)
		}
		if l := fisherLess(a, m, b, n); math.Abs(l-lo) > 1e-9*lo+1e-300 {
			t.Fatalf("less: %g, exact %g", l, lo)
		}
	})
}

// TestFisherMonotone: more failures under the mutant never make it look less killed.
func TestFisherMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := rapid.IntRange(1, 200).Draw(t, "m")
		n := rapid.IntRange(1, 200).Draw(t, "n")
		a := rapid.IntRange(0, m-1).Draw(t, "a")
		b := rapid.IntRange(0, n).Draw(t, "b")
		if p, q := fisherGreater(a, m, b, n), fisherGreater(a+1, m, b, n); q > p*(1+1e-12) {
			t.Fatalf("p(%d failures) = %g > p(%d) = %g", a+1, q, a, p)
		}
	})
}

func TestLooks(t *testing.T) {
	for r, want := range map[int][]int{1: {1}, 2: {1, 2}, 20: {3, 5, 10, 20}, 100: {13, 25, 50, 100}} {
		got := looks(r)
		if len(got) != len(want) {
			t.Errorf("looks(%d) = %v, want %v", r, got, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("looks(%d) = %v, want %v", r, got, want)
			}
		}
	}
}

func TestCannotKill(t *testing.T) {
	// 0 failures in 10 of 20 runs: 10 more failures would give p = C(20,10)/C(40,20)... small.
	if cannotKill(0, 10, 20, 0, 20, 1e-3) {
		t.Error("10 runs still to go can kill a mutant at 1e-3")
	}
	// 0 failures in 19 of 20 runs: one more failure cannot reach 1e-3.
	if !cannotKill(0, 19, 20, 0, 20, 1e-3) {
		t.Error("one run to go cannot kill at 1e-3, yet cannotKill says it can")
	}
}

// TestFlakyHint: a test failing 14 of 20 baseline runs cannot kill at 20 runs even if a
// mutant makes it fail every run, and the hint names the runs that would; one failing 1 of
// 20 can, so its survivor gets no hint.
func TestFlakyHint(t *testing.T) {
	level := 0.01 / (24 * 4.0)
	if got := flakyHint("TestF", &tally{runs: 20, fails: 14}, 20, level); !strings.Contains(got, "-runs 40") {
		t.Errorf("14 of 20: hint %q, want one naming -runs 40", got)
	}
	if got := flakyHint("TestF", &tally{runs: 20, fails: 1}, 20, level); got != "" {
		t.Errorf("1 of 20: hint %q, want none", got)
	}
	if got := flakyHint("TestF", &tally{runs: 20, fails: 20}, 20, level); got != "" {
		t.Errorf("20 of 20: hint %q, want none (such a test is left out)", got)
	}
}
