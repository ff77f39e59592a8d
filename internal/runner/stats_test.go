package runner

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// binomPMF is P(X = k) for X ~ Binomial(n, p), from log-gamma: independent of the beta
// functions that Interval and TailProb use.
func binomPMF(k, n int, p float64) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// binomTail is P(X >= k) by direct summation.
func binomTail(k, n int, p float64) float64 {
	s := 0.0
	for i := k; i <= n; i++ {
		s += binomPMF(i, n, p)
	}
	return s
}

func TestIntervalPublished(t *testing.T) {
	// Clopper and Pearson's interval for 1 success in 10 trials, as tabulated in Newcombe (1998),
	// Statistics in Medicine 17:857, table II, method 5: 0.0025 to 0.4450.
	lo, hi, err := Interval(1, 10)
	if err != nil || math.Abs(lo-0.0025) > 5e-5 || math.Abs(hi-0.4450) > 5e-5 {
		t.Errorf("Interval(1, 10) = %v, %v, %v; want 0.0025, 0.4450", lo, hi, err)
	}
	// 0 of 500: the upper end is 1 - 0.025^(1/500).
	lo, hi, _ = Interval(0, 500)
	if want := 1 - math.Pow(0.025, 1.0/500); lo != 0 || math.Abs(hi-want) > 1e-12 {
		t.Errorf("Interval(0, 500) = %v, %v; want 0, %v", lo, hi, want)
	}
}

// TestIntervalEnds checks each end against its definition by direct summation: the lower end
// is the rate at which k or more failures have probability 2.5%, the upper end the rate at
// which k or fewer do.
func TestIntervalEnds(t *testing.T) {
	for _, c := range []struct{ k, n int }{{1, 10}, {3, 500}, {26, 500}, {250, 500}, {499, 500}, {7, 40}} {
		lo, hi, err := Interval(c.k, c.n)
		if err != nil {
			t.Fatal(err)
		}
		if got := binomTail(c.k, c.n, lo); math.Abs(got-0.025) > 1e-9 {
			t.Errorf("k=%d n=%d: P(X >= k; lo=%v) = %v, want 0.025", c.k, c.n, lo, got)
		}
		if got := 1 - binomTail(c.k+1, c.n, hi); math.Abs(got-0.025) > 1e-9 {
			t.Errorf("k=%d n=%d: P(X <= k; hi=%v) = %v, want 0.025", c.k, c.n, hi, got)
		}
	}
}

// TestIntervalCoverage checks by exact enumeration that the interval covers the true rate with
// probability at least 95% over a grid of rates, including the small rates flakes have.
func TestIntervalCoverage(t *testing.T) {
	for _, n := range []int{10, 37, 200} {
		los, his := make([]float64, n+1), make([]float64, n+1)
		for k := 0; k <= n; k++ {
			los[k], his[k], _ = Interval(k, n)
		}
		for i := 1; i < 400; i++ {
			p := math.Pow(float64(i)/400, 2) // denser near 0
			cov := 0.0
			for k := 0; k <= n; k++ {
				if los[k] <= p && p <= his[k] {
					cov += binomPMF(k, n, p)
				}
			}
			if cov < Confidence-1e-9 {
				t.Errorf("n=%d p=%.5f: coverage %.4f < 0.95", n, p, cov)
			}
		}
	}
}

func TestIntervalProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 5000).Draw(t, "n")
		k := rapid.IntRange(0, n).Draw(t, "k")
		lo, hi, err := Interval(k, n)
		if err != nil {
			t.Fatal(err)
		}
		if p := float64(k) / float64(n); !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
			t.Fatalf("Interval(%d, %d) = [%v, %v] does not hold %v", k, n, lo, hi, p)
		}
		if k < n { // one more failure moves both ends up
			lo2, hi2, _ := Interval(k+1, n)
			if lo2 < lo || hi2 < hi {
				t.Fatalf("Interval(%d, %d) = [%v, %v] but Interval(%d, %d) = [%v, %v]", k, n, lo, hi, k+1, n, lo2, hi2)
			}
		}
		// Twice the runs at the same rate narrow the interval.
		lo3, hi3, _ := Interval(2*k, 2*n)
		if hi3-lo3 > hi-lo {
			t.Fatalf("Interval(%d, %d) is wider than Interval(%d, %d)", 2*k, 2*n, k, n)
		}
	})
}

func TestIntervalBadInput(t *testing.T) {
	for _, c := range []struct{ k, n int }{{0, 0}, {-1, 10}, {11, 10}, {0, -5}} {
		if _, _, err := Interval(c.k, c.n); err == nil {
			t.Errorf("Interval(%d, %d): no error", c.k, c.n)
		}
	}
}

func TestRunsToDetect(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want int
	}{{0.01, 299}, {0.001, 2995}, {0.5, 5}, {0.96, 1}} {
		got, err := RunsToDetect(c.rate)
		if err != nil || got != c.want {
			t.Errorf("RunsToDetect(%v) = %d, %v; want %d", c.rate, got, err, c.want)
		}
		// The definition: got runs see the flake with probability >= 95%, got-1 do not.
		if miss := math.Pow(1-c.rate, float64(got)); miss > 0.05 {
			t.Errorf("RunsToDetect(%v) = %d misses with probability %v", c.rate, got, miss)
		}
		if miss := math.Pow(1-c.rate, float64(got-1)); got > 1 && miss <= 0.05 {
			t.Errorf("RunsToDetect(%v) = %d, but %d runs already suffice", c.rate, got, got-1)
		}
	}
	for _, bad := range []float64{0, -0.1, 1, math.NaN(), math.Inf(1), 1e-12} {
		if _, err := RunsToDetect(bad); err == nil {
			t.Errorf("RunsToDetect(%v): no error", bad)
		}
	}
	// DetectableRate inverts it: 0.6% after 500 runs.
	if got := DetectableRate(500); math.Abs(got-0.0059736) > 1e-6 {
		t.Errorf("DetectableRate(500) = %v, want 0.0059736", got)
	}
	if n, _ := RunsToDetect(DetectableRate(500) * 1.0001); n != 500 {
		t.Errorf("RunsToDetect(DetectableRate(500)) = %d, want 500", n)
	}
}

func TestTailProb(t *testing.T) {
	for _, c := range []struct {
		k, n int
		p    float64
	}{{3, 500, 2e-9}, {1, 500, 0.01}, {26, 500, 0.05}, {40, 100, 0.5}} {
		want := binomTail(c.k, c.n, c.p)
		if got := TailProb(c.k, c.n, c.p); math.Abs(got-want) > 1e-9*want+1e-300 {
			t.Errorf("TailProb(%d, %d, %v) = %v, want %v", c.k, c.n, c.p, got, want)
		}
	}
	// Edges.
	if TailProb(0, 10, 0.1) != 1 || TailProb(11, 10, 0.1) != 0 || TailProb(1, 10, 0) != 0 || TailProb(1, 10, 1) != 1 {
		t.Error("TailProb edge cases are wrong")
	}
}

func TestAllowedRate(t *testing.T) {
	if got := AllowedRate([]float64{1e-9, 1e-9}); math.Abs(got-(2e-9-1e-18)) > 1e-24 { // exactly 1-(1-1e-9)^2
		t.Errorf("AllowedRate(1e-9, 1e-9) = %v, want 1.999999999e-9", got)
	}
	if got := AllowedRate([]float64{0.5, 0.5}); math.Abs(got-0.75) > 1e-15 {
		t.Errorf("AllowedRate(0.5, 0.5) = %v, want 0.75", got)
	}
	if got := AllowedRate(nil); got != 0 {
		t.Errorf("AllowedRate(nil) = %v, want 0", got)
	}
}

func ExampleInterval() {
	lo, hi, _ := Interval(3, 500)
	fmt.Printf("3 failures in 500 runs: %s, 95%% interval [%s, %s]\n", FormatRate(3.0/500), FormatRate(lo), FormatRate(hi))
	_, hi, _ = Interval(0, 500)
	fmt.Printf("no failure in 500 runs: at most %s\n", FormatRate(hi))
	// Output:
	// 3 failures in 500 runs: 0.60%, 95% interval [0.12%, 1.74%]
	// no failure in 500 runs: at most 0.74%
}

func ExampleRunsToDetect() {
	n, _ := RunsToDetect(0.01)
	fmt.Printf("a 1%% flake shows up at least once in %d runs, with 95%% probability\n", n)
	// Output:
	// a 1% flake shows up at least once in 299 runs, with 95% probability
}

// TestFisherPublished checks Fisher's exact test against published values: the lady tasting
// tea (Fisher 1935: 3 of 4 cups right each way; R's fisher.test gives 0.4857 two-sided and
// 0.2429 one-sided) and the dieting table on Wikipedia's page on the test (1 of 12 men and 9
// of 12 women dieting: 0.001346 one-sided, 0.002759 two-sided).
func TestFisherPublished(t *testing.T) {
	for _, c := range []struct {
		x1, n1, x2, n2  int
		greater, twoSid float64
	}{
		{3, 4, 1, 4, 0.2429, 0.4857},
		{9, 12, 1, 12, 0.001346, 0.002759},
	} {
		g, err1 := FisherGreater(c.x1, c.n1, c.x2, c.n2)
		two, err2 := FisherTwoSided(c.x1, c.n1, c.x2, c.n2)
		if err1 != nil || err2 != nil || math.Abs(g-c.greater) > 5e-5*math.Max(1, c.greater*100) || math.Abs(two-c.twoSid) > 5e-5*math.Max(1, c.twoSid*100) {
			t.Errorf("Fisher(%d/%d vs %d/%d) = %.6g one-sided, %.6g two-sided (%v, %v); want %v, %v",
				c.x1, c.n1, c.x2, c.n2, g, two, err1, err2, c.greater, c.twoSid)
		}
	}
}

// TestFisherAgainstBinomial: with a second sample so large that it fixes the rate, Fisher's
// one-sided test becomes the binomial tail at that rate (the replay verdict relies on it).
func TestFisherAgainstBinomial(t *testing.T) {
	got, _ := FisherGreater(10, 12, 550_000, 1_000_000)
	want := binomTail(10, 12, 0.55)
	if math.Abs(got-want) > 1e-3*want {
		t.Errorf("FisherGreater(10/12 vs 55%% of 1e6) = %v, want the binomial tail %v", got, want)
	}
}

// TestFisherProperties: p-values lie in [0, 1], the one-sided p-value falls as the first
// sample fails more, and the two-sided one is symmetric in the samples.
func TestFisherProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n1 := rapid.IntRange(1, 300).Draw(t, "n1")
		n2 := rapid.IntRange(1, 300).Draw(t, "n2")
		x1 := rapid.IntRange(0, n1).Draw(t, "x1")
		x2 := rapid.IntRange(0, n2).Draw(t, "x2")
		g, _ := FisherGreater(x1, n1, x2, n2)
		two, _ := FisherTwoSided(x1, n1, x2, n2)
		swapped, _ := FisherTwoSided(x2, n2, x1, n1)
		if g < 0 || g > 1 || two < 0 || two > 1 || math.Abs(two-swapped) > 1e-9 {
			t.Fatalf("Fisher(%d/%d, %d/%d): one-sided %v, two-sided %v, swapped %v", x1, n1, x2, n2, g, two, swapped)
		}
		if x1 < n1 {
			if g2, _ := FisherGreater(x1+1, n1, x2, n2); g2 > g+1e-12 {
				t.Fatalf("FisherGreater rises from %v to %v with one more failure in the first sample", g, g2)
			}
		}
	})
}

// TestDiffIntervalPublished checks the difference interval against Newcombe (1998),
// Statistics in Medicine 17:873, table II, method 10.
func TestDiffIntervalPublished(t *testing.T) {
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
		lo, hi, err := DiffInterval(c.x1, c.n1, c.x2, c.n2)
		if err != nil || math.Abs(lo-c.lo) > 6e-5 || math.Abs(hi-c.hi) > 6e-5 {
			t.Errorf("DiffInterval(%d/%d - %d/%d) = [%.4f, %.4f] (%v), want [%.4f, %.4f]", c.x1, c.n1, c.x2, c.n2, lo, hi, err, c.lo, c.hi)
		}
	}
}

func TestTwoSampleBadInput(t *testing.T) {
	for _, c := range [][4]int{{0, 0, 0, 1}, {-1, 5, 0, 5}, {6, 5, 0, 5}, {0, 5, 0, -1}} {
		if _, err := FisherGreater(c[0], c[1], c[2], c[3]); err == nil {
			t.Errorf("FisherGreater(%v): no error", c)
		}
		if _, err := FisherTwoSided(c[0], c[1], c[2], c[3]); err == nil {
			t.Errorf("FisherTwoSided(%v): no error", c)
		}
		if _, _, err := DiffInterval(c[0], c[1], c[2], c[3]); err == nil {
			t.Errorf("DiffInterval(%v): no error", c)
		}
	}
}
