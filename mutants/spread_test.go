package mutants_test

import (
	"flag"
	"fmt"
	"math"
	randv1 "math/rand"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/spreadcheck/spreadcheck/mutants"
	"github.com/spreadcheck/spreadcheck/spread"
)

// correctJitter returns a correct jitter for spec: every nanosecond of the range equally
// likely, from a fixed seed.
func correctJitter(spec mutants.Spec, seed uint64) mutants.Jitter {
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, 1))
	return func(base time.Duration) time.Duration {
		lo, hi, err := spec.Range(base)
		if err != nil {
			panic(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return lo + time.Duration(r.Int64N(int64(hi-lo)))
	}
}

// spreadSuite is the suite a user writes with package spread: 1,000 draws at one base,
// checked against the declared range by the default battery at the default alpha.
func spreadSuite(spec mutants.Spec, base time.Duration) func(testing.TB, mutants.Jitter) {
	return func(t testing.TB, j mutants.Jitter) {
		lo, hi, err := spec.Range(base)
		if err != nil {
			t.Fatal(err)
		}
		spread.Check(t, spread.Draw(1000, func() time.Duration { return j(base) }), spread.Uniform(lo, hi))
	}
}

// fixRapidSeed makes rapid draw the same cases on every run unless -rapid.seed (or
// RAPID_SEED) asks for others.
func fixRapidSeed(t *testing.T, seed string) {
	f := flag.Lookup("rapid.seed")
	if f.Value.String() != "0" {
		return
	}
	if err := flag.Set("rapid.seed", seed); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("rapid.seed", "0") })
}

// TestSpreadRejectsEveryClass is the property of issue 3: for random bases from 1ns to 1h
// and random specs (full, equal, +-p with p in [0.01, 1]), a spread.Check suite at the
// default alpha passes the correct jitter and rejects all four classes with n = 1,000,
// except a mutant that is equivalent to the correct jitter at that base (a range of one or
// two nanoseconds), which no suite can reject.
func TestSpreadRejectsEveryClass(t *testing.T) {
	fixRapidSeed(t, "20261129")
	rapid.Check(t, func(rt *rapid.T) {
		logBase := rapid.Float64Range(0, math.Log(float64(time.Hour))).Draw(rt, "log(base)")
		base := time.Duration(math.Round(math.Exp(logBase)))
		var spec mutants.Spec
		switch rapid.IntRange(0, 2).Draw(rt, "kind") {
		case 0:
			spec = mutants.Full()
		case 1:
			spec = mutants.Equal()
		default:
			spec = mutants.Percent(rapid.Float64Range(0.01, 1).Draw(rt, "p"))
		}
		seed := rapid.Uint64().Draw(rt, "seed")
		rep, err := mutants.Run(nil, correctJitter(spec, seed), spec, spreadSuite(spec, base), mutants.WithSeed(seed))
		if err != nil {
			rt.Fatal(err)
		}
		if rep.Correct.Failed {
			rt.Fatalf("%v at base %v: the correct jitter failed:\n%s", spec, base, rep)
		}
		for _, o := range rep.Mutants {
			if !o.Failed && !o.Equivalent {
				rt.Fatalf("%v at base %v: %s survived:\n%s", spec, base, o.Name, rep)
			}
		}
	})
}

// TestSpreadAtTinyBases walks the smallest bases, where the range holds a few nanoseconds:
// every mutant is either rejected or equivalent to the correct jitter, and equivalence
// happens only where the range holds at most two values.
func TestSpreadAtTinyBases(t *testing.T) {
	for _, spec := range []mutants.Spec{mutants.Full(), mutants.Equal(), mutants.Percent(0.25), mutants.Percent(0.01)} {
		for base := time.Duration(1); base <= 64; base++ {
			rep, err := mutants.Run(t, correctJitter(spec, uint64(base)), spec, spreadSuite(spec, base))
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, err := spec.Range(base)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Correct.Failed {
				t.Errorf("%v at %v: correct jitter failed:\n%s", spec, base, rep)
			}
			for _, o := range rep.Mutants {
				switch {
				case !o.Failed && !o.Equivalent:
					t.Errorf("%v at %v: %s survived:\n%s", spec, base, o.Name, rep)
				case o.Equivalent && hi-lo > 2:
					t.Errorf("%v at %v: %s is equivalent over [%v, %v)", spec, base, o.Name, lo, hi)
				}
			}
		}
	}
}

// Example_spreadCheck proves that a suite written with spread.Check rejects every mutant
// of full jitter. In a test, write mutants.Verify(t, jitter, mutants.Full(), suite).
func Example_spreadCheck() {
	suite := func(t testing.TB, jitter mutants.Jitter) {
		base := time.Second
		xs := spread.Draw(1000, func() time.Duration { return jitter(base) })
		spread.Check(t, xs, spread.Uniform(0, base))
	}
	fullJitter := func(base time.Duration) time.Duration { return rand.N(base) }
	report, err := mutants.Run(nil, fullJitter, mutants.Full(), suite)
	if err != nil {
		panic(err)
	}
	fmt.Println(report)
	// Output:
	// mutants: the suite passes the correct full [0, base) jitter and rejects all 5 mutants
	//   jitter                verdict   first failure
	//   correct               passed
	//   constant              rejected  distinct: 1 distinct value, 999 repeats; want fewer than 3 repeats
	//   sign-flip             rejected  bounds: min -996.772514ms, max -1.738594ms: 1000 of 1000 values outside (1000 below); want every ...
	//   clock-derived/coarse  rejected  distinct: 1 distinct value, 999 repeats; want fewer than 3 repeats
	//   clock-derived/fine    rejected  independence/ascents: 788 ascents in 999 steps (expected 499.5); want between 440 and 559
	//   collapsed-range       rejected  mean: mean 242.5ms, off the expected 500ms by 257.5ms (28.2 standard errors); want off by less th...
}

// TestSpreadSeesBrokenSources draws from a *rand.Rand over each broken source, of
// math/rand/v2 and of math/rand, through Float64, IntN and Int64N (Float64, Intn and
// Int63n), and checks that spread's battery rejects every sample while passing the same
// draws from a healthy source.
func TestSpreadSeesBrokenSources(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 123456789, time.UTC)
	coarse, _ := mutants.ClockSource(func() time.Time { return start }) // too coarse to move
	var reads time.Duration
	fine, _ := mutants.ClockSource(func() time.Time { reads++; return start.Add((reads - 1) * 211324865) })
	collapsed, _ := mutants.CollapsedSource(rand.NewPCG(5, 6), 0.5)
	sources := []struct {
		name   string
		src    rand.Source
		src1   randv1.Source
		broken bool
	}{
		{"healthy", rand.NewPCG(5, 6), randv1.NewSource(5), false},
		{"constant", new(mutants.Source), new(mutants.Source), true},
		{"clock, coarse", coarse, coarse, true},
		{"clock, fine", fine, fine, true},
		{"collapsed", collapsed, collapsed, true},
	}
	for _, s := range sources {
		r, r1 := rand.New(s.src), randv1.New(s.src1)
		for _, c := range []struct {
			method string
			failed func() (bool, error)
		}{
			{"Float64", floats(r.Float64)},
			{"IntN(1000)", ints(func() int { return r.IntN(1000) })},
			{"Int64N(1s)", durations(func() int64 { return r.Int64N(int64(time.Second)) })},
			{"v1 Float64", floats(r1.Float64)},
			{"v1 Intn(1000)", ints(func() int { return r1.Intn(1000) })},
			{"v1 Int63n(1s)", durations(func() int64 { return r1.Int63n(int64(time.Second)) })},
		} {
			failed, err := c.failed()
			if err != nil {
				t.Fatal(err)
			}
			if failed != s.broken {
				t.Errorf("%s source, %s: spread failed the sample: %v, want %v", s.name, c.method, failed, s.broken)
			}
		}
	}
}

func floats(f func() float64) func() (bool, error) {
	return func() (bool, error) {
		rep, err := spread.Analyze(spread.Draw(1000, f), spread.Uniform(0.0, 1.0))
		return rep.Failed(), err
	}
}

func ints(f func() int) func() (bool, error) {
	return func() (bool, error) {
		rep, err := spread.Analyze(spread.Draw(1000, f), spread.Uniform(0, 1000))
		return rep.Failed(), err
	}
}

func durations(f func() int64) func() (bool, error) {
	return func() (bool, error) {
		d := func() time.Duration { return time.Duration(f()) }
		rep, err := spread.Analyze(spread.Draw(1000, d), spread.Uniform(0, time.Second))
		return rep.Failed(), err
	}
}

// ExampleCollapsedSource shows a healthy generator collapsed: every method of the
// *rand.Rand that reads it stays in the lower half of its range.
func ExampleCollapsedSource() {
	src, err := mutants.CollapsedSource(rand.NewPCG(1, 2), 0.5)
	if err != nil {
		panic(err)
	}
	r := rand.New(src)
	var top float64
	var topN int64
	for range 10000 {
		top = max(top, r.Float64())
		topN = max(topN, r.Int64N(1000))
	}
	fmt.Printf("Float64 below 0.5: %v, max Int64N(1000) %d\n", top < 0.5, topN)
	// Output: Float64 below 0.5: true, max Int64N(1000) 499
}

// A Source serves math/rand (v1) as well: code that still takes a v1 *rand.Rand gets the
// same broken numbers, through Int63n's modulo reduction too.
func ExampleSource_mathRandV1() {
	src, err := mutants.CollapsedSource(rand.NewPCG(1, 2), 0.5)
	if err != nil {
		panic(err)
	}
	r := randv1.New(src) // math/rand's New: src is a rand.Source64
	var top float64
	var topN, topIntn int64
	for range 10000 {
		top = max(top, r.Float64())
		topN = max(topN, r.Int63n(1000))
		topIntn = max(topIntn, int64(r.Intn(1000)))
	}
	fmt.Printf("Float64 below 0.5: %v, max Int63n(1000) %d, max Intn(1000) %d\n", top < 0.5, topN, topIntn)
	constant := randv1.New(new(mutants.Source))
	fmt.Println("constant:", constant.Int63n(1000), constant.Intn(6), constant.Float64())
	// Output:
	// Float64 below 0.5: true, max Int63n(1000) 499, max Intn(1000) 499
	// constant: 500 3 0.5
}
