package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

func TestRunSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, err := resultsfile.CreateResults(path, resultsfile.Header{Seed: 9, Runs: 20})
	if err != nil {
		t.Fatal(err)
	}
	logs := t.TempDir()
	cache := testbin.Cache{Dir: t.TempDir()}
	var progress []Progress
	rep, err := RunSession(context.Background(), Config{
		Build:   testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./flaky", "./readsdata", "./broken"}, CacheDir: fixtureCache()},
		Options: Options{Runs: 20, Seed: 9, Batch: 4, Parallel: 2, LogDir: logs, OnProgress: func(p Progress) { progress = append(progress, p) }},
		Rerun:   10, ReplayLimit: 5, Results: rf, Cache: cache,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rf.Close(resultsfile.End{Seconds: rep.Seconds}); err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != testreport.ExitBuild || rep.BuildErrors != 1 || rep.Seed != 9 || rep.Runs != 20 {
		t.Errorf("report: exit %d, %d build errors, seed %d, runs %d", rep.ExitCode(), rep.BuildErrors, rep.Seed, rep.Runs)
	}
	ts := summary(t, rep, "flaky", "TestFlaky")
	if ts.Rerun == nil || ts.Rerun.Runs != 10 || ts.Replay == nil || ts.Replay.Verdict != testreport.DependsOnSeed {
		t.Errorf("TestFlaky: rerun %+v, replay %+v", ts.Rerun, ts.Replay)
	}
	if len(ts.Failing) == 0 || ts.Failing[0].Log == "" {
		t.Fatalf("TestFlaky: no log for its failing runs: %+v", ts.Failing)
	}
	if b, err := os.ReadFile(ts.Failing[0].Log); err != nil || !strings.Contains(string(b), "unlucky draw") {
		t.Errorf("log %s: %v\n%s", ts.Failing[0].Log, err, b)
	}
	if last := progress[len(progress)-1]; last.Done != last.Total {
		t.Errorf("last progress %+v", last)
	}
	// The session's folder is gone.
	if left, _ := filepath.Glob(filepath.Join(cache.Dir, "sessions", "s-*")); len(left) != 0 {
		t.Errorf("session folders left behind: %v", left)
	}
	// The results file holds everything the report was made from.
	m, err := resultsfile.MergeResults(path)
	if err != nil {
		t.Fatal(err)
	}
	again := testreport.Summarize(m.Records, testreport.SummaryOptions{})
	if diff := cmp.Diff(rep.Packages, again.Packages, cmpopts.IgnoreFields(testreport.Failure{}, "Process")); diff != "" {
		t.Errorf("report from the results file differs (-session +file):\n%s", diff)
	}
}

// TestBuildCache: builds go through the cache directory, and every session runs its own copy.
func TestBuildCache(t *testing.T) {
	cache := t.TempDir()
	build := func() testbin.Package {
		pkgs, err := testbin.Build(context.Background(), testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./readsdata"},
			OutDir: t.TempDir(), CacheDir: cache})
		if err != nil || len(pkgs) != 1 || pkgs[0].Binary == "" {
			t.Fatalf("Build: %v, %+v", err, pkgs)
		}
		return pkgs[0]
	}
	p := build()
	cached, _ := filepath.Glob(filepath.Join(cache, "*", "readsdata.test"))
	if len(cached) != 1 {
		t.Fatalf("cache holds %v", cached)
	}
	// That the go command skips the link of an up-to-date binary shows in time, not in the
	// file system: the side-by-side benchmark in benchmarks/runner measures it.
	q := build()
	if p.Binary == q.Binary || p.Binary == cached[0] {
		t.Errorf("sessions share a binary: %s, %s", p.Binary, q.Binary)
	}
	if recs := run(t, q, Options{Runs: 2}); len(recs) == 0 || recs[0].Failed() {
		t.Errorf("runs of the copied binary: %+v", recs)
	}
	// The copy is a hard link, which the go command's rebuild (it removes the old binary and
	// writes a new file) leaves as it was.
	if st, err := os.Stat(q.Binary); err != nil || !sameFile(t, cached[0], st) {
		t.Errorf("the session's binary %s is not a link of the cached one: %v", q.Binary, err)
	}
	if err := os.Remove(cached[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cached[0], []byte("#!/bin/sh\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if recs := run(t, q, Options{Runs: 2}); len(recs) == 0 || recs[0].Failed() || recs[0].Exit != 0 {
		t.Errorf("runs of the session's binary after a rebuild of the cached one: %+v", recs)
	}
}

func sameFile(t *testing.T, path string, st os.FileInfo) bool {
	t.Helper()
	other, err := os.Stat(path)
	return err == nil && os.SameFile(st, other)
}

// TestCacheTrim: the folder of a session that died goes, a running session's stays; binaries
// unused for a week go; the newest results files stay.
func TestCacheTrim(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	stale, recent := filepath.Join(os.TempDir(), "spreadcheck-bin-123"), filepath.Join(os.TempDir(), "spreadcheck-bin-456")
	os.Mkdir(stale, 0o755)
	os.Mkdir(recent, 0o755)
	os.Chtimes(stale, time.Now().Add(-48*time.Hour), time.Now().Add(-48*time.Hour))
	c := testbin.Cache{Dir: t.TempDir()}
	live, done, err := c.Session()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	dead := filepath.Join(c.Dir, "sessions", "s-dead")
	os.MkdirAll(dead, 0o755)
	os.WriteFile(filepath.Join(dead, "lock"), nil, 0o644) // its owner is gone: nobody holds the lock
	// A folder of binaries with an old one and a fresh one, a folder of old ones only, and an
	// earlier version's cached binary, a file of its own.
	set, oldSet := filepath.Join(c.Binaries(), "k-0"), filepath.Join(c.Binaries(), "j-0")
	os.MkdirAll(set, 0o755)
	os.MkdirAll(oldSet, 0o755)
	old, fresh, alone := filepath.Join(set, "a.test"), filepath.Join(set, "b.test"), filepath.Join(c.Binaries(), "a-old.test")
	inOldSet := filepath.Join(oldSet, "c.test")
	for _, f := range []string{old, fresh, alone, inOldSet} {
		os.WriteFile(f, nil, 0o755)
	}
	now := time.Now()
	for _, f := range []string{old, alone, inOldSet} {
		os.Chtimes(f, now.Add(-8*24*time.Hour), now.Add(-8*24*time.Hour))
	}
	for i := range testbin.KeepResults + 5 {
		p, _ := c.ResultsPath(now.Add(time.Duration(i)*time.Second), 1)
		os.WriteFile(p, nil, 0o644)
	}
	c.Trim(now)
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	if exists(dead) || !exists(live) || exists(old) || !exists(fresh) || exists(stale) || !exists(recent) {
		t.Errorf("after the trim: dead session %v, live session %v, old binary %v, fresh binary %v, an earlier version's day-old folder %v, a recent one %v",
			exists(dead), exists(live), exists(old), exists(fresh), exists(stale), exists(recent))
	}
	if exists(alone) || exists(oldSet) || exists(oldSet+".lock") || !exists(set) {
		t.Errorf("after the trim: an earlier version's old binary %v, an emptied folder %v (its lock %v), a folder still used %v",
			exists(alone), exists(oldSet), exists(oldSet+".lock"), exists(set))
	}
	if left, _ := filepath.Glob(filepath.Join(c.Dir, "results", "*.jsonl")); len(left) != testbin.KeepResults {
		t.Errorf("%d results files left, want %d", len(left), testbin.KeepResults)
	}
}

// TestUnrunPackages: a package that built but finished no run is listed, not left out.
func TestUnrunPackages(t *testing.T) {
	ran := testbin.Package{ImportPath: "x/ran", Binary: "/bin/ran"}
	idle := testbin.Package{ImportPath: "x/idle", Binary: "/bin/idle"}
	rep := testreport.Summarize([]resultsfile.Record{{Package: ran, Run: 1, Phase: resultsfile.Main, Tests: []testout.TestResult{{Name: "TestA", Run: 1, Outcome: testout.Pass}}}}, testreport.SummaryOptions{})
	addUnrun(rep, []testbin.Package{ran, idle})
	if len(rep.Packages) != 2 || rep.Packages[0].ImportPath != "x/idle" || rep.Packages[0].Runs != 0 || rep.Packages[0].Binary != "" {
		t.Fatalf("packages: %+v", rep.Packages)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "x/idle (0 runs in 0 processes)\n    no tests ran") {
		t.Errorf("report:\n%s", b.String())
	}
}

// TestNoTestRan: a -run that matches no test is not a green ok.
func TestNoTestRan(t *testing.T) {
	rep := testreport.Summarize(run(t, fixture(t, "flaky"), Options{Runs: 2, Run: "TestTypo"}), testreport.SummaryOptions{})
	var b strings.Builder
	rep.WriteText(&b)
	if !rep.NoTests || rep.ExitCode() != testreport.ExitBuild || !strings.Contains(b.String(), "NO TESTS") {
		t.Errorf("exit %d:\n%s", rep.ExitCode(), b.String())
	}
}

func TestRerun(t *testing.T) {
	pkg := fixture(t, "flaky")
	opts := Options{Runs: 30, Seed: 1, Parallel: 2, Batch: 1}
	recs := run(t, pkg, opts)
	first := testreport.Summarize(recs, testreport.SummaryOptions{})
	jobs := RerunJobs([]testbin.Package{pkg}, first, 50, opts)
	if len(jobs) != 1 || jobs[0].Filter != "^(TestFlaky|TestSub)$" || jobs[0].Run != 31 || jobs[0].Count != 50 {
		t.Fatalf("rerun jobs: %+v", jobs)
	}
	more, err := Execute(context.Background(), jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	rep := testreport.Summarize(append(recs, more...), testreport.SummaryOptions{})
	flaky := summary(t, rep, "flaky", "TestFlaky")
	if flaky.Runs != 30 || flaky.Rerun == nil || flaky.Rerun.Runs != 50 {
		t.Errorf("TestFlaky: main %+v, rerun %+v", flaky.Counts, flaky.Rerun)
	}
	if steady := summary(t, rep, "flaky", "TestSteady"); steady.Rerun != nil {
		t.Errorf("TestSteady passed and was rerun anyway")
	}
	// The reruns of two shards get different numbers, hence seeds.
	a := RerunJobs([]testbin.Package{pkg}, first, 3, Options{Runs: 30, Shard: resultsfile.Shard{K: 1, N: 2}})
	b := RerunJobs([]testbin.Package{pkg}, first, 3, Options{Runs: 30, Shard: resultsfile.Shard{K: 2, N: 2}})
	if a[0].Run != 31 || b[0].Run != 32 || a[0].Stride != 2 || b[0].Stride != 2 {
		t.Errorf("rerun jobs of shards 1/2 and 2/2: %+v, %+v", a, b)
	}
}

// TestReplayJobsSkipHangs: a test whose failures all hung is not replayed (each replay would
// cost a whole timeout); one that also failed otherwise is replayed with that run's seed.
func TestReplayJobsSkipHangs(t *testing.T) {
	p := testbin.Package{ImportPath: "x/p", Binary: "/bin/p"}
	rec := func(run int, hang, mixed testout.Outcome) resultsfile.Record {
		seed := uint64(100 + run)
		return resultsfile.Record{Package: p, Run: run, Seed: seed, Phase: resultsfile.Main,
			Tests: []testout.TestResult{{Name: "TestHang", Run: run, Seed: seed, Outcome: hang}, {Name: "TestMixed", Run: run, Seed: seed, Outcome: mixed}}}
	}
	rep := testreport.Summarize([]resultsfile.Record{rec(1, testout.Hang, testout.Hang), rec(2, testout.Hang, testout.Fail), rec(3, testout.Pass, testout.Pass)}, testreport.SummaryOptions{})
	jobs := ReplayJobs([]testbin.Package{p}, rep, 10)
	if len(jobs) != testreport.ReplaysPerSeed || jobs[0].Filter != "^TestMixed$" || jobs[0].Run != 2 || jobs[0].Seed != 102 {
		t.Errorf("replay jobs %+v, want %d of TestMixed with run 2's seed", jobs, testreport.ReplaysPerSeed)
	}
}

// TestStoppingRules: -failfast stops at the first failing run, -until when its budget is
// spent, -precision each test once its interval is narrow enough; the report says which.
func TestStoppingRules(t *testing.T) {
	build := testbin.BuildOptions{Dir: fixtureDir, Patterns: []string{"./flaky"}, CacheDir: fixtureCache()}
	session := func(o Options) *testreport.Report {
		o.Seed, o.Parallel, o.Batch = 1, 1, 1
		rep, err := RunSession(context.Background(), Config{Build: build, Options: o, Cache: testbin.Cache{Dir: t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// The first failing run of flaky under seed 1, as its seeds decide.
	first := 0
	for i := 1; first == 0; i++ {
		if s := RunSeed(1, i); drawOf(s, "TestFlaky") < 0.1 || drawOf(s, "TestSub/a_b/c.d") < 0.2 {
			first = i
		}
	}
	rep := session(Options{Runs: 300, FailFast: true})
	if p := pkgSummary(t, rep, "flaky"); p.Runs != first || !strings.Contains(rep.Stopped, "-failfast") {
		t.Errorf("-failfast: %d runs, want %d; stopped %q", p.Runs, first, rep.Stopped)
	}
	rep = session(Options{Runs: 300, Until: time.Nanosecond})
	if p := pkgSummary(t, rep, "flaky"); p.Runs != 0 || !strings.Contains(rep.Stopped, "-until 1ns ran out after 0 of 300 runs") {
		t.Errorf("-until: %d runs; stopped %q", p.Runs, rep.Stopped)
	}
	rep = session(Options{Runs: 300, Precision: 0.3})
	steady, flaky := summary(t, rep, "flaky", "TestSteady"), summary(t, rep, "flaky", "TestFlaky")
	for _, ts := range []testreport.TestSummary{steady, flaky} {
		if ts.Upper-ts.Lower >= 0.3 {
			t.Errorf("-precision 0.3: %s stopped at [%v, %v]", ts.Name, ts.Lower, ts.Upper)
		}
	}
	if !(steady.Runs < flaky.Runs && flaky.Runs < 300) || !strings.Contains(rep.Stopped, "-precision") {
		t.Errorf("-precision 0.3: TestSteady made %d runs, TestFlaky %d; stopped %q", steady.Runs, flaky.Runs, rep.Stopped)
	}
}
