package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// fakeTest is one test of the fake engine's binary: the sites it reaches, and whether it
// fails in a run, from the active mutant ("site:code", "" for none), the tests that share
// its process and the run's number.
type fakeTest struct {
	sites []int
	fails func(mutant string, together []string, run int) bool
	hangs bool          // it never ends: the process is stopped at the timeout
	later bool          // it fails every run of a process but the first, as a test does that leaves state behind
	took  time.Duration // what one run of it takes; 0 means the engine's perTest
	// skipped: -skip leaves it out; the binary lists it, and a process asked for it runs no test.
	skipped bool
	// busy, when set, is the share of its time a run of it spends in CPU under the active
	// mutant ("" for none); the process's CPU time is the sum over its runs. Unset: no CPU
	// time, which the audit takes for no measurement.
	busy func(mutant string) float64
}

// fakeEngine runs no process: it makes each job's runs from its tests' rules, in a time it
// states (a start-up per process and a time per test), and records every job.
type fakeEngine struct {
	names            []string
	tests            map[string]fakeTest
	startup, perTest time.Duration
	// initSites are the sites that package initialisation draws at, in every process before
	// any test runs.
	initSites []int
	// buildErr, when set, is the compiler's message for a build with these flags ("" when it
	// builds).
	buildErr func(flags []string) string

	mu       sync.Mutex
	calls    [][]job // the jobs of each call of run
	jobs     []job
	timeouts []time.Duration // each job's limit
}

var fakeBin = testbin.Package{ImportPath: "example.com/fake", Binary: "fake.test"}

func (f *fakeEngine) build(_ context.Context, _ []string, _ binaries, flags ...string) ([]testbin.Package, error) {
	if f.buildErr != nil {
		if msg := f.buildErr(flags); msg != "" {
			return []testbin.Package{{ImportPath: fakeBin.ImportPath, BuildError: msg}}, nil
		}
	}
	return []testbin.Package{fakeBin}, nil
}

func (f *fakeEngine) list(context.Context, testbin.Package) ([]string, error) { return f.names, nil }

func (f *fakeEngine) compiled(context.Context, []string, ...string) (map[string]string, error) {
	return nil, errors.New("fakeEngine compiles nothing")
}

func (f *fakeEngine) run(ctx context.Context, jobs []job) ([]result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err() // as the runner: no process starts once the audit is interrupted
	}
	f.mu.Lock()
	f.calls = append(f.calls, slices.Clone(jobs))
	f.jobs = append(f.jobs, jobs...)
	for _, j := range jobs {
		f.timeouts = append(f.timeouts, j.timeout)
	}
	f.mu.Unlock()
	out := make([]result, len(jobs))
	for i, j := range jobs {
		out[i] = f.process(i, j)
	}
	return out, nil
}

// process makes one job's runs: every selected test once per run, in the order of names.
func (f *fakeEngine) process(i int, j job) result {
	re := regexp.MustCompile(j.filter)
	var sel []string
	for _, n := range f.names {
		if re.MatchString(n) && !f.tests[n].skipped {
			sel = append(sel, n)
		}
	}
	active, trace := env(j.env, rewrite.MutantEnv), env(j.env, rewrite.TraceEnv)
	r := result{job: i, first: j.run, elapsed: f.startup}
	var reached strings.Builder
	for _, s := range f.initSites {
		fmt.Fprintln(&reached, s)
	}
	for k := range max(j.count, 1) {
		for _, n := range sel {
			if strings.HasPrefix(n, "Example") && k > 0 {
				continue // package testing runs examples once per process, whatever -test.count says
			}
			o := testout.Pass
			if fn := f.tests[n].fails; fn != nil && fn(active, sel, j.run+k) || f.tests[n].later && k > 0 {
				o = testout.Fail
			}
			if f.tests[n].hangs {
				o = testout.Hang
			}
			took := cmp.Or(f.tests[n].took, f.perTest)
			r.tests = append(r.tests, testout.TestResult{Name: n, Run: j.run + k, Outcome: o, Seconds: took.Seconds()})
			r.elapsed += took
			if b := f.tests[n].busy; b != nil {
				r.cpu += time.Duration(b(active) * float64(took))
			}
			for _, s := range f.tests[n].sites {
				fmt.Fprintln(&reached, s)
			}
		}
	}
	if trace != "" {
		os.WriteFile(trace, []byte(reached.String()), 0o644)
	}
	r.tests = append(r.tests, testout.TestResult{Name: testout.PackageTest, Outcome: testout.Pass})
	return r
}

func env(vars []string, key string) string {
	for _, v := range vars {
		if k, val, _ := strings.Cut(v, "="); k == key {
			return val
		}
	}
	return ""
}

// fakeAudit audits sites of unit draws with the fake engine, as Run does after the build.
func fakeAudit(t *testing.T, eng *fakeEngine, nSites int, cfg Config) *Report {
	t.Helper()
	return fakeAuditContext(context.Background(), t, eng, nSites, cfg)
}

// fakeAuditContext is fakeAudit until ctx is cancelled, and marks the report interrupted then,
// as Run does.
func fakeAuditContext(ctx context.Context, t *testing.T, eng *fakeEngine, nSites int, cfg Config) *Report {
	t.Helper()
	cfg.Runs, cfg.Alpha, cfg.Seed = max(cfg.Runs, DefaultRuns), DefaultAlpha, 1
	cfg.Log = func(string, ...any) {}
	var sites []*Site
	for i := range nSites {
		sites = append(sites, &Site{ID: i, File: fmt.Sprintf("f.go:%d", i), Draw: rewrite.Draw{Kind: rewrite.UnitDraw}, Equivalent: map[string]string{}})
	}
	a := &auditor{cfg: cfg, tmp: t.TempDir(), eng: eng, sites: sites, bins: []testbin.Package{fakeBin}, mark: time.Now(),
		rep: &Report{Runs: cfg.Runs, Alpha: cfg.Alpha}}
	if err := a.judge(ctx); err != nil {
		t.Fatal(err)
	}
	a.rep.Interrupted = ctx.Err() != nil
	a.rep.score()
	return a.rep
}

// checkShapes checks that every process of each job shape (see jobShapes) makes want(key) runs.
func checkShapes(t testing.TB, shapes map[string][]int, want func(key string) int) {
	t.Helper()
	for key, counts := range shapes {
		for _, n := range counts {
			if n != want(key) {
				t.Errorf("%s: processes of %v runs, want %d each", key, counts, want(key))
				break
			}
		}
	}
}

// jobShapes lists the processes of the jobs: mutant (or "baseline"), -run pattern, runs.
func jobShapes(jobs []job) (baseline, mutant map[string][]int) {
	baseline, mutant = map[string][]int{}, map[string][]int{}
	for _, j := range jobs {
		switch m := env(j.env, rewrite.MutantEnv); {
		case env(j.env, rewrite.TraceEnv) != "":
		case m == "":
			baseline[j.filter] = append(baseline[j.filter], j.count)
		default:
			mutant[m+" "+j.filter] = append(mutant[m+" "+j.filter], j.count)
		}
	}
	return baseline, mutant
}

// TestBatched: the audit makes several runs per process, sized from the start-up and test
// times the trace measured by the runner's rule: a start-up of 20 ms and a run of 1 ms ask
// for 401 runs, capped at the runs that kill a mutant failing every run (4 of 4 against 0 of
// 20: p = 1/C(24, 4) = 9.4e-5, under the level 0.01 / (8 comparisons x 4 looks) = 3.1e-4;
// 3 of 3 gives 5.6e-4); a run of 150 ms asks for 3 (20 / (0.05 x 150) + 1, rounded down),
// cut to 2, the largest divisor of R = 20 under it; a run of 1 s asks for 1. -batch 1 gives
// every run a process of its own, -batch n processes of n runs. Baselines and mutants alike.
func TestBatched(t *testing.T) {
	for _, c := range []struct {
		batch   int
		perTest time.Duration
		want    int
	}{{0, time.Millisecond, 4}, {1, time.Millisecond, 1}, {2, time.Millisecond, 2}, {0, 150 * time.Millisecond, 2}, {0, time.Second, 1}} {
		eng := &fakeEngine{names: []string{"TestA"}, tests: map[string]fakeTest{"TestA": {sites: []int{0}}},
			startup: 20 * time.Millisecond, perTest: c.perTest}
		rep := fakeAudit(t, eng, 1, Config{Options: runner.Options{Batch: c.batch}})
		if rep.Batch != c.want {
			t.Errorf("-batch %d: report's batch %d, want %d", c.batch, rep.Batch, c.want)
		}
		baseline, mutant := jobShapes(eng.jobs)
		for key, counts := range mergeMaps(baseline, mutant) {
			for _, n := range counts {
				if n != c.want {
					t.Errorf("-batch %d: %s: processes of %v runs, want %d each", c.batch, key, counts, c.want)
					break
				}
			}
		}
		if got := sum(baseline["^(TestA)$"]); got != DefaultRuns {
			t.Errorf("-batch %d: %d baseline runs, want %d", c.batch, got, DefaultRuns)
		}
	}
}

func mergeMaps(a, b map[string][]int) map[string][]int {
	out := map[string][]int{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestBaselineSameConditions: two tests interfere (TestA fails every other run unless TestB
// ran before it in the process); site 0 is reached by TestA alone, site 1 by both, and no
// mutant changes anything. Each mutant must be compared with a baseline made of the same
// tests, in processes of the same sizes: then every mutant survives. A baseline of all the
// tests that reach any site (TestA passing every run) would kill site 0's mutants.
func TestBaselineSameConditions(t *testing.T) {
	eng := &fakeEngine{names: []string{"TestB", "TestA"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
		tests: map[string]fakeTest{
			"TestA": {sites: []int{0, 1}, fails: func(_ string, together []string, run int) bool {
				return !slices.Contains(together, "TestB") && run%2 == 0
			}},
			"TestB": {sites: []int{1}},
		}}
	rep := fakeAudit(t, eng, 2, Config{})
	var got []string
	for _, s := range rep.Sites {
		for _, m := range s.Mutants {
			got = append(got, fmt.Sprintf("%s %s %s", s.File, m.Class, m.Verdict))
		}
	}
	var want []string
	for i := range 2 {
		for _, c := range rewrite.Classes() {
			want = append(want, fmt.Sprintf("f.go:%d %s survived", i, string(c)))
		}
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	baseline, mutant := jobShapes(eng.jobs)
	for key, counts := range mutant {
		_, filter, _ := strings.Cut(key, " ")
		if b := baseline[filter]; !slices.Equal(counts, b[:min(len(counts), len(b))]) {
			t.Errorf("%s: processes of %v runs; its baseline, with -run %s: %v", key, counts, filter, b)
		}
	}
	if len(baseline) != 2 {
		t.Errorf("baselines for %d -run sets, want 2 (one per set of reaching tests): %v", len(baseline), baseline)
	}
}

// TestPlanShapes: runs split into processes cut at multiples of the batch size, whatever run
// a look starts from; the looks rounded up to whole processes.
func TestPlanShapes(t *testing.T) {
	if got, want := processes(0, 20, 5), [][2]int{{1, 5}, {6, 5}, {11, 5}, {16, 5}}; !slices.Equal(got, want) {
		t.Errorf("processes(0, 20, 5) = %v, want %v", got, want)
	}
	if got, want := processes(3, 10, 4), [][2]int{{4, 1}, {5, 4}, {9, 2}}; !slices.Equal(got, want) {
		t.Errorf("processes(3, 10, 4) = %v, want %v", got, want)
	}
	for _, c := range []struct {
		runs, batch int
		want        []int
	}{{20, 1, []int{3, 5, 10, 20}}, {20, 5, []int{5, 10, 20}}, {20, 20, []int{20}}, {20, 3, []int{3, 6, 12, 20}}} {
		if got := planLooks(c.runs, c.batch); !slices.Equal(got, c.want) {
			t.Errorf("planLooks(%d, %d) = %v, want %v", c.runs, c.batch, got, c.want)
		}
	}
	// 5 failures of 5 against none of 20: p = 1/C(25, 5) = 1.88e-5; 4 of 4: 1/C(24, 4) = 9.4e-5.
	if got := killRuns(20, 5e-5); got != 5 {
		t.Errorf("killRuns(20, 5e-5) = %d, want 5", got)
	}
	if got := killRuns(20, 1e-30); got != 20 {
		t.Errorf("killRuns(20, 1e-30) = %d, want 20 (no run count can kill)", got)
	}
}

// TestHungInTrace: a test that hangs in its trace run (one waiting for the network) is left
// out of the audit with a warning, and never run again; the trace waits a minute for a test
// (TestHangLimits checks the other limits).
func TestHungInTrace(t *testing.T) {
	eng := &fakeEngine{names: []string{"ExampleNetwork", "TestA"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
		tests: map[string]fakeTest{"ExampleNetwork": {sites: []int{0}, hangs: true}, "TestA": {sites: []int{0}}}}
	rep := fakeAudit(t, eng, 1, Config{})
	var runs []string
	for _, j := range eng.jobs {
		if env(j.env, rewrite.TraceEnv) == "" {
			runs = append(runs, j.filter)
		}
	}
	if slices.ContainsFunc(runs, func(f string) bool { return strings.Contains(f, "ExampleNetwork") }) {
		t.Errorf("ExampleNetwork ran after its trace: %q", runs)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "ExampleNetwork hung in its trace run (still running after 1m0s): left out") {
		t.Errorf("warnings %q, want one saying ExampleNetwork hung in its trace and was left out", rep.Warnings)
	}
}

// TestExamplesRunAlone: package testing runs an example once per process whatever
// -test.count says, so the examples that reach a site form a group of their own, in
// processes of one run; tests keep their batches. Each makes R runs at baseline, and an
// example that fails under every mutant kills it.
func TestExamplesRunAlone(t *testing.T) {
	eng := &fakeEngine{names: []string{"ExampleB", "TestA"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
		tests: map[string]fakeTest{
			"ExampleB": {sites: []int{0}, fails: func(mutant string, _ []string, _ int) bool { return mutant != "" }},
			"TestA":    {sites: []int{0}},
		}}
	rep := fakeAudit(t, eng, 1, Config{Options: runner.Options{Batch: 5}})
	baseline, mutant := jobShapes(eng.jobs)
	checkShapes(t, mergeMaps(baseline, mutant), func(key string) int {
		if strings.Contains(key, "Example") {
			return 1
		}
		return 5
	})
	for _, b := range rep.Baseline {
		if b.Runs != DefaultRuns {
			t.Errorf("baseline of %s: %d runs, want %d", b.Test, b.Runs, DefaultRuns)
		}
	}
	for _, m := range rep.Sites[0].Mutants {
		if m.Verdict != Killed || m.Test != "ExampleB" {
			t.Errorf("%s: %s by %q, want killed by ExampleB", m.Class, m.Verdict, m.Test)
		}
	}
}

// Counts that sizing refuses (more runs than its Fisher tests take) are no evidence: p = 1,
// never the 0 that comes with the error, which would kill a mutant nothing showed.
func TestFisherErrorIsNoEvidence(t *testing.T) {
	if p := fisherGreater(1<<33, 1<<33, 0, 1<<33); p != 1 {
		t.Errorf("fisherGreater on refused counts = %v, want 1", p)
	}
	if p := fisherLess(0, 1<<33, 1<<33, 1<<33); p != 1 {
		t.Errorf("fisherLess on refused counts = %v, want 1", p)
	}
	if p := fisherGreater(5, 5, 0, 20); p > 0.01 {
		t.Errorf("fisherGreater(5 of 5, 0 of 20) = %v, want a kill at 0.01", p)
	}
}

// TestCPU: with -cpu 1,2 each test is compared at each GOMAXPROCS value as a test of its own:
// a group per value, each with its baseline of R runs, its processes run at that value, twice
// the comparisons of an audit without -cpu, and a kill names the value it was found at.
func TestCPU(t *testing.T) {
	newEngine := func() *fakeEngine {
		return &fakeEngine{names: []string{"TestA"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
			tests: map[string]fakeTest{"TestA": {sites: []int{0}, fails: func(mutant string, _ []string, _ int) bool { return mutant != "" }}}}
	}
	plain := fakeAudit(t, newEngine(), 1, Config{})
	eng := newEngine()
	rep := fakeAudit(t, eng, 1, Config{Options: runner.Options{CPU: []string{"1", "2"}}})
	if rep.Family != 2*plain.Family {
		t.Errorf("family of %d comparisons with -cpu 1,2, want twice the %d without", rep.Family, plain.Family)
	}
	var got []string
	for _, b := range rep.Baseline {
		got = append(got, fmt.Sprintf("%s -cpu %s: %d runs", b.Test, b.CPU, b.Runs))
	}
	want := []string{fmt.Sprintf("TestA -cpu 1: %d runs", DefaultRuns), fmt.Sprintf("TestA -cpu 2: %d runs", DefaultRuns)}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("baselines (-want +got):\n%s", diff)
	}
	cpus := map[string]bool{}
	for _, j := range eng.jobs {
		if env(j.env, rewrite.TraceEnv) == "" {
			cpus[j.cpu] = true
		}
	}
	if len(cpus) != 2 || !cpus["1"] || !cpus["2"] {
		t.Errorf("processes ran at -cpu %v, want 1 and 2", slices.Sorted(maps.Keys(cpus)))
	}
	for _, m := range rep.Sites[0].Mutants {
		if m.Verdict != Killed || m.CPU == "" {
			t.Errorf("%s: %s by %s at -cpu %q, want killed at a -cpu value", m.Class, m.Verdict, m.Test, m.CPU)
		}
	}
}

// TestPhases: the report says where the audit's time went, stage by stage in the order they
// ran, each a wall time of its own.
func TestPhases(t *testing.T) {
	eng := &fakeEngine{names: []string{"TestA"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
		tests: map[string]fakeTest{"TestA": {sites: []int{0}}}}
	var names []string
	for _, p := range fakeAudit(t, eng, 1, Config{}).Phases {
		if !(p.Seconds >= 0) {
			t.Errorf("phase %s: %v s", p.Name, p.Seconds)
		}
		names = append(names, p.Name)
	}
	if diff := gocmp.Diff([]string{"trace", "baseline", "mutants", "identical"}, names); diff != "" {
		t.Errorf("phases (-want +got):\n%s", diff)
	}
}

// TestInterruptedCounts: an audit interrupted before its mutants ran, or after their first
// look, counts every mutant of its sites and says how many of them finished, rather than "0
// mutants" and a score of "0 of 0".
func TestInterruptedCounts(t *testing.T) {
	for _, c := range []struct {
		at       string
		finished string
	}{{"baseline", "0 of 8 mutants finished"}, {"look 1", "4 of 8 mutants finished"}} {
		t.Run(c.at, func(t *testing.T) {
			eng := &fakeEngine{names: []string{"TestA", "TestB"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
				tests: map[string]fakeTest{
					"TestA": {sites: []int{0}, fails: func(m string, _ []string, _ int) bool { return strings.HasPrefix(m, "0:") }},
					"TestB": {sites: []int{1}},
				}}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stageHook = func(s string) {
				if s == c.at {
					cancel()
				}
			}
			defer func() { stageHook = nil }()
			rep := fakeAuditContext(ctx, t, eng, 2, Config{Options: runner.Options{Batch: 5}})
			var text strings.Builder
			rep.WriteText(&text)
			for _, want := range []string{"2 sites, 8 mutants", "interrupted: " + c.finished} {
				if !strings.Contains(text.String(), want) {
					t.Errorf("the report lacks %q:\n%s", want, text.String())
				}
			}
		})
	}
}

// TestOnlyFailingTestsReach: a site that only tests failing every baseline run reach has no
// healthy test to tell its mutants: they are not covered, and say why, where they were
// judged "survived" on the package pseudo-test's one outcome per process. A test that fails
// some baseline runs stays in, and its warning says from how many runs it could tell a mutant
// that makes it fail every run, as a survivor's reason does: 15 of 20 baseline failures
// against 20 of 20 under a mutant give p = C(20, 15)/C(40, 35) = 0.024, above the level 0.01 /
// (16 comparisons x 4 looks) = 1.6e-4; 30 of 40 against 40 of 40, C(40, 10)/C(80, 10) =
// 5.1e-4, is above it too; 60 of 80 against 80 of 80 is about 1e-7.
func TestOnlyFailingTestsReach(t *testing.T) {
	eng := &fakeEngine{names: []string{"TestBroken", "TestFlaky"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
		tests: map[string]fakeTest{
			"TestBroken": {sites: []int{0}, fails: func(string, []string, int) bool { return true }},
			"TestFlaky":  {sites: []int{1}, fails: func(_ string, _ []string, run int) bool { return run%4 != 0 }},
		}}
	rep := fakeAudit(t, eng, 2, Config{Options: runner.Options{Batch: 5}})
	for _, m := range rep.Sites[0].Mutants {
		if m.Verdict != NotCovered || m.Reason != "only tests that fail every baseline run reach the site: TestBroken" {
			t.Errorf("site 0 %s: %s (%q), want not covered: only failing tests reach it", m.Class, m.Verdict, m.Reason)
		}
	}
	var flaky []string
	for _, w := range rep.Warnings {
		if strings.Contains(w, "TestFlaky") {
			flaky = append(flaky, w)
		}
	}
	want := "example.com/fake TestFlaky fails 15 of 20 baseline runs: a mutant kills only by failing it significantly more often; " +
		"with that rate it can tell a mutant that makes it fail every run from about -runs 80"
	if len(flaky) != 1 || flaky[0] != want {
		t.Errorf("warnings about TestFlaky %q, want %q", flaky, want)
	}
	for _, m := range rep.Sites[1].Mutants {
		if m.Verdict == Survived && !strings.Contains(m.Reason, "from about -runs 80") {
			t.Errorf("site 1 %s survived with reason %q, want the runs it would need", m.Class, m.Reason)
		}
	}
}

// TestHangLimits: a test process's limit follows from what the tests it runs took, not from
// the slowest process of the whole audit: a baseline process may take 10 times what the
// trace measured for its group's process (start-up and its batch of runs), a mutant's 10
// times the slowest baseline process of its group, each at least hangFloor. TestSlow's group
// takes 20 ms + 5 x 400 ms = 2.02 s a process, so 20.2 s; TestFast's, 25 ms, gets the floor.
// The trace gives every test a minute, and -timeout overrides them all.
func TestHangLimits(t *testing.T) {
	newEngine := func() *fakeEngine {
		return &fakeEngine{names: []string{"TestFast", "TestSlow"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
			tests: map[string]fakeTest{"TestFast": {sites: []int{0}}, "TestSlow": {sites: []int{1}, took: 400 * time.Millisecond}}}
	}
	limits := func(eng *fakeEngine) map[string][]time.Duration {
		out := map[string][]time.Duration{}
		for i, j := range eng.jobs {
			phase := "mutant"
			switch {
			case env(j.env, rewrite.TraceEnv) != "":
				phase = "trace"
			case env(j.env, rewrite.MutantEnv) == "":
				phase = "baseline"
			}
			key := phase + " " + strings.Trim(j.filter, "^$()")
			if !slices.Contains(out[key], eng.timeouts[i]) {
				out[key] = append(out[key], eng.timeouts[i])
			}
		}
		return out
	}
	slow := 10 * (20*time.Millisecond + 5*400*time.Millisecond)
	eng := newEngine()
	fakeAudit(t, eng, 2, Config{Options: runner.Options{Batch: 5}})
	want := map[string][]time.Duration{
		"trace TestFast": {time.Minute}, "trace TestSlow": {time.Minute},
		"baseline TestFast": {hangFloor}, "baseline TestSlow": {slow},
		"mutant TestFast": {hangFloor}, "mutant TestSlow": {slow},
	}
	if diff := gocmp.Diff(want, limits(eng)); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	eng = newEngine()
	fakeAudit(t, eng, 2, Config{Options: runner.Options{Batch: 5, Timeout: 3 * time.Second}})
	for key, got := range limits(eng) {
		if !slices.Equal(got, []time.Duration{3 * time.Second}) {
			t.Errorf("-timeout 3s: %s: limits %v, want 3s", key, got)
		}
	}
}

// TestAllRunsOneLook: with -all-runs no look before the last can settle a mutant, so every
// process of every mutant goes to the engine in one call, where the looks gave it four calls
// of one or two processes a mutant, a heavy mutant's processes (a test printing megabytes of
// failures) then running one a look while the other workers waited. The processes are those
// the looks make (the same run numbers, so the same seeds), each mutant makes R runs, and the
// verdicts are those of the audit without -all-runs: site 0's mutants killed, site 1's
// survived.
func TestAllRunsOneLook(t *testing.T) {
	newEngine := func() *fakeEngine {
		return &fakeEngine{names: []string{"TestA", "TestB"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
			tests: map[string]fakeTest{
				"TestA": {sites: []int{0}, fails: func(m string, _ []string, _ int) bool { return strings.HasPrefix(m, "0:") }},
				"TestB": {sites: []int{1}},
			}}
	}
	verdicts := func(rep *Report) []string {
		var out []string
		for _, s := range rep.Sites {
			for _, m := range s.Mutants {
				out = append(out, fmt.Sprintf("%s %s %s", s.File, m.Class, m.Verdict))
			}
		}
		return out
	}
	eng := newEngine()
	rep := fakeAudit(t, eng, 2, Config{AllRuns: true, Options: runner.Options{Batch: 4}})
	var calls [][]job
	for _, c := range eng.calls {
		if _, mutant := jobShapes(c); len(mutant) > 0 {
			calls = append(calls, c)
		}
	}
	if len(calls) != 1 {
		t.Fatalf("-all-runs: the mutants' processes came in %d calls of the engine, want 1", len(calls))
	}
	_, mutant := jobShapes(calls[0])
	if len(mutant) != 8 {
		t.Errorf("-all-runs: processes of %d mutants in the call, want 8", len(mutant))
	}
	checkShapes(t, mutant, func(string) int { return 4 })
	for key, counts := range mutant {
		if got := sum(counts); got != DefaultRuns {
			t.Errorf("-all-runs: %s makes %d runs, want %d", key, got, DefaultRuns)
		}
	}
	for _, s := range rep.Sites {
		for _, m := range s.Mutants {
			if m.Runs != DefaultRuns {
				t.Errorf("-all-runs: %s %s reports %d runs, want %d", s.File, m.Class, m.Runs, DefaultRuns)
			}
		}
	}
	seq := fakeAudit(t, newEngine(), 2, Config{Options: runner.Options{Batch: 4}})
	if diff := gocmp.Diff(verdicts(seq), verdicts(rep)); diff != "" {
		t.Errorf("-all-runs changed verdicts (-looks +all-runs):\n%s", diff)
	}
	if got := verdicts(rep); !slices.Contains(got, "f.go:0 sign-flip killed") || !slices.Contains(got, "f.go:1 sign-flip survived") {
		t.Errorf("verdicts %v, want site 0's killed and site 1's survived", got)
	}
}

// TestFirstLookBesideBaseline: the mutants' first look goes to the engine in the same call as
// the baseline, so that no worker waits between the two; its verdicts wait for the baseline.
// Site 0's mutants, under which TestA fails every run, are killed by that look and make no
// process after it; site 1's survive after every look. TestBroken, which reaches site 1 too
// and fails every baseline run, is excluded from the verdicts although the first look ran it
// before that was known: no survivor names it as the test closest to killing it (it sorts
// first, and its p-value of 1 ties with TestZ's).
func TestFirstLookBesideBaseline(t *testing.T) {
	eng := &fakeEngine{names: []string{"TestA", "TestBroken", "TestZ"}, startup: 20 * time.Millisecond, perTest: time.Millisecond,
		tests: map[string]fakeTest{
			"TestA":      {sites: []int{0}, fails: func(m string, _ []string, _ int) bool { return strings.HasPrefix(m, "0:") }},
			"TestBroken": {sites: []int{1}, fails: func(string, []string, int) bool { return true }},
			"TestZ":      {sites: []int{1}},
		}}
	rep := fakeAudit(t, eng, 2, Config{Options: runner.Options{Batch: 4}})
	if len(eng.calls) < 2 {
		t.Fatalf("%d calls of the engine, want the trace and the baseline beside the first look at least", len(eng.calls))
	}
	baseline, beside := jobShapes(eng.calls[1])
	if len(baseline) == 0 || len(beside) != 8 {
		t.Errorf("the call after the trace holds baselines of %d groups and processes of %d mutants, want both groups and 8 mutants", len(baseline), len(beside))
	}
	checkShapes(t, beside, func(string) int { return 4 })
	_, later := jobShapes(slices.Concat(eng.calls[2:]...))
	for key := range later {
		if strings.HasPrefix(key, "0:") {
			t.Errorf("%s: a process after the first look, which killed it", key)
		}
	}
	for _, s := range rep.Sites {
		for _, m := range s.Mutants {
			want := map[string]Verdict{"f.go:0": Killed, "f.go:1": Survived}[s.File]
			if m.Verdict != want {
				t.Errorf("%s %s: %s, want %s", s.File, m.Class, m.Verdict, want)
			}
			if s.File == "f.go:0" && m.Runs != 4 {
				t.Errorf("%s %s: killed after %d runs, want 4 (its first look)", s.File, m.Class, m.Runs)
			}
			if m.Verdict == Survived && m.Test != "TestZ" {
				t.Errorf("%s %s survived, closest test %q, want TestZ (TestBroken fails every baseline run)", s.File, m.Class, m.Test)
			}
		}
	}
}

// TestTraceSkipped: a site drawn in package initialisation is reached by every test that
// runs, and by none that -skip leaves out: the trace process asked for a skipped test runs no
// test and still makes the draw, which put the skipped test in the site's group (oklog/ulid's
// ulid.go:136 under -skip '^TestLexicographicalOrder$'), its comparisons counted in the family
// and a baseline of no run in the report.
func TestTraceSkipped(t *testing.T) {
	eng := &fakeEngine{names: []string{"TestA", "TestB", "TestSkipped"}, initSites: []int{0},
		tests: map[string]fakeTest{"TestSkipped": {skipped: true}}}
	rep := fakeAudit(t, eng, 1, Config{})
	if rep.Family != 4*3 {
		t.Errorf("family %d, want 12: each of the four mutants compared on TestA, TestB and the package pseudo-test", rep.Family)
	}
	for _, b := range rep.Baseline {
		if b.Test == "TestSkipped" || strings.Contains(b.Run, "TestSkipped") {
			t.Errorf("baseline %+v: the skipped test is in the site's group", b)
		}
	}
	if n := len(rep.Baseline); n != 2 {
		t.Errorf("%d baselines, want TestA's and TestB's", n)
	}
}
