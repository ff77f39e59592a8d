package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// shortWatchdog shortens the watchdog's graces for a test.
func shortWatchdog(t *testing.T) {
	oldGrace, oldKill := testbin.WatchdogGrace, testbin.KillGrace
	testbin.WatchdogGrace, testbin.KillGrace = 200*time.Millisecond, 200*time.Millisecond
	t.Cleanup(func() { testbin.WatchdogGrace, testbin.KillGrace = oldGrace, oldKill }) // after the parallel subtests, unlike a defer
}

// TestCrashes runs the fixtures that end the process in every way a test can.
func TestCrashes(t *testing.T) {
	shortWatchdog(t)
	tests := []struct {
		pkg     string
		timeout time.Duration
		want    map[string]testout.Outcome // tests that must not appear map to ""
		output  string                     // in the failing test's output
	}{
		{"panicgo", 0, map[string]testout.Outcome{"TestBefore": testout.Pass, "TestPanicInGoroutine": testout.Crash, testout.PackageTest: testout.Pass}, "panic: boom in a goroutine"},
		{"exit0", 0, map[string]testout.Outcome{"TestExit": testout.Crash}, "unexpected call to os.Exit(0) during test"},
		// TestMain sleeps before -test.timeout is armed: only the watchdog's SIGQUIT stops it.
		{"stuck", 300 * time.Millisecond, map[string]testout.Outcome{testout.PackageTest: testout.Hang, "TestNeverRuns": ""}, "SIGQUIT"},
		// The test ignores SIGQUIT: no dump, and the report says why.
		{"ignorequit", 300 * time.Millisecond, map[string]testout.Outcome{testout.PackageTest: testout.Hang}, "ignored SIGQUIT"},
		{"testmain", 0, map[string]testout.Outcome{"TestPasses": testout.Pass, testout.PackageTest: testout.Fail}, "leak check failed"},
		{"readsdata", 0, map[string]testout.Outcome{"TestReadsTestdata": testout.Pass, testout.PackageTest: testout.Pass}, ""},
		// The crash belongs to the test that panicked, not to its still-running neighbour.
		{"parpanic", 0, map[string]testout.Outcome{"TestPanics": testout.Crash, "TestNeighbour": "", testout.PackageTest: testout.Pass}, "boom in TestPanics"},
		// TestMain skips the package before m.Run: no crash.
		{"skipself", 0, map[string]testout.Outcome{testout.PackageTest: testout.Skip, "TestNeedsDatabase": ""}, ""},
		// A test printing another's framing cannot change its result.
		{"ctrl", 0, map[string]testout.Outcome{"TestVictim": testout.Pass, "TestPrinter": testout.Pass, testout.PackageTest: testout.Pass}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.pkg, func(t *testing.T) {
			t.Parallel()
			recs := run(t, fixture(t, tc.pkg), Options{Runs: 2, Seed: 1, Timeout: tc.timeout, Batch: 1})
			firsts := 0
			for _, r := range recs {
				if r.Filter != "" {
					continue // a restart of what a crash cut short
				}
				firsts++
				got := map[string]testout.TestResult{}
				for _, tr := range r.Tests {
					got[tr.Name] = tr
				}
				for name, want := range tc.want {
					if got[name].Outcome != want {
						t.Errorf("run %d: %s is %q, want %q", r.Run, name, got[name].Outcome, want)
					}
					if want.Failed() && !strings.Contains(got[name].Output, tc.output) {
						t.Errorf("run %d: %s output lacks %q:\n%s", r.Run, name, tc.output, got[name].Output)
					}
				}
			}
			if firsts != 2 {
				t.Errorf("%d processes, want 2 (and the restarts of what crashes cut short)", firsts)
			}
			rep := testreport.Summarize(recs, testreport.SummaryOptions{})
			wantExit := testreport.ExitFlaky
			switch tc.pkg {
			case "readsdata", "skipself", "ctrl":
				wantExit = testreport.ExitClean
			}
			if rep.ExitCode() != wantExit {
				t.Errorf("exit code %d, want %d", rep.ExitCode(), wantExit)
			}
		})
	}
}

// TestHangTimeout: a test still running at -timeout hangs, and the binary's own timeout
// panic says so. The watchdog keeps its full grace here: a SIGQUIT in the middle of that panic
// would garble it.
func TestHangTimeout(t *testing.T) {
	// The hanging test sleeps for an hour; a 2s timeout leaves a wide margin for TestQuick.
	recs := run(t, fixture(t, "hang"), Options{Runs: 2, Timeout: 2 * time.Second, Batch: 1})
	for _, r := range recs {
		got := map[string]testout.TestResult{}
		for _, tr := range r.Tests {
			got[tr.Name] = tr
		}
		if got["TestQuick"].Outcome != testout.Pass || got["TestHang"].Outcome != testout.Hang || !strings.Contains(got["TestHang"].Output, "panic: test timed out after 2s") {
			t.Errorf("run %d: %+v", r.Run, r.Tests)
		}
	}
}

// TestJobTimeout: a job's own Timeout replaces the options' for its processes, restarted
// ones included: the hanging test is stopped at the job's 2s, not the session's hour.
func TestJobTimeout(t *testing.T) {
	opts := Options{Runs: 2, Timeout: time.Hour, Batch: 2, Parallel: 2}
	jobs := MainJobs([]testbin.Package{fixture(t, "hang")}, opts)
	for i := range jobs {
		jobs[i].Timeout = 2 * time.Second
	}
	recs, err := Execute(context.Background(), jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	hangs := 0
	for _, r := range recs {
		for _, tr := range r.Tests {
			if tr.Name == "TestHang" && tr.Outcome == testout.Hang && strings.Contains(tr.Output, "panic: test timed out after 2s") {
				hangs++
			}
		}
	}
	if hangs != 2 {
		t.Errorf("%d runs of TestHang stopped at the job's 2s, want 2: %+v", hangs, recs)
	}
}

// TestSkipSelfReport: a package that skips itself says so, and is no failure.
func TestSkipSelfReport(t *testing.T) {
	rep := testreport.Summarize(run(t, fixture(t, "skipself"), Options{Runs: 3}), testreport.SummaryOptions{})
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "TestMain exited 0 before running them in 3 of 3 processes") || rep.ExitCode() != testreport.ExitClean {
		t.Errorf("exit %d, report:\n%s", rep.ExitCode(), b.String())
	}
}

// TestPackageRowCountsEveryRun: a TestMain that fails after its tests pass in some processes
// has a rate over all processes, not over the failing ones.
func TestPackageRowCountsEveryRun(t *testing.T) {
	const runs = 40
	recs := run(t, fixture(t, "pkgexit"), Options{Runs: runs, Seed: 5, Batch: 1})
	want := 0
	for i := 1; i <= runs; i++ {
		if drawOf(RunSeed(5, i), "TestMain") < 0.3 {
			want++
		}
	}
	ts := summary(t, testreport.Summarize(recs, testreport.SummaryOptions{}), "pkgexit", testout.PackageTest)
	if ts.Runs != runs || ts.Failures != want || want == 0 || want == runs {
		t.Errorf("(package): %d of %d runs failed, want %d of %d", ts.Failures, ts.Runs, want, runs)
	}
}

// TestCrashRestartsTheRest: a crash in the middle of a process's runs costs the other tests
// none of theirs: what it cut short and the runs it did not reach are made in new processes,
// with a run per process, ten, or as many as the scheduler chooses.
func TestCrashRestartsTheRest(t *testing.T) {
	const runs = 60
	for _, batch := range []int{1, 10, 0} {
		recs := run(t, fixture(t, "crashmid"), Options{Runs: runs, Seed: 2, Batch: batch})
		crashes := 0
		for _, tr := range results(recs, "TestCrashes") {
			if (tr.Outcome == testout.Crash) != (drawOf(tr.Seed, "TestCrashes") < 0.3) {
				t.Errorf("batch %d: run %d with seed %d: %s", batch, tr.Run, tr.Seed, tr.Outcome)
			}
			if tr.Outcome == testout.Crash {
				crashes++
			}
		}
		rep := testreport.Summarize(recs, testreport.SummaryOptions{})
		for _, name := range []string{"TestFirst", "TestCrashes", "TestThird", "TestFourth"} {
			if ts := summary(t, rep, "crashmid", name); ts.Runs != runs {
				t.Errorf("batch %d: %s made %d runs, want %d", batch, name, ts.Runs, runs)
			}
		}
		p := pkgSummary(t, rep, "crashmid")
		if crashes == 0 || p.Cut != 2*crashes || p.Lost != 0 || p.Runs != runs {
			t.Errorf("batch %d: %d crashes; package: %d runs, %d cut, %d lost; want %d cut, none lost", batch, crashes, p.Runs, p.Cut, p.Lost, 2*crashes)
		}
		var b strings.Builder
		rep.WriteText(&b)
		if want := "kept from starting " + strconv.Itoa(2*crashes) + " runs of other tests; " + strconv.Itoa(2*crashes) + " of them were made again"; !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestChildOutlivingTheTest: a child the test started, which holds the output open, neither
// holds up the run nor outlives it.
func TestChildOutlivingTheTest(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("FIXTURE_PIDFILE", pidfile)
	old := testbin.KillGrace
	testbin.KillGrace = time.Hour // were the run waiting on the child's hold of the output, the test would time out
	defer func() { testbin.KillGrace = old }()
	recs := run(t, fixture(t, "child"), Options{Runs: 1})
	if recs[0].Failed() || recs[0].Exit != 0 {
		t.Fatalf("run: %+v", recs[0])
	}
	b, err := os.ReadFile(pidfile)
	pid, _ := strconv.Atoi(string(b))
	if err != nil || pid <= 0 {
		t.Fatalf("the child's pid: %q, %v", b, err)
	}
	// The group was killed when the run ended; the orphan is reaped by init, soon.
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the test's child %d outlived the run", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestInterruptKeepsFinishedRuns: a process that exited with its verdict before the session
// was interrupted is kept, and so is every test that had ended in a process the interrupt
// killed.
func TestInterruptKeepsFinishedRuns(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	old := testbin.AfterExit
	testbin.AfterExit = cancel // the interrupt comes right after the process exited, before the runner looked
	defer func() { testbin.AfterExit = old }()
	opts := Options{Runs: 1, Seed: 1, Parallel: 1}
	recs, err := Execute(ctx, MainJobs([]testbin.Package{fixture(t, "flaky")}, opts), opts)
	testbin.AfterExit = old
	if err != context.Canceled || len(recs) != 1 || recs[0].Interrupted || len(recs[0].Tests) == 0 {
		t.Fatalf("Execute: %v, %+v; want the finished run kept", err, recs)
	}

	// A process killed by the interrupt keeps the tests that ended before it.
	ctx, cancel = context.WithCancel(context.Background())
	opts = Options{Runs: 2, Timeout: time.Hour, Parallel: 2, Batch: 1}
	var started atomic.Int32
	testbin.AfterStart = func() { // interrupt once both processes run
		if started.Add(1) == 2 {
			cancel()
		}
	}
	defer func() { testbin.AfterStart = func() {} }()
	recs, err = Execute(ctx, MainJobs([]testbin.Package{fixture(t, "hang")}, opts), opts)
	if err != context.Canceled || len(recs) != 2 {
		t.Fatalf("Execute of hanging runs: %v, %d records; want canceled and 2", err, len(recs))
	}
	for _, r := range recs {
		if !r.Interrupted || slicesContainsName(r.Tests, "TestHang") {
			t.Errorf("record %+v: want interrupted, TestHang not reported", r)
		}
	}
}

func slicesContainsName(rs []testout.TestResult, name string) bool {
	for _, r := range rs {
		if r.Name == name {
			return true
		}
	}
	return false
}

// TestOverloadRetriesStart: a machine out of process slots (EAGAIN from fork) delays a run;
// it does not turn it into a crash.
func TestOverloadRetriesStart(t *testing.T) {
	old := testbin.StartCmd
	fails := 3
	testbin.StartCmd = func(c *exec.Cmd) error {
		if fails > 0 {
			fails--
			return &os.SyscallError{Syscall: "fork/exec", Err: syscall.EAGAIN}
		}
		return c.Start()
	}
	defer func() { testbin.StartCmd = old }()
	recs := run(t, fixture(t, "readsdata"), Options{Runs: 2, Parallel: 1})
	if len(recs) != 2 || recs[0].Failed() || recs[1].Failed() || recs[0].Error != "" {
		t.Errorf("runs under overload: %+v", recs)
	}
	// A binary that cannot start at all is an error of the run, not a test's crash.
	testbin.StartCmd = func(*exec.Cmd) error { return errors.New("exec format error") }
	recs = run(t, fixture(t, "readsdata"), Options{Runs: 1})
	rep := testreport.Summarize(recs, testreport.SummaryOptions{})
	if p := pkgSummary(t, rep, "readsdata"); recs[0].Error == "" || recs[0].Failed() || p.Lost != 1 {
		t.Errorf("a binary that does not start: %+v, package %+v", recs[0], p)
	}
}

// TestBigOutputKeepsTheReason: a test that prints far more than is kept still shows why it
// failed, and the record stays small.
func TestBigOutputKeepsTheReason(t *testing.T) {
	recs := run(t, fixture(t, "bigout"), Options{Runs: 1})
	out := results(recs, "TestVerbose")[0].Output
	if !strings.Contains(out, "the reason: widget count 7, want 8") || len(out) > testout.MaxOutput+200 || !strings.Contains(out, "bytes cut") {
		t.Errorf("output of %d bytes, reason kept %v:\n%.300s", len(out), strings.Contains(out, "the reason"), out)
	}
}

// TestNoOutputFile: when no file can hold the runs' output, Execute says so rather than
// report a session that made no runs.
func TestNoOutputFile(t *testing.T) {
	p := fixture(t, "readsdata")
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	recs, err := Execute(context.Background(), MainJobs([]testbin.Package{p}, Options{Runs: 2}), Options{Runs: 2, Parallel: 2})
	if err == nil || len(recs) != 0 {
		t.Errorf("Execute without a temporary directory: %v, %d records", err, len(recs))
	}
}
