package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// TestLeftNeedsEveryPackagesPace: the time left is estimated from each package's own pace,
// and not at all while a package with runs left has none. Here package a's runs take 0.1 s
// each and b's 2 s: after a's first process (10 runs in 1 s), one pace over everything done
// (the estimate before, Elapsed/Done x runs left) would say 1 s/10 x 190 = 19 s; the pass
// takes (90 x 0.1 + 100 x 2)/2 = 104.5 s on two workers.
func TestLeftNeedsEveryPackagesPace(t *testing.T) {
	a, b := testbin.Package{ImportPath: "a"}, testbin.Package{ImportPath: "b"}
	opts := Options{Batch: 10}
	s := newScheduler(context.Background(), []Job{{Package: a, Run: 1, Count: 100}, {Package: b, Run: 1, Count: 100}}, &opts, 2)
	defer s.close()
	at := time.Unix(0, 0)
	s.now = func() time.Time { return at }
	if got := s.left(); got != 0 {
		t.Errorf("left with no pace measured = %v, want 0", got)
	}
	first := Job{Package: a, Run: 1, Count: 10}
	s.learn(&first, &resultsfile.Record{Seconds: 1})
	s.queue = []Job{{Package: a, Run: 11, Count: 90}, {Package: b, Run: 1, Count: 100}}
	if got := s.left(); got != 0 {
		t.Errorf("left with b's pace unknown = %v, want 0", got)
	}
	s.learn(&Job{Package: b, Run: 1, Count: 1}, &resultsfile.Record{Seconds: 2})
	s.queue = []Job{{Package: a, Run: 11, Count: 90}, {Package: b, Run: 2, Count: 99}}
	if got, want := s.left(), seconds((90*0.1+99*2)/2); got != want {
		t.Errorf("left = %v, want %v", got, want)
	}
	// A running process of b's, started 1 s ago with 2 runs, has finished none of them at 2 s
	// a run (inFlight's estimate).
	s.flights[1] = flight{key: paceKey(&Job{Package: b}), count: 2, start: at.Add(-time.Second)}
	if got, want := s.left(), seconds((90*0.1+101*2)/2); got != want {
		t.Errorf("left with a process running = %v, want %v", got, want)
	}
	// Once a process of several runs has ended, its pace is the one to come: b's first run
	// paid a whole start-up, its 10 runs in a batch took 5 s.
	delete(s.flights, 1)
	s.learn(&Job{Package: b, Run: 2, Count: 10}, &resultsfile.Record{Seconds: 5})
	s.queue = []Job{{Package: a, Run: 11, Count: 90}, {Package: b, Run: 12, Count: 89}}
	if got, want := s.left(), seconds((90*0.1+89*0.5)/2); got != want {
		t.Errorf("left after a batch of b = %v, want %v", got, want)
	}
}

// TestProgressFromTheStart: Execute reports the runs' start before any process ends, then
// after each, with the phase, and the last report has every run done.
func TestProgressFromTheStart(t *testing.T) {
	var got []Progress
	opts := Options{Runs: 6, Seed: 1, Batch: 3, Parallel: 2, OnProgress: func(p Progress) { got = append(got, p) }}
	if _, err := Execute(context.Background(), MainJobs([]testbin.Package{fixture(t, "flaky")}, opts), opts); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Done != 0 || got[0].Total != 6 || got[2].Done != 6 || got[0].Phase != resultsfile.Main {
		t.Errorf("progress %+v, want a report at the start and one per process of 3 runs", got)
	}
}

// TestExampleRunsAreExplained: package testing runs an example once per process, so with 20
// runs in 4 processes the example has 4 runs, and the report says why.
func TestExampleRunsAreExplained(t *testing.T) {
	rep := testreport.Summarize(run(t, fixture(t, "example"), Options{Runs: 20, Seed: 1, Batch: 5}), testreport.SummaryOptions{})
	var b strings.Builder
	rep.WriteText(&b)
	if ex := summary(t, rep, "example", "Example"); ex.Runs != 4 {
		t.Errorf("Example made %d runs, want 4 (one per process)", ex.Runs)
	}
	want := "Example: 4 of 20 runs, one per test process: package testing runs an example once in a process, whatever -test.count says, and the package's runs shared 4 processes"
	if !strings.Contains(b.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, b.String())
	}
	if strings.Contains(b.String(), "TestPlain: ") {
		t.Errorf("the report explains TestPlain's runs, which are all there:\n%s", b.String())
	}
}

// TestRunMatchingNothingStartsNoProcess: a -run that matches no test of any package is found
// from the test binaries' -test.list, before any test process starts, and reported so.
func TestRunMatchingNothingStartsNoProcess(t *testing.T) {
	records := 0
	rep, err := RunSession(context.Background(), Config{
		Build:   testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./flaky", "./readsdata"}, CacheDir: fixtureCache()},
		Options: Options{Runs: 20, Run: "TestTypo", Parallel: 2, OnRecord: func(resultsfile.Record) { records++ }},
		Cache:   testbin.Cache{Dir: t.TempDir()},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !rep.NoTests || rep.ExitCode() != testreport.ExitBuild || records != 0 || !strings.Contains(b.String(), "no test process was started") {
		t.Errorf("exit %d, %d processes:\n%s", rep.ExitCode(), records, b.String())
	}
	// A pattern that matches a test runs it.
	rep, err = RunSession(context.Background(), Config{
		Build:   testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./flaky", "./readsdata"}, CacheDir: fixtureCache()},
		Options: Options{Runs: 2, Run: "TestReads", Parallel: 2},
		Cache:   testbin.Cache{Dir: t.TempDir()},
	})
	if err != nil || rep.NoTests {
		t.Errorf("-run TestReads: %v, no tests %v", err, rep.NoTests)
	}
}
