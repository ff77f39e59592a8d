package sizing

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// longestRun returns the longest run of true values in x.
func longestRun(x []bool) int {
	best, cur := 0, 0
	for _, s := range x {
		if s {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

// runPMFEnumeration enumerates all 2^n sequences and returns P(L = r), r = 0..n, each
// sequence weighted by p^successes (1-p)^failures.
func runPMFEnumeration(n int, p float64) []float64 {
	pmf := make([]float64, n+1)
	x := make([]bool, n)
	for mask := range 1 << n {
		w := 1.0
		for i := range x {
			x[i] = mask>>i&1 == 1
			if x[i] {
				w *= p
			} else {
				w *= 1 - p
			}
		}
		pmf[longestRun(x)] += w
	}
	return pmf
}

func TestLongestRunProbEnumeration(t *testing.T) {
	for _, p := range []float64{0.5, 1.0 / 3, 0.8, 0.05} {
		for n := 1; n <= 14; n++ {
			pmf := runPMFEnumeration(n, p)
			for r := 0; r <= n+1; r++ {
				var below, at float64 // each summed from its own side
				for l, q := range pmf {
					if l < r {
						below += q
					} else {
						at += q
					}
				}
				got, gotAt, err := LongestRunProb(n, p, r)
				if err != nil {
					t.Fatal(err)
				}
				if !closeRel(got, below, 1e-13) || !closeRel(gotAt, at, 1e-13) {
					t.Errorf("LongestRunProb(%d, %.3g, %d) = %.15g, %.15g; enumeration %.15g, %.15g", n, p, r, got, gotAt, below, at)
				}
			}
		}
	}
}

// closeRel reports whether got is within a relative tol of want (or both are 0).
func closeRel(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// runTailsRat computes P(L < r) and P(L >= r) exactly in rationals with a Markov chain over the
// length of the current run, an independent method: state j < r is a current run of j
// successes, and a separate absorbing state holds the sequences that reached r.
func runTailsRat(n int, p *big.Rat, r int) (below, atLeast *big.Rat) {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	state := make([]*big.Rat, r)
	for j := range state {
		state[j] = new(big.Rat)
	}
	state[0].SetInt64(1)
	done := new(big.Rat)
	for range n {
		next := make([]*big.Rat, r)
		for j := range next {
			next[j] = new(big.Rat)
		}
		for j, s := range state {
			next[0].Add(next[0], new(big.Rat).Mul(s, q))
			if j+1 < r {
				next[j+1].Add(next[j+1], new(big.Rat).Mul(s, p))
			} else {
				done.Add(done, new(big.Rat).Mul(s, p))
			}
		}
		state = next
	}
	below = new(big.Rat)
	for _, s := range state {
		below.Add(below, s)
	}
	return below, done
}

func TestLongestRunProbBigRational(t *testing.T) {
	for _, c := range []struct {
		num, den int64
		n        int
		rs       []int
	}{
		{1, 2, 200, []int{1, 2, 3, 5, 8, 12, 20, 40}},
		{1, 3, 150, []int{1, 2, 4, 6, 10, 25}},
		{7, 10, 120, []int{2, 5, 10, 20, 40, 80}},
	} {
		p := big.NewRat(c.num, c.den)
		pf, _ := p.Float64()
		for _, r := range c.rs {
			wantB, wantA := runTailsRat(c.n, p, r)
			gotB, gotA, err := LongestRunProb(c.n, pf, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []struct {
				name string
				got  float64
				want *big.Rat
			}{{"P(L < r)", gotB, wantB}, {"P(L >= r)", gotA, wantA}} {
				w, _ := v.want.Float64()
				if rel := math.Abs(v.got-w) / w; rel > 1e-12 {
					t.Errorf("n = %d, p = %d/%d, r = %d: %s = %.15g, exact %.15g (relative error %.2g)", c.n, c.num, c.den, r, v.name, v.got, w, rel)
				}
			}
		}
	}
}

// The interval's tails are within alpha/2 each and as tight as the lattice allows: one step
// further in and a tail would exceed alpha/2.
func TestLongestRunIntervalTight(t *testing.T) {
	for _, c := range []struct {
		n     int
		p     float64
		alpha float64
	}{{100, 0.5, 1e-9}, {1000, 0.5, 1e-9}, {1000, 0.5, 1e-3}, {3600, 0.5, 1e-12}, {500, 0.25, 1e-6}, {500, 0.9, 1e-6}} {
		lo, hi, method, err := LongestRunInterval(c.n, c.p, c.alpha)
		if err != nil || !strings.HasPrefix(method, "exact") {
			t.Fatalf("LongestRunInterval(%d, %g, %g) = %d, %d, %q, %v", c.n, c.p, c.alpha, lo, hi, method, err)
		}
		a := c.alpha / 2
		below, _ := runProbs(c.n, c.p, lo)
		belowNext, _ := runProbs(c.n, c.p, lo+1)
		_, above := runProbs(c.n, c.p, hi+1)
		_, aboveNext := runProbs(c.n, c.p, hi)
		if below > a || belowNext <= a || above > a || aboveNext <= a {
			t.Errorf("n = %d, p = %g, alpha = %g: [%d, %d]: P(L < lo) = %.3g, P(L < lo+1) = %.3g, P(L > hi) = %.3g, P(L > hi-1) = %.3g; want the first and third <= %.3g, the others above",
				c.n, c.p, c.alpha, lo, hi, below, belowNext, above, aboveNext, a)
		}
	}
}

// noRunCount returns the number of binary strings of length n with no r consecutive ones, the
// r-step Fibonacci numbers a(m) = a(m-1) + ... + a(m-r) with a(m) = 2^m for m < r: a third
// method, in integers, for fair coins.
func noRunCount(n, r int) *big.Int {
	a := make([]*big.Int, n+1)
	for m := range a {
		if m < r {
			a[m] = new(big.Int).Lsh(big.NewInt(1), uint(m))
			continue
		}
		a[m] = new(big.Int)
		for k := 1; k <= r; k++ {
			a[m].Add(a[m], a[m-k])
		}
	}
	return a[n]
}

// Reference values from the integer count: the 1e-9 interval of the longest run of heads among
// 1000 fair tosses is [4, 39], with P(L < 4) = 1.04e-16, P(L < 5) = 3.68e-8, P(L >= 40) =
// 4.38e-10 and P(L >= 39) = 8.76e-10.
func TestLongestRunIntervalReference(t *testing.T) {
	lo, hi, _, err := LongestRunInterval(1000, 0.5, 1e-9)
	if err != nil || lo != 4 || hi != 39 {
		t.Fatalf("LongestRunInterval(1000, 0.5, 1e-9) = [%d, %d], %v; want [4, 39]", lo, hi, err)
	}
	total := new(big.Int).Lsh(big.NewInt(1), 1000)
	prob := func(count *big.Int) float64 {
		f, _ := new(big.Rat).SetFrac(count, total).Float64()
		return f
	}
	for _, c := range []struct {
		r         int
		below, at float64 // P(L < r), P(L >= r), rounded
	}{{4, 1.04e-16, 1}, {5, 3.68e-8, 1}, {39, 1, 8.76e-10}, {40, 1, 4.38e-10}} {
		count := noRunCount(1000, c.r)
		below := prob(count)
		at := prob(new(big.Int).Sub(total, count))
		gotB, gotA, _ := LongestRunProb(1000, 0.5, c.r)
		if !closeRel(gotB, below, 1e-12) || !closeRel(gotA, at, 1e-12) {
			t.Errorf("r = %d: LongestRunProb = %.15g, %.15g; integer count %.15g, %.15g", c.r, gotB, gotA, below, at)
		}
		if ref := min(below, at); math.Abs(ref-min(c.below, c.at)) > 0.01*ref {
			t.Errorf("r = %d: tail %.4g, reference %.3g", c.r, ref, min(c.below, c.at))
		}
	}
}

// Beyond the exact range the interval comes from bounds that lie above the exact tails.
func TestLongestRunBoundsAboveExact(t *testing.T) {
	for _, p := range []float64{0.5, 0.2, 0.9} {
		for _, n := range []int{10, 100, 1000} {
			lower, upper := runsBounds(n, p)
			for r := 0; r <= min(n+1, 80); r++ {
				below, at := runProbs(n, p, r)
				if lower(r) < below*(1-1e-12) || upper(r) < at*(1-1e-12) {
					t.Errorf("n = %d, p = %g, r = %d: bounds %.4g, %.4g below the exact %.4g, %.4g", n, p, r, lower(r), upper(r), below, at)
				}
			}
		}
	}
	lo, hi, method, err := LongestRunInterval(3e6, 0.5, 1e-9)
	if err != nil || !strings.HasPrefix(method, "proven bounds") || lo < 10 || hi > 60 || lo >= hi {
		t.Errorf("LongestRunInterval(3e6, 0.5, 1e-9) = [%d, %d], %q, %v; want bounds around [15, 53]", lo, hi, method, err)
	}
}

func TestLongestRunTooSmall(t *testing.T) {
	_, _, _, err := LongestRunInterval(30, 0.5, 1e-9)
	var small *TooSmallError
	if !errors.As(err, &small) || small.Need != 31 {
		t.Fatalf("LongestRunInterval(30, 0.5, 1e-9) error %v, want a TooSmallError needing 31", err)
	}
	small.Need = 0 // changing the error must not change the cached one
	if _, _, _, err := LongestRunInterval(30, 0.5, 1e-9); !errors.As(err, &small) || small.Need != 31 {
		t.Errorf("second call: %v, want Need 31 again", err)
	}
	if _, _, _, err := LongestRunInterval(31, 0.5, 1e-9); err != nil {
		t.Errorf("LongestRunInterval(31, 0.5, 1e-9): %v, want an interval", err)
	}
}

func TestLongestRunBadInput(t *testing.T) {
	for _, c := range []struct {
		n        int
		p, alpha float64
	}{{0, 0.5, 0.01}, {-1, 0.5, 0.01}, {10, 0, 0.01}, {10, 1, 0.01}, {10, math.NaN(), 0.01},
		{10, 0.5, 0}, {10, 0.5, 1}, {10, 0.5, math.NaN()}, {10, math.Inf(1), 0.01}} {
		if _, _, _, err := LongestRunInterval(c.n, c.p, c.alpha); err == nil {
			t.Errorf("LongestRunInterval(%d, %v, %v): no error", c.n, c.p, c.alpha)
		}
		if c.alpha == 0.01 {
			if _, _, err := LongestRunProb(c.n, c.p, 2); err == nil {
				t.Errorf("LongestRunProb(%d, %v, 2): no error", c.n, c.p)
			}
		}
	}
	if _, _, err := LongestRunProb(1<<40, 0.5, 1000); err == nil {
		t.Error("LongestRunProb(2^40, 0.5, 1000): no error for 2^50 steps")
	}
}

func TestLongestRunProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 400).Draw(t, "n")
		p := rapid.Float64Range(0.01, 0.99).Draw(t, "p")
		r := rapid.IntRange(0, n+1).Draw(t, "r")
		below, at := runProbs(n, p, r)
		if math.Abs(below+at-1) > 1e-12 || below < 0 || at < 0 {
			t.Fatalf("P(L < r) + P(L >= r) = %.15g + %.15g", below, at)
		}
		_, atMore := runProbs(n+1, p, r) // more trials: a long run is no less likely
		_, atLonger := runProbs(n, p, r+1)
		if atMore < at*(1-1e-12) || atLonger > at*(1+1e-12) {
			t.Fatalf("P(L >= r) = %.6g; with n+1 trials %.6g, for r+1 %.6g", at, atMore, atLonger)
		}
		alpha := math.Pow(10, -rapid.Float64Range(1, 15).Draw(t, "-log10 alpha"))
		lo, hi, _, err := LongestRunInterval(n, p, alpha)
		if err != nil {
			var small *TooSmallError
			if !errors.As(err, &small) || small.Need <= n {
				t.Fatalf("error %v", err)
			}
			return
		}
		lo2, hi2, _, err := LongestRunInterval(n, p, alpha/10) // a smaller rate: a wider interval
		if err == nil && (lo2 > lo || hi2 < hi) {
			t.Fatalf("alpha %g: [%d, %d]; alpha/10: [%d, %d]", alpha, lo, hi, lo2, hi2)
		}
		if lo > hi || hi > n {
			t.Fatalf("interval [%d, %d] for n = %d", lo, hi, n)
		}
	})
}

// Seeded simulation agrees with the exact distribution where it can see it.
func TestLongestRunSimulation(t *testing.T) {
	const n, trials = 200, 40000
	r := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, n+1)
	x := make([]bool, n)
	for range trials {
		for i := range x {
			x[i] = r.IntN(2) == 0
		}
		counts[longestRun(x)]++
	}
	cum := 0
	for l := 0; l <= 12; l++ {
		below, _ := runProbs(n, 0.5, l)
		sd := math.Sqrt(below * (1 - below) / trials)
		if got := float64(cum) / trials; math.Abs(got-below) > 5*sd+1e-9 {
			t.Errorf("P(L < %d): simulated %.4f, exact %.4f (sd %.4f)", l, got, below, sd)
		}
		cum += counts[l]
	}
}

// Calibration: the two-sided check on seeded fair coins fails at most at its rate.
func TestLongestRunCalibration(t *testing.T) {
	longtest.Skip(t)
	const n, runs, alpha = 1000, 200000, 0.01
	lo, hi, _, err := LongestRunInterval(n, 0.5, alpha)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]bool, n)
	fails := 0
	for range runs {
		for i := range x {
			x[i] = r.IntN(2) == 0
		}
		if l := longestRun(x); l < lo || l > hi {
			fails++
		}
	}
	rate := float64(fails) / runs
	t.Logf("longest run among %d fair coins, interval [%d, %d] at alpha %g: false-failure rate %.4f over %d runs", n, lo, hi, alpha, rate, runs)
	if limit := alpha + 5*math.Sqrt(alpha/runs); rate > limit {
		t.Errorf("false-failure rate %.4f above alpha %g", rate, alpha)
	}
}
