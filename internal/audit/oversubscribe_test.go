package audit

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// TestProcessesFor: the processes at once from a measured CPU and wall time. Cores without a
// measurement or above the share of a quarter; else the most whose shares sum to the cores,
// at most 8 times the cores.
func TestProcessesFor(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name      string
		cores     int
		cpu, wall time.Duration
		want      int
	}{
		{"not measured", 2, 0, 0, 2},
		{"no CPU time reported", 2, 0, time.Second, 2},
		{"no wall time", 2, 10 * ms, 0, 2},
		{"busy", 2, 900 * ms, time.Second, 2},
		{"half: 4 would fit the cores, but the share is not low", 2, 500 * ms, time.Second, 2},
		{"just above a quarter", 2, 260 * ms, time.Second, 2},
		{"a quarter: 8 fill the 2 cores", 2, 250 * ms, time.Second, 8},
		{"a fifth: 10", 2, 200 * ms, time.Second, 10},
		{"rounded down: 2 / 0.15 = 13.3", 2, 150 * ms, time.Second, 13},
		{"capped at 8 times the cores", 2, 10 * ms, time.Second, 16},
		{"one core, a fifth", 1, 200 * ms, time.Second, 5},
		{"no cores counts as one", 0, 200 * ms, time.Second, 5},
		{"four cores, a tenth", 4, 100 * ms, time.Second, 32},
		{"CPU over wall (threads on several cores)", 2, 3 * time.Second, time.Second, 2},
	} {
		if got := processesFor(c.cores, c.cpu, c.wall); got != c.want {
			t.Errorf("%s: processesFor(%d, %v, %v) = %d, want %d", c.name, c.cores, c.cpu, c.wall, got, c.want)
		}
	}
	// The rule over a sweep of shares: never fewer processes than cores, never more than
	// 8 times, and more than the cores only at a low share whose sum stays within them.
	for cores := 1; cores <= 8; cores++ {
		for permille := 1; permille <= 1200; permille++ {
			cpu := time.Duration(permille) * ms
			n := processesFor(cores, cpu, time.Second)
			share := cpu.Seconds()
			switch {
			case n < cores || n > oversubscribe*cores:
				t.Fatalf("processesFor(%d, %v, 1s) = %d: outside [%d, %d]", cores, cpu, n, cores, oversubscribe*cores)
			case n > cores && share > maxCPUShare:
				t.Fatalf("processesFor(%d, %v, 1s) = %d: oversubscribed at a share of %.3f", cores, cpu, n, share)
			case n > cores && float64(n)*share > float64(cores)+1e-9:
				t.Fatalf("processesFor(%d, %v, 1s) = %d: %d × %.3f exceeds the cores", cores, cpu, n, n, share)
			case share <= maxCPUShare && n < min(oversubscribe*cores, int(float64(cores)/share+1e-9)):
				t.Fatalf("processesFor(%d, %v, 1s) = %d: fewer than the cores allow", cores, cpu, n)
			}
		}
	}
}

// TestProcessesOf: the job with the largest measured share decides for a call; one job not
// measured keeps the cores.
func TestProcessesOf(t *testing.T) {
	sleepy := job{cost: cost{cpu: 50 * time.Millisecond, wall: time.Second}}
	fifth := job{cost: cost{cpu: 200 * time.Millisecond, wall: time.Second}}
	busy := job{cost: cost{cpu: 800 * time.Millisecond, wall: time.Second}}
	for _, c := range []struct {
		name string
		jobs []job
		want int
	}{
		{"none", nil, 2},
		{"sleepy", []job{sleepy, sleepy}, 16},
		{"a fifth beside sleepy", []job{sleepy, fifth, sleepy}, 10},
		{"busy beside sleepy", []job{sleepy, busy}, 2},
		{"one not measured", []job{sleepy, {}}, 2},
	} {
		if got := processesOf(2, c.jobs); got != c.want {
			t.Errorf("%s: processesOf(2, ...) = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestHeavier(t *testing.T) {
	low, high := cost{cpu: 10, wall: 100}, cost{cpu: 50, wall: 100}
	for _, c := range []struct{ a, b, want cost }{
		{low, high, high}, {high, low, high}, {cost{}, low, low}, {low, cost{}, low}, {cost{}, cost{}, cost{}},
	} {
		if got := heavier(c.a, c.b); got != c.want {
			t.Errorf("heavier(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestStretched: a process's limit grows with the processes per core, rounded up.
func TestStretched(t *testing.T) {
	for _, c := range []struct {
		procs, cores int
		want         time.Duration
	}{{2, 2, time.Second}, {3, 2, 2 * time.Second}, {16, 2, 8 * time.Second}, {5, 1, 5 * time.Second}, {5, 0, 5 * time.Second}} {
		if got := stretched(time.Second, c.procs, c.cores); got != c.want {
			t.Errorf("stretched(1s, %d, %d) = %v, want %v", c.procs, c.cores, got, c.want)
		}
	}
	if got := stretched(0, 16, 2); got != 0 {
		t.Errorf("stretched(0, 16, 2) = %v, want 0 (the runner's default)", got)
	}
}

// TestEngineOversubscribes: runnerEngine.run gives the runner processesOf its jobs at once,
// stretches each job's limit by as many times as that is over its parallelism, and returns
// each process's CPU time. The runner is a fake: nothing depends on a real clock.
func TestEngineOversubscribes(t *testing.T) {
	pkg := testbin.Package{ImportPath: "example.com/p", Binary: "p.test"}
	sleepy := cost{cpu: 50 * time.Millisecond, wall: time.Second}
	for _, c := range []struct {
		name      string
		costs     []cost
		wantProcs int
		wantLimit time.Duration
	}{
		{"sleepy", []cost{sleepy, sleepy}, 16, 8 * time.Second},
		{"one not measured", []cost{sleepy, {}}, 2, time.Second},
		{"busy", []cost{{cpu: 900 * time.Millisecond, wall: time.Second}}, 2, time.Second},
	} {
		var got runner.Options
		var limits []time.Duration
		e := &runnerEngine{parallel: 2, outDir: t.TempDir(),
			execute: func(_ context.Context, jobs []runner.Job, opts runner.Options) ([]resultsfile.Record, error) {
				got = opts
				var recs []resultsfile.Record
				for _, j := range jobs {
					limits = append(limits, j.Timeout)
					recs = append(recs, resultsfile.Record{Package: j.Package, Run: j.Run, Count: j.Count, Env: j.Env, Seconds: 1, CPUSeconds: 0.25})
				}
				return recs, nil
			}}
		var jobs []job
		for i, co := range c.costs {
			jobs = append(jobs, job{pkg: pkg, run: 1 + 10*i, count: 10, timeout: time.Second, cost: co})
		}
		res, err := e.run(context.Background(), jobs)
		if err != nil {
			t.Fatal(err)
		}
		if got.Parallel != c.wantProcs {
			t.Errorf("%s: the runner was given %d processes at once, want %d", c.name, got.Parallel, c.wantProcs)
		}
		for _, l := range limits {
			if l != c.wantLimit {
				t.Errorf("%s: a job's limit %v, want %v", c.name, l, c.wantLimit)
			}
		}
		if len(res) != len(jobs) {
			t.Fatalf("%s: %d results of %d jobs", c.name, len(res), len(jobs))
		}
		for _, r := range res {
			if r.cpu != 250*time.Millisecond || r.elapsed != time.Second {
				t.Errorf("%s: result of job %d: cpu %v, wall %v; want 250ms and 1s from the record", c.name, r.job, r.cpu, r.elapsed)
			}
		}
	}
}

// TestAuditMeasuresCost: the audit gives each job the cost that predicts it. The trace has
// none measured (2 processes at once); the baseline and the first look beside it, the trace's
// (a twentieth of the time in CPU: 16 at once on 2 cores); the later looks, the busier of the
// baseline and the mutant's own processes. Under a mutant that keeps the test sleepy the
// later looks run 16 at once too; under one that makes it busy, 2.
func TestAuditMeasuresCost(t *testing.T) {
	for _, c := range []struct {
		name      string
		underMut  float64
		wantLater int
	}{{"sleepy mutant", 0.05, 16}, {"busy mutant", 0.9, 2}} {
		busy := func(m string) float64 {
			if m == "" {
				return 0.05
			}
			return c.underMut
		}
		eng := &fakeEngine{names: []string{"TestA"}, perTest: 100 * time.Millisecond,
			tests: map[string]fakeTest{"TestA": {sites: []int{0}, busy: busy}}}
		fakeAudit(t, eng, 1, Config{Options: runner.Options{Parallel: 2}})
		if len(eng.calls) < 3 {
			t.Fatalf("%s: %d calls of the engine, want the trace, the baseline and a later look", c.name, len(eng.calls))
		}
		if got := processesOf(2, eng.calls[0]); got != 2 {
			t.Errorf("%s: the trace: %d at once, want 2 (nothing measured)", c.name, got)
		}
		baseline := eng.calls[1]
		if b, _ := jobShapes(baseline); sum(b["^(TestA)$"]) != DefaultRuns {
			t.Fatalf("%s: the second call is not the baseline: %v", c.name, b)
		}
		if got := processesOf(2, baseline); got != 16 {
			t.Errorf("%s: the baseline: %d at once, want 16", c.name, got)
		}
		for i, call := range eng.calls[2:] {
			if got := processesOf(2, call); got != c.wantLater {
				t.Errorf("%s: look %d: %d at once, want %d", c.name, i+2, got, c.wantLater)
			}
		}
	}
}

// TestEngineOwnersByJob: the processes of one mutant in two groups of its site share the
// package, the -cpu value and the run numbers, and differ by their filter, which a restart
// narrows: runnerEngine.run gives each record to the job it came from (by the job's own
// environment, which the runner copies to every record), restarted ones included. It gave
// them all to the first such job, so that the second group of ulid's clock-seeded site never
// counted a run and kept its mutant open to the last look.
func TestEngineOwnersByJob(t *testing.T) {
	pkg := testbin.Package{ImportPath: "example.com/p", Binary: "p.test"}
	mutant := []string{rewrite.MutantEnv + "=0:1"}
	jobs := []job{
		{pkg: pkg, filter: "^(TestA|TestB)$", env: mutant, run: 21, count: 2},
		{pkg: pkg, filter: "^(ExampleA)$", env: mutant, run: 21, count: 2},
	}
	e := &runnerEngine{parallel: 2, outDir: t.TempDir(),
		execute: func(_ context.Context, rjobs []runner.Job, _ runner.Options) ([]resultsfile.Record, error) {
			var recs []resultsfile.Record
			for _, j := range slices.Backward(rjobs) {
				name := "TestA"
				if strings.Contains(j.Filter, "Example") {
					name = "ExampleA"
				}
				rec := resultsfile.Record{Package: j.Package, Run: j.Run, Count: 1, Filter: j.Filter, Env: j.Env,
					Tests: []testout.TestResult{{Name: name, Run: j.Run, Outcome: testout.Pass}}}
				restarted := rec
				restarted.Run, restarted.Filter = j.Run+1, "^(ExampleA)$"
				recs = append(recs, rec, restarted)
			}
			return recs, nil
		}}
	res, err := e.run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int][]string{}
	for _, r := range res {
		got[r.job] = append(got[r.job], fmt.Sprintf("%s@%d", r.tests[0].Name, r.first))
	}
	want := map[int][]string{0: {"TestA@21", "TestA@22"}, 1: {"ExampleA@21", "ExampleA@22"}}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("records by job (-want +got):\n%s", d)
	}
}
