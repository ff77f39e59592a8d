package spread

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The jitters of real retry libraries that no Uniform declares: a cap that becomes a point
// mass, a truncation toward zero, a handful of values from a percent formula.
var (
	limit  = 600 * time.Millisecond
	capped = func(r *rand.Rand) time.Duration { // full jitter over [0, 1s), capped: 40% at the cap
		return min(limit, time.Duration(r.Int64N(int64(time.Second))))
	}
	truncated = func(r *rand.Rand) time.Duration { // +-25% of 10ns, truncated: 0 twice as likely
		return time.Duration(float64(10) * 0.25 * (2*r.Float64() - 1))
	}
	percent = func(r *rand.Rand) int64 { // base 7 spread by a whole percent in [-30, 30]
		return 700 * (100 + int64(r.IntN(61)) - 30) / 10000
	}
)

// TestLikePassesCorrectSamples: the same formula, drawn from another generator, passes.
func TestLikePassesCorrectSamples(t *testing.T) {
	passesAll(t, "capped", 20, 1000, capped, Like(capped))
	passesAll(t, "truncated", 20, 1000, truncated, Like(truncated))
	passesAll(t, "percent", 20, 1000, percent, Like(percent))
	passesAll(t, "floats", 20, 1000, func(r *rand.Rand) float64 { return math.Exp(r.NormFloat64()) },
		Like(func(r *rand.Rand) float64 { return math.Exp(r.NormFloat64()) }))
}

// TestLikeRejectsAnotherFormula: the cap left out, a collapse, a constant, a clock: each fails,
// and the report says which side has what the other lacks.
func TestLikeRejectsAnotherFormula(t *testing.T) {
	var now time.Duration
	for _, c := range []struct {
		name string
		draw func(r *rand.Rand) time.Duration
		want []string // statistics that must fail
		text string
	}{
		{"the cap left out", func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(time.Second))) },
			[]string{"coverage/max", "fit/ks"}, "values above the sample's max"},
		{"a collapse to half", func(r *rand.Rand) time.Duration { return capped(r) / 2 },
			[]string{"coverage/max", "fit/ks"}, "the sample holds"},
		{"a constant", func(*rand.Rand) time.Duration { return 300 * time.Millisecond },
			[]string{"coverage/min", "coverage/max", "fit/ks"}, "values below the sample's min"},
		{"a clock", func(*rand.Rand) time.Duration { now += 57 * time.Millisecond; return min(limit, now%time.Second) },
			[]string{"independence/ascents"}, "ascents"},
	} {
		r, err := Analyze(draws(1, 1000, c.draw), Like(capped))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, name := range c.want {
			if !find(r, name).Failed {
				t.Errorf("%s: %s passed\n%s", c.name, name, r)
			}
		}
		if !strings.Contains(r.String(), c.text) {
			t.Errorf("%s: the report does not say %q:\n%s", c.name, c.text, r)
		}
	}
}

// TestLikeReplays: the reference is drawn on a seed taken from the sample, so the same sample
// gets the same verdict and report on every run.
func TestLikeReplays(t *testing.T) {
	xs := draws(3, 500, capped)
	a, _ := Analyze(xs, Like(capped))
	b, _ := Analyze(xs, Like(capped))
	if a.String() != b.String() {
		t.Errorf("the same sample, two reports:\n%s\n%s", a, b)
	}
}

func TestLikeBadReferences(t *testing.T) {
	xs := draws(1, 100, capped)
	for _, c := range []struct {
		name string
		d    Dist[time.Duration]
		want string
	}{
		{"nil", Like[time.Duration](nil), "Like(nil)"},
		{"panics", Like(func(*rand.Rand) time.Duration { panic("boom") }), "panicked: boom"},
	} {
		if _, err := Analyze(xs, c.d); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	if _, err := Analyze([]float64{1, math.NaN()}, Like(func(r *rand.Rand) float64 { return math.NaN() })); err == nil {
		t.Error("a NaN sample against a NaN reference: no error")
	}
}
