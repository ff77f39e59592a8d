package spread

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// A jitterSpec is a correct jitter's range and anchor at base = 1s, in nanoseconds.
type jitterSpec struct {
	name           string
	lo, hi, anchor time.Duration
}

var specs = []jitterSpec{
	{"full [0, b)", 0, base, 0},
	{"equal [b/2, b)", base / 2, base, base / 2},
	{"+-25% [0.75b, 1.25b)", base * 3 / 4, base * 5 / 4, base},
}

// A brokenJitter makes one broken variant of a spec: f(r) draws a value.
type brokenJitter struct {
	name string
	make func(s jitterSpec) func(r *rand.Rand) time.Duration
}

func uniformIn(lo, hi time.Duration) func(r *rand.Rand) time.Duration {
	return func(r *rand.Rand) time.Duration { return lo + time.Duration(r.Int64N(int64(hi-lo))) }
}

// clockJitter reads the value from a clock that advances step per call: lo + now mod width.
func clockJitter(s jitterSpec, step time.Duration) func(*rand.Rand) time.Duration {
	now := time.Duration(0)
	return func(*rand.Rand) time.Duration {
		now += step
		return s.lo + now%(s.hi-s.lo)
	}
}

var broken = []brokenJitter{
	{"constant", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return func(*rand.Rand) time.Duration { return (s.lo + s.hi) / 2 }
	}},
	{"sign-flip (one-sided)", func(s jitterSpec) func(*rand.Rand) time.Duration {
		good := uniformIn(s.lo, s.hi)
		return func(r *rand.Rand) time.Duration { return s.anchor - (good(r) - s.anchor).Abs() }
	}},
	{"coarse clock", func(s jitterSpec) func(*rand.Rand) time.Duration { return clockJitter(s, 0) }},
	{"fine clock (step 0.2113 w)", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return clockJitter(s, (s.hi-s.lo)*2113/10000)
	}},
	{"fine clock (step 50ns)", func(s jitterSpec) func(*rand.Rand) time.Duration { return clockJitter(s, 50) }},
	{"fine clock (step 0.5 w + 123us)", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return clockJitter(s, (s.hi-s.lo)/2+123*time.Microsecond)
	}},
	{"range halved", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return uniformIn(s.lo, s.lo+(s.hi-s.lo)/2)
	}},
	{"range halved around the centre", func(s jitterSpec) func(*rand.Rand) time.Duration {
		mid, w := (s.lo+s.hi)/2, (s.hi-s.lo)/2
		return uniformIn(mid-w/2, mid+w/2)
	}},
	{"range /10 around the centre (+-2.5% as +-25%)", func(s jitterSpec) func(*rand.Rand) time.Duration {
		mid, w := (s.lo+s.hi)/2, (s.hi-s.lo)/10
		return uniformIn(mid-w/2, mid+w/2)
	}},
}

// harder lists broken generators that keep the range and the mean, measured in the power
// table against the likelihood-ratio test (full jitter over [0, 1s)).
var harder = []brokenJitter{
	{"AR(1) rho 0.3, uniform marginal", func(s jitterSpec) func(*rand.Rand) time.Duration {
		z := 0.0
		return func(r *rand.Rand) time.Duration {
			z = 0.3*z + math.Sqrt(1-0.09)*r.NormFloat64()
			return at(s, 0.5*math.Erfc(-z/math.Sqrt2))
		}
	}},
	{"ends overweighted (10% in each 5% end)", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return func(r *rand.Rand) time.Duration {
			u, c := r.Float64(), r.Float64()
			switch {
			case c < 0.8:
				u = 0.05 + 0.9*u
			case c < 0.9:
				u *= 0.05
			default:
				u = 0.95 + 0.05*u
			}
			return at(s, u)
		}
	}},
	{"a stuck middle bit of the source (64 stripes)", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return func(r *rand.Rand) time.Duration {
			k := r.Uint64() >> 11 &^ (1 << 46) // the 7th bit of the 53 cleared
			return at(s, float64(k)/(1<<53))
		}
	}},
	{"a 16-bit generator", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return func(r *rand.Rand) time.Duration { return at(s, float64(r.Uint64()>>48)/(1<<16)) }
	}},
}

// at returns the value at position u in [0, 1) of a spec's range.
func at(s jitterSpec, u float64) time.Duration {
	return s.lo + time.Duration(u*float64(s.hi-s.lo))
}

// fixedTest is the test a team wrote after a constant "jitter" shipped: every value inside
// [lo, hi), at least half of the values distinct, and the mean within 5% of the base of its
// expected value. Its tolerances are typed in, not sized.
func fixedTest(xs []time.Duration, s jitterSpec) bool {
	seen := map[time.Duration]bool{}
	var sum float64
	for _, x := range xs {
		if x < s.lo || x >= s.hi {
			return false
		}
		seen[x] = true
		sum += float64(x)
	}
	mean := sum / float64(len(xs))
	return len(seen)*2 >= len(xs) && abs(mean-float64(s.lo+s.hi)/2) <= 0.05*float64(base)
}

func abs(x float64) float64 { return max(x, -x) }

// TestPowerAtOneThousand pins that Check, at the default rate and n = 1,000, rejects every
// broken variant of every spec on every seed, and passes the correct jitter; it writes the
// typed-in test beside it, in testdata/power-1000.md (go test -update rewrites it).
func TestPowerAtOneThousand(t *testing.T) {
	const n, seeds = 1000, 20
	var table strings.Builder
	table.WriteString("| variant (full [0, b) / equal [b/2, b) / +-25%) | typed-in test | spread.Check |\n|---|---|---|\n")
	for _, b := range append([]brokenJitter{{"correct", func(s jitterSpec) func(*rand.Rand) time.Duration {
		return uniformIn(s.lo, s.hi)
	}}}, broken...) {
		var fixed, check []string
		for _, s := range specs {
			fixedRejects, checkRejects := 0, 0
			for seed := range uint64(seeds) {
				xs := draws(seed, n, b.make(s))
				r, err := Analyze(xs, Uniform(s.lo, s.hi))
				if err != nil {
					t.Fatal(err)
				}
				if r.Failed() {
					checkRejects++
				}
				if !fixedTest(xs, s) {
					fixedRejects++
				}
				if r.Failed() != (b.name != "correct") {
					t.Errorf("%s, %s, seed %d: Failed() = %v\n%s", s.name, b.name, seed, r.Failed(), r)
				}
			}
			fixed, check = append(fixed, verdict(fixedRejects, seeds)), append(check, verdict(checkRejects, seeds))
		}
		fmt.Fprintf(&table, "| %s | %s | %s |\n", b.name, verdicts(fixed, b.name != "correct"), verdicts(check, b.name != "correct"))
	}
	golden.Check(t, filepath.Join("testdata", "power-1000.md"), table.String())
}

// verdicts prints the verdicts on the three specs, or one word when they agree; a broken
// variant that passes is set in bold.
func verdicts(vs []string, broken bool) string {
	for _, v := range vs {
		if v != vs[0] {
			return strings.Join(vs, " / ")
		}
	}
	if broken && vs[0] == "passes" {
		return "**passes**"
	}
	return vs[0]
}

func verdict(rejected, of int) string {
	switch rejected {
	case of:
		return "rejects"
	case 0:
		return "passes"
	}
	return fmt.Sprintf("rejects %d/%d", rejected, of)
}

// TestPowerTable finds, for each broken variant of full jitter and each check, the smallest n
// at which the check (at its share of the battery's 1e-9) rejects the variant on every one of 50
// seeds, and sets it beside the optimal (likelihood-ratio) test's n for the collapses. It writes
// testdata/power-table.md, and testdata/power-goals.md, issue 10's goal for its four harder
// rows, met or not. A long validation: SPREADCHECK_LONG=1.
func TestPowerTable(t *testing.T) {
	longtest.Skip(t)
	share, _ := sizing.Bonferroni(defaultFalseFailureRate, len(battery)-1) // every check but bounds
	s := specs[0]
	var table strings.Builder
	table.WriteString("| variant (full jitter) | " + batteryHeader() + " | battery | optimal |\n|---" + strings.Repeat("|---", len(battery)+2) + "|\n")
	// The likelihood-ratio test's n: for a collapse by c, ceil(ln(1/alpha)/ln c); for a stuck
	// bit, the values in half the range's stripes, 2^-n; for 2^16 levels of 10^9, (2^16/10^9)^n;
	// for the heavy ends, the likelihood-ratio test run on the same 50 seeds (endsLRT); for the
	// AR(1), the n measured for issue 10.
	optimal := map[string]int{
		"range halved": mustOptimal(2), "range halved around the centre": mustOptimal(2),
		"range /10 around the centre (+-2.5% as +-25%)": mustOptimal(10),
		harder[0].name: 743, harder[1].name: smallestRejecting(s, harder[1], endsLRT), harder[2].name: mustOptimal(2),
		harder[3].name: mustOptimal(1e9 / (1 << 16)),
	}
	minN := batteryMinN(t)
	var goals strings.Builder
	goals.WriteString("| broken generator (issue 10) | best check: n | battery: n | optimal n | best / optimal | goal: within 3x |\n|---|---|--:|--:|--:|---|\n")
	for _, b := range append(slices.Clone(broken), harder...) {
		row := []string{b.name}
		best, bestCheck := 0, SampleCheck("")
		for _, c := range battery {
			n := smallestRejectingN(s, b, c, share)
			row = append(row, nText(n))
			if n > 0 && (best == 0 || n < best) {
				best, bestCheck = n, c
			}
		}
		row = append(row, nText(max(best, minN)))
		opt := "-"
		if o, ok := optimal[b.name]; ok {
			opt = fmt.Sprint(o)
			goal := 1.5 // the collapses; issue 10's goal for the harder rows: 3x
			if slices.ContainsFunc(harder, func(h brokenJitter) bool { return h.name == b.name }) {
				goal = 3
			}
			if float64(best) > goal*float64(o) {
				t.Errorf("%s: the best check needs n = %d, more than %gx the optimal %d", b.name, best, goal, o)
			}
			if goal == 3 {
				met := "met"
				if float64(best) > 3*float64(o) {
					met = "**not met**"
				}
				fmt.Fprintf(&goals, "| %s | %s: %d | %d | %d | %.2f | %s |\n", b.name, bestCheck, best, max(best, minN), o, float64(best)/float64(o), met)
			}
		}
		row = append(row, opt)
		table.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	golden.Check(t, filepath.Join("testdata", "power-table.md"), table.String())
	golden.Check(t, filepath.Join("testdata", "power-goals.md"), goals.String())
}

func batteryHeader() string {
	names := make([]string, len(battery))
	for i, c := range battery {
		names[i] = string(c)
	}
	return strings.Join(names, " | ")
}

func mustOptimal(c float64) int {
	n, _ := sizing.CollapseOptimalN(c, defaultFalseFailureRate)
	return n
}

func nText(n int) string {
	if n == 0 {
		return "never"
	}
	return fmt.Sprint(n)
}

// smallestRejectingN scans n upward for the first n at which the check rejects the variant on
// all 50 seeds; 0 means not up to 8192.
func smallestRejectingN(s jitterSpec, b brokenJitter, check SampleCheck, alpha float64) int {
	return smallestRejecting(s, b, func(xs []time.Duration) bool {
		r, err := Analyze(xs, Uniform(s.lo, s.hi), Only(check), FalseFailureRate(alpha))
		return err == nil && r.Failed()
	})
}

// endsLRT is the likelihood-ratio test of the heavy ends against full jitter over [0, 1s), at
// the battery's rate: the likelihood ratio of a sample is 2^K (8/9)^(n-K), K the values in the
// two 5% ends, which rises with K, so the most powerful test (Neyman-Pearson) rejects when K
// reaches the smallest k with P(Binomial(n, 0.1) >= k) <= 1e-9, exactly (gonum's binomial).
func endsLRT(xs []time.Duration) bool {
	k := 0
	for _, x := range xs {
		if x < 50*time.Millisecond || x >= 950*time.Millisecond {
			k++
		}
	}
	return distuv.Binomial{N: float64(len(xs)), P: 0.1}.Survival(float64(k)-0.5) <= defaultFalseFailureRate
}

// smallestRejecting scans n upward for the first n at which rejects holds on the variant's
// samples from all 50 seeds; 0 means not up to 8192.
func smallestRejecting(s jitterSpec, b brokenJitter, rejects func([]time.Duration) bool) int {
	rejectsAll := func(n int) bool {
		for seed := range uint64(50) {
			if !rejects(draws(seed, n, b.make(s))) {
				return false
			}
		}
		return true
	}
	for n := 2; n <= 8192; n = next(n) {
		if rejectsAll(n) {
			lo := prev(n)
			for m := lo + 1; m < n; m++ {
				if rejectsAll(m) {
					return m
				}
			}
			return n
		}
	}
	return 0
}

func next(n int) int { return n + max(1, n/8) }
func prev(n int) int {
	p := 2
	for next(p) < n {
		p = next(p)
	}
	return p
}

// batteryMinN is the smallest n at which Analyze can size every check at the default rate.
func batteryMinN(t *testing.T) int {
	for n := 2; n < 1000; n++ {
		xs := draws(1, n, uniformIn(0, base))
		if _, err := Analyze(xs, Uniform(0, base)); err == nil {
			return n
		}
	}
	t.Fatal("the battery cannot be sized below n = 1000")
	return 0
}

// TestEndsLRT checks the likelihood-ratio test the power table measures the heavy ends
// against: it passes correct full jitter and rejects the heavy ends at n = 1,200 on every seed,
// and its limit at n = 800 is 136 values in the ends (P(Binomial(800, 0.1) >= 136) = 8.2e-10;
// at 135 the tail is above 1e-9).
func TestEndsLRT(t *testing.T) {
	correct := uniformIn(0, time.Second)
	for seed := range uint64(50) {
		if endsLRT(draws(seed, 1200, correct)) || !endsLRT(draws(seed, 1200, harder[1].make(specs[0]))) {
			t.Fatalf("seed %d: the likelihood-ratio test errs", seed)
		}
	}
	ends := func(k int) []time.Duration {
		xs := make([]time.Duration, 800)
		for i := range xs {
			xs[i] = 500 * time.Millisecond
			if i < k {
				xs[i] = time.Millisecond
			}
		}
		return xs
	}
	if endsLRT(ends(135)) || !endsLRT(ends(136)) {
		t.Errorf("n = 800: the limit is not 136 values in the ends")
	}
}
