package spread

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/sizing"
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
	// storyMisses reports whether the story's fixed test lets this variant of the spec through.
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

// storyFixedTest is the seed story's fixed test: every value inside [lo, hi), at least half of
// the values distinct, and the mean within 5% of the base of its expected value.
func storyFixedTest(xs []time.Duration, s jitterSpec) bool {
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
// broken variant of every spec on every seed, and passes the correct jitter; it logs the story's
// fixed test side by side.
func TestPowerAtOneThousand(t *testing.T) {
	const n, seeds = 1000, 20
	var table strings.Builder
	table.WriteString("| spec | variant | story's fixed test | spread.Check |\n|---|---|---|---|\n")
	for _, s := range specs {
		for _, b := range append([]brokenJitter{{"correct", func(s jitterSpec) func(*rand.Rand) time.Duration {
			return uniformIn(s.lo, s.hi)
		}}}, broken...) {
			storyRejects, checkRejects := 0, 0
			for seed := range uint64(seeds) {
				xs := draws(seed, n, b.make(s))
				r, err := Analyze(xs, Uniform(s.lo, s.hi))
				if err != nil {
					t.Fatal(err)
				}
				if r.Failed() {
					checkRejects++
				}
				if !storyFixedTest(xs, s) {
					storyRejects++
				}
				if r.Failed() != (b.name != "correct") {
					t.Errorf("%s, %s, seed %d: Failed() = %v\n%s", s.name, b.name, seed, r.Failed(), r)
				}
			}
			fmt.Fprintf(&table, "| %s | %s | %s | %s |\n", s.name, b.name, verdict(storyRejects, seeds), verdict(checkRejects, seeds))
		}
	}
	t.Logf("rejections over %d seeds at n = %d:\n%s", seeds, n, table.String())
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
// seeds, and sets it beside the optimal (likelihood-ratio) test's n for the collapses.
func TestPowerTable(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	share, _ := sizing.Sidak(DefaultFalseFailureRate, 5)
	s := specs[0]
	checks := []string{CheckBounds, CheckDistinct, CheckMean, CheckCoverage, CheckFit, CheckIndependence}
	var table strings.Builder
	table.WriteString("| variant (full jitter) | " + strings.Join(checks, " | ") + " | battery | optimal |\n|---" + strings.Repeat("|---", len(checks)+2) + "|\n")
	optimal := map[string]int{"range halved": mustOptimal(2), "range halved around the centre": mustOptimal(2), "range /10 around the centre (+-2.5% as +-25%)": mustOptimal(10)}
	minN := batteryMinN(t)
	for _, b := range broken {
		row := []string{b.name}
		best := 0
		for _, c := range checks {
			n := smallestRejectingN(s, b, c, share)
			row = append(row, nText(n))
			if n > 0 && (best == 0 || n < best) {
				best = n
			}
		}
		battery := max(best, minN)
		row = append(row, nText(battery))
		opt := "-"
		if o, ok := optimal[b.name]; ok {
			opt = fmt.Sprint(o)
			if float64(best) > 1.5*float64(o) {
				t.Errorf("%s: the best check needs n = %d, more than 1.5x the optimal %d", b.name, best, o)
			}
		}
		row = append(row, opt)
		table.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	t.Logf("smallest n at which each check rejects on all 50 seeds (battery: at least n = %d, the smallest n at which every check can be sized at 1e-9):\n%s", minN, table.String())
}

func mustOptimal(c float64) int {
	n, _ := sizing.CollapseOptimalN(c, DefaultFalseFailureRate)
	return n
}

func nText(n int) string {
	if n == 0 {
		return "never"
	}
	return fmt.Sprint(n)
}

// smallestRejectingN scans n upward for the first n at which the check rejects the variant on
// all 50 seeds; 0 means not up to 4096.
func smallestRejectingN(s jitterSpec, b brokenJitter, check string, alpha float64) int {
	rejectsAll := func(n int) bool {
		for seed := range uint64(50) {
			xs := draws(seed, n, b.make(s))
			r, err := Analyze(xs, Uniform(s.lo, s.hi), Only(check), FalseFailureRate(alpha))
			if err != nil || !r.Failed() {
				return false
			}
		}
		return true
	}
	for n := 2; n <= 4096; n = next(n) {
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
