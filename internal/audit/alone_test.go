package audit

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/runner"
)

// TestLeakingTestAlone: a test that fails every run of a process but the first (4 of 4 later
// runs of each process of 5, 16 of 20 at baseline) and every run under a mutant is found
// from the baseline; its group runs its baseline again and every mutant's runs a process
// per run, where it fails no baseline run and every mutant run, so the mutants are killed
// (in processes of 5, 20 of 20 against 16 of 20 killed none). The report says so. Another
// group's test in the same audit keeps processes of 5. The mutants' first look, made beside
// the baseline before the leak was known, in processes of 5, counts for nothing: each
// mutant of the group makes it again, a process per run, and reports those runs alone.
func TestLeakingTestAlone(t *testing.T) {
	eng := &fakeEngine{names: []string{"TestLeaks", "TestOther"}, tests: map[string]fakeTest{
		"TestLeaks": {sites: []int{0}, later: true, fails: func(m string, _ []string, _ int) bool { return m != "" }},
		"TestOther": {sites: []int{1}, fails: func(m string, _ []string, _ int) bool { return m != "" }},
	}}
	rep := fakeAudit(t, eng, 2, Config{Options: runner.Options{Batch: 5}})
	baseline, _ := jobShapes(eng.jobs)
	if got, want := baseline["^(TestLeaks)$"], append([]int{5, 5, 5, 5}, ones(20)...); !slices.Equal(got, want) {
		t.Errorf("TestLeaks's baseline processes %v, want %v", got, want)
	}
	if got := baseline["^(TestOther)$"]; !slices.Equal(got, []int{5, 5, 5, 5}) {
		t.Errorf("TestOther's baseline processes %v, want four of 5 runs", got)
	}
	if len(eng.calls) < 3 {
		t.Fatalf("%d calls of the engine, want the trace, the baseline beside the first look, the leaking group's baseline again and its looks", len(eng.calls))
	}
	_, beside := jobShapes(eng.calls[1])
	checkShapes(t, beside, func(string) int { return 5 })
	if len(beside) != 8 {
		t.Errorf("the first look beside the baseline holds processes of %d mutants, want 8", len(beside))
	}
	_, later := jobShapes(slices.Concat(eng.calls[2:]...))
	checkShapes(t, later, func(key string) int {
		if strings.HasSuffix(key, "^(TestLeaks)$") {
			return 1
		}
		t.Errorf("%s: a process after the first look, which killed every mutant of TestOther's site", key)
		return 0
	})
	for _, s := range rep.Sites {
		for _, m := range s.Mutants {
			if m.Verdict != Killed {
				t.Errorf("%s %s: %s, want killed", s.File, m.Class, m.Verdict)
			}
			// Site 1's first look is 5 runs (R/8 rounded up to its process of 5); site 0's,
			// a process per run, 3 runs: 3 of 3 against 0 of 20 is p = 1/C(23, 3) = 5.6e-4,
			// above the level 0.01 / (16 comparisons x 4 looks) = 1.6e-4, and its second, 5 of
			// 5, 1/C(25, 5) = 1.9e-5, under it. Counting the discarded look too would give 10.
			if m.Runs != 5 {
				t.Errorf("%s %s: %d runs, want 5", s.File, m.Class, m.Runs)
			}
		}
	}
	warned := false
	for _, w := range rep.Warnings {
		if strings.Contains(w, "TestLeaks fails in later runs of a test process, not in the first (0 of 4 first runs failed, 16 of 16 later ones") {
			warned = true
		}
		if strings.Contains(w, "TestOther") {
			t.Errorf("TestOther warned of: %s", w)
		}
	}
	if !warned {
		t.Errorf("no warning says that TestLeaks runs a process per run: %q", rep.Warnings)
	}
	for _, b := range rep.Baseline {
		if b.Test == "TestLeaks" && (!b.Alone || b.Failures != 0 || b.Runs != DefaultRuns) {
			t.Errorf("TestLeaks's baseline %+v, want alone, 0 of %d", b, DefaultRuns)
		}
		if b.Test == "TestOther" && b.Alone {
			t.Errorf("TestOther's baseline %+v is alone", b)
		}
	}
}

// TestFlakyNotAlone: tests that fail by chance, whatever their place in the process (here
// runs 2, 3, 7, 11, 13, 17 and 19 of each 20: a rate of 0.35; and runs 1, 2, 3 and 5 of every
// process of 5, the onlyfailing fixture's TestFlaky, which fails its first runs most), are
// not mistaken for tests that leak: their groups keep processes of 5.
func TestFlakyNotAlone(t *testing.T) {
	prime := map[int]bool{2: true, 3: true, 7: true, 11: true, 13: true, 17: true, 19: true}
	eng := &fakeEngine{names: []string{"TestFlaky", "TestFirst"}, tests: map[string]fakeTest{
		"TestFlaky": {sites: []int{0}, fails: func(m string, _ []string, run int) bool { return m != "" || prime[run%20] }},
		"TestFirst": {sites: []int{1}, fails: func(m string, _ []string, run int) bool { return m != "" || (run-1)%5 != 3 }},
	}}
	rep := fakeAudit(t, eng, 2, Config{Options: runner.Options{Batch: 5}})
	baseline, mutant := jobShapes(eng.jobs)
	checkShapes(t, mergeMaps(baseline, mutant), func(string) int { return 5 })
	for _, b := range rep.Baseline {
		if b.Alone {
			t.Errorf("%s's baseline %+v is alone", b.Test, b)
		}
	}
}

// TestLeakFalseTrigger computes exactly the chance that leaks mistakes a test flaky at rate p,
// independent of its place in the process, for one that fails only in later runs: every one
// of the 2^20 outcomes of 20 runs, in processes of 2 and of 5 runs, with failures that end
// the process (a panic: the runner makes its remaining runs in a new one, whose first run the
// next is) and failures that do not. For each p from 0.01 to 0.99 the chance is the sum of
// p^F (1-p)^(20-F) over the outcomes that trigger, F their failures; it must stay at most
// the level, 0.01, and the rule must trigger on the groupcache pattern (every first run
// passes, every later one fails).
func TestLeakFalseTrigger(t *testing.T) {
	const runs, level = 20, 0.01
	for _, batch := range []int{2, 5} {
		for _, crash := range []bool{false, true} {
			triggers := make([]float64, runs+1) // by the number of failures
			memo := map[places]bool{}
			for outcome := range 1 << runs {
				p := placed(outcome, runs, batch, crash)
				hit, ok := memo[p]
				if !ok {
					hit, _ = p.leaks(level)
					memo[p] = hit
				}
				if hit {
					triggers[popcount(outcome)]++
				}
			}
			worst, at := 0.0, 0.0
			for i := 1; i < 100; i++ {
				rate := float64(i) / 100
				chance := 0.0
				for f, n := range triggers {
					chance += n * math.Pow(rate, float64(f)) * math.Pow(1-rate, float64(runs-f))
				}
				if chance > worst {
					worst, at = chance, rate
				}
			}
			t.Logf("processes of %d, crashing %v: the false trigger's chance is at most %.4f (at p = %.2f)", batch, crash, worst, at)
			if worst > level {
				t.Errorf("processes of %d, crashing %v: a test flaky at p = %.2f is taken for one that leaks with chance %.4f, over the level %g", batch, crash, at, worst, level)
			}
			pattern := 0 // every later run fails
			for k := range runs {
				if k%batch != 0 {
					pattern |= 1 << k
				}
			}
			if hit, pv := placed(pattern, runs, batch, false).leaks(level); !hit {
				t.Errorf("processes of %d: later runs failing, first passing: p = %.2g, not found", batch, pv)
			}
		}
	}
}

// placed counts the outcome's runs (bit k set: run k+1 fails) by their place in their
// process: processes of batch runs, cut at multiples of batch, where a failure that crashes
// ends its process and the next run starts a new one.
func placed(outcome, runs, batch int, crash bool) places {
	var p places
	at := 0
	for k := range runs {
		if k%batch == 0 {
			at = 0
		}
		c := &p.later
		if at == 0 {
			c = &p.first
		}
		c.runs++
		failed := outcome>>k&1 == 1
		if failed {
			c.fails++
		}
		at++
		if failed && crash {
			at = 0
		}
	}
	return p
}

func popcount(x int) int {
	n := 0
	for ; x > 0; x &= x - 1 {
		n++
	}
	return n
}

func ones(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = 1
	}
	return out
}
