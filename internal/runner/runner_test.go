package runner

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The fixture packages live in their own module under testdata/fixtures, so that the one that
// does not compile cannot break this module's build, and they need nothing downloaded.
const fixtureDir = "testdata/fixtures"

var (
	fixtureOnce sync.Once
	fixtureBin  string
	fixturePkgs []Package
	fixtureErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureBin != "" {
		os.RemoveAll(fixtureBin)
	}
	os.Exit(code)
}

// fixture returns the built fixture package with the given last path element. All fixtures
// are built once, together, by the first test that asks.
func fixture(t *testing.T, name string) Package {
	t.Helper()
	fixtureOnce.Do(func() {
		fixtureBin, fixtureErr = os.MkdirTemp("", "runner-test-")
		if fixtureErr == nil {
			fixturePkgs, fixtureErr = Build(context.Background(),
				BuildOptions{Dir: fixtureDir, Patterns: []string{"./..."}, OutDir: fixtureBin, Parallel: 2})
		}
	})
	if fixtureErr != nil {
		t.Fatalf("building the fixtures: %v", fixtureErr)
	}
	for _, p := range fixturePkgs {
		if p.ImportPath == "fixtures/"+name {
			return p
		}
	}
	t.Fatalf("no fixture package %q", name)
	return Package{}
}

func summary(t *testing.T, rep *Report, pkg, test string) TestSummary {
	t.Helper()
	for _, p := range rep.Packages {
		if p.ImportPath != "fixtures/"+pkg {
			continue
		}
		for _, ts := range p.Tests {
			if ts.Name == test {
				return ts
			}
		}
	}
	t.Fatalf("no test %s in package %s of the report", test, pkg)
	return TestSummary{}
}

func run(t *testing.T, pkg Package, opts Options) []Record {
	t.Helper()
	if opts.Parallel == 0 {
		opts.Parallel = 2
	}
	recs, err := Execute(context.Background(), MainJobs([]Package{pkg}, opts), opts)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestBuild(t *testing.T) {
	fixture(t, "flaky")
	var names []string
	for _, p := range fixturePkgs {
		names = append(names, strings.TrimPrefix(p.ImportPath, "fixtures/"))
		switch {
		case p.ImportPath == "fixtures/broken":
			if p.Binary != "" || !strings.Contains(p.BuildError, "undefined: undefinedName") {
				t.Errorf("broken: binary %q, error %q; want no binary and the compiler's message", p.Binary, p.BuildError)
			}
		case p.Binary == "" || p.BuildError != "":
			t.Errorf("%s: binary %q, error %q", p.ImportPath, p.Binary, p.BuildError)
		}
	}
	slices.Sort(names)
	want := []string{"attrs", "broken", "exit0", "flaky", "hang", "panicgo", "readsdata", "stuck", "testmain", "unseeded"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("packages (-want +got; notests has no tests and must be skipped):\n%s", diff)
	}
	// The fixtures are another module than the test's working directory: replays cd there.
	p := fixture(t, "flaky")
	if p.Target != "." || p.CdDir != filepath.Join(fixtureDir, "flaky") {
		t.Errorf("flaky: replay target %q in %q, want . in %s/flaky", p.Target, p.CdDir, fixtureDir)
	}
}

func TestBuildNoPackages(t *testing.T) {
	_, err := Build(context.Background(), BuildOptions{Dir: fixtureDir, Patterns: []string{"./notests"}, OutDir: t.TempDir()})
	if err != ErrNoPackages {
		t.Errorf("Build of a package without tests: %v, want ErrNoPackages", err)
	}
}

// wantFail mirrors the fixture's draw: whether the named flaky test fails under a seed.
func wantFail(seed uint64, name string, rate float64) bool {
	var h uint64
	for _, c := range name {
		h = h*31 + uint64(c)
	}
	return rand.New(rand.NewPCG(seed, h)).Float64() < rate
}

// TestFlakyRate runs a package whose tests fail at known rates: the failing runs must be
// exactly those whose seeds say so, and the intervals must cover the true rates.
func TestFlakyRate(t *testing.T) {
	const runs, seed = 300, 1
	pkg := fixture(t, "flaky")
	recs := run(t, pkg, Options{Runs: runs, Seed: seed})
	rep := Summarize(recs, SummaryOptions{})
	for _, c := range []struct {
		name, drawName string
		rate           float64
	}{{"TestFlaky", "TestFlaky", 0.10}, {"TestSub/a_b/c.d", "TestSub/a_b/c.d", 0.20}} {
		ts := summary(t, rep, "flaky", c.name)
		var wantRuns, gotRuns []int
		for i := 1; i <= runs; i++ {
			if wantFail(RunSeed(seed, i), c.drawName, c.rate) {
				wantRuns = append(wantRuns, i)
			}
		}
		for _, f := range ts.Failing {
			gotRuns = append(gotRuns, f.Run)
		}
		if diff := cmp.Diff(wantRuns, gotRuns); diff != "" {
			t.Errorf("%s: failing runs (-want +got):\n%s", c.name, diff)
		}
		if ts.Runs != runs || !(ts.Lower <= c.rate && c.rate <= ts.Upper) {
			t.Errorf("%s: %d/%d failed, interval [%v, %v] misses the true rate %v", c.name, ts.Bad(), ts.Runs, ts.Lower, ts.Upper, c.rate)
		}
	}
	if ts := summary(t, rep, "flaky", "TestSteady"); ts.Bad() != 0 || ts.Runs != runs || ts.Lower != 0 {
		t.Errorf("TestSteady: %+v", ts.Counts)
	}
	if ts := summary(t, rep, "flaky", "TestSkipped"); ts.Runs != 0 || ts.Skips != runs {
		t.Errorf("TestSkipped: %+v, want %d skips and no runs", ts.Counts, runs)
	}
	if ts := summary(t, rep, "flaky", "TestSub"); ts.Bad() != summary(t, rep, "flaky", "TestSub/a_b/c.d").Bad() {
		t.Errorf("TestSub fails %d times, its failing subtest %d", ts.Bad(), summary(t, rep, "flaky", "TestSub/a_b/c.d").Bad())
	}
	if got, want := rep.ExitCode(), ExitFlaky; got != want {
		t.Errorf("exit code %d, want %d", got, want)
	}
	// With a threshold of 50%, no interval lies above it.
	if rep := Summarize(recs, SummaryOptions{MaxFlake: 0.5}); rep.ExitCode() != ExitClean {
		t.Errorf("-max-flake 0.5: exit code %d, flaky %v", rep.ExitCode(), rep.Flaky)
	}
}

// TestReplay checks that the printed command replays a failing run: run through a shell, from
// the directory the runner ran in, it fails with the same message.
func TestReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	pkg := fixture(t, "flaky")
	rep := Summarize(run(t, pkg, Options{Runs: 40, Seed: 7}), SummaryOptions{})
	ts := summary(t, rep, "flaky", "TestSub/a_b/c.d")
	if len(ts.Failing) == 0 {
		t.Fatal("no failing run to replay")
	}
	f := ts.Failing[0]
	want := "cd testdata/fixtures/flaky && SPREADCHECK_SEED=" + strconv.FormatUint(f.Seed, 10) +
		` go test -run '^TestSub$/^a_b$/^c\.d$' -count=1 .`
	if f.Replay != want {
		t.Errorf("replay command\n got %s\nwant %s", f.Replay, want)
	}
	out, err := exec.Command("sh", "-c", f.Replay).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "unlucky draw") {
		t.Errorf("replay %s: err %v, output:\n%s", f.Replay, err, out)
	}
	// The runner's own replay check agrees.
	recs, err := Execute(context.Background(), ReplayJobs([]Package{pkg}, rep, 10), Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep = Summarize(append(run(t, pkg, Options{Runs: 40, Seed: 7}), recs...), SummaryOptions{})
	for _, name := range []string{"TestFlaky", "TestSub", "TestSub/a_b/c.d"} {
		if got := summary(t, rep, "flaky", name).Replayed; got != Reproduced {
			t.Errorf("%s: replay %q, want %q", name, got, Reproduced)
		}
	}
}

// TestUnseeded: a test whose failures do not follow from its seed is reported as such.
func TestUnseeded(t *testing.T) {
	pkg := fixture(t, "unseeded")
	recs := run(t, pkg, Options{Runs: 4, Seed: 1})
	rep := Summarize(recs, SummaryOptions{})
	replays, err := Execute(context.Background(), ReplayJobs([]Package{pkg}, rep, 10), Options{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep = Summarize(append(recs, replays...), SummaryOptions{})
	ts := summary(t, rep, "unseeded", "TestUnseeded")
	if ts.Bad() != 2 || ts.Replayed != NotReproduced {
		t.Errorf("TestUnseeded: %d failures, replay %q; want 2 and %q", ts.Bad(), ts.Replayed, NotReproduced)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "seed PASSED") {
		t.Errorf("the report does not say the seed does not replay the failure:\n%s", b.String())
	}
}

// TestCrashes runs the fixtures that end the process in every way a test can.
func TestCrashes(t *testing.T) {
	old := watchdogGrace
	watchdogGrace = 200 * time.Millisecond
	t.Cleanup(func() { watchdogGrace = old }) // after the parallel subtests, unlike a defer

	tests := []struct {
		pkg     string
		timeout time.Duration
		want    map[string]Outcome // tests that must not appear map to ""
		output  string             // in the failing test's output
	}{
		{"panicgo", 0, map[string]Outcome{"TestBefore": Pass, "TestPanicInGoroutine": Crash, "TestAfter": ""}, "panic: boom in a goroutine"},
		{"exit0", 0, map[string]Outcome{"TestExit": Crash}, "unexpected call to os.Exit(0) during test"},
		// The hanging test sleeps for an hour; a 2s timeout leaves a wide margin for TestQuick.
		{"hang", 2 * time.Second, map[string]Outcome{"TestQuick": Pass, "TestHang": Hang}, "panic: test timed out after 2s"},
		// TestMain sleeps before -test.timeout is armed: only the watchdog's SIGQUIT stops it.
		{"stuck", 300 * time.Millisecond, map[string]Outcome{PackageTest: Hang, "TestNeverRuns": ""}, "SIGQUIT"},
		{"testmain", 0, map[string]Outcome{"TestPasses": Pass, PackageTest: Fail}, "leak check failed"},
		{"readsdata", 0, map[string]Outcome{"TestReadsTestdata": Pass}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.pkg, func(t *testing.T) {
			t.Parallel()
			recs := run(t, fixture(t, tc.pkg), Options{Runs: 2, Seed: 1, Timeout: tc.timeout})
			if len(recs) != 2 {
				t.Fatalf("%d records, want 2", len(recs))
			}
			for _, r := range recs {
				got := map[string]TestResult{}
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
			rep := Summarize(recs, SummaryOptions{})
			wantExit := ExitFlaky
			if tc.pkg == "readsdata" {
				wantExit = ExitClean
			}
			if rep.ExitCode() != wantExit {
				t.Errorf("exit code %d, want %d", rep.ExitCode(), wantExit)
			}
		})
	}
}

func TestBuildFailureReport(t *testing.T) {
	rep := Summarize([]Record{{Package: fixture(t, "broken"), Phase: Main}}, SummaryOptions{})
	if rep.ExitCode() != ExitBuild {
		t.Errorf("exit code %d, want %d", rep.ExitCode(), ExitBuild)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "build failed") || !strings.Contains(b.String(), "undefined: undefinedName") {
		t.Errorf("report:\n%s", b.String())
	}
}

// TestSizedChecks compares failures with the rate the test's own checks allow.
func TestSizedChecks(t *testing.T) {
	rep := Summarize(run(t, fixture(t, "attrs"), Options{Runs: 200, Seed: 3}), SummaryOptions{})
	broken := summary(t, rep, "attrs", "TestBroken")
	if broken.Bad() == 0 || broken.Allowed < 1.9e-9 || broken.Allowed > 2.1e-9 || broken.Chance >= NotChance || !broken.Seeded {
		t.Errorf("TestBroken: %d failures, allowed %v, chance %v, seeded %v", broken.Bad(), broken.Allowed, broken.Chance, broken.Seeded)
	}
	if v := broken.verdict(); !strings.Contains(v, "not chance") {
		t.Errorf("TestBroken verdict %q", v)
	}
	sized := summary(t, rep, "attrs", "TestSized")
	if sized.Bad() == 0 || sized.Allowed != 0.05 || sized.Chance < NotChance {
		t.Errorf("TestSized: %d failures, allowed %v, chance %v", sized.Bad(), sized.Allowed, sized.Chance)
	}
	if v := sized.verdict(); strings.Contains(v, "not chance") {
		t.Errorf("TestSized verdict %q", v)
	}
}

// TestShardMerge: three shards written to results files and merged give the same report as
// one session.
func TestShardMerge(t *testing.T) {
	pkg := fixture(t, "flaky")
	dir := t.TempDir()
	var files []string
	for k := 1; k <= 3; k++ {
		opts := Options{Runs: 30, Seed: 5, Shard: Shard{k, 3}, Parallel: 2}
		path := filepath.Join(dir, strconv.Itoa(k)+".jsonl")
		rf, err := CreateResults(path, Header{Seed: 5, Runs: 30, Shard: opts.Shard.String()})
		if err != nil {
			t.Fatal(err)
		}
		opts.OnRecord = rf.Add
		if _, err := Execute(context.Background(), MainJobs([]Package{pkg}, opts), opts); err != nil {
			t.Fatal(err)
		}
		if err := rf.Close(End{Seconds: 1}); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	m, err := MergeResults(files...)
	if err != nil {
		t.Fatal(err)
	}
	whole := Summarize(run(t, pkg, Options{Runs: 30, Seed: 5}), SummaryOptions{})
	merged := Summarize(m.Records, SummaryOptions{})
	if diff := cmp.Diff(whole.Packages, merged.Packages); diff != "" || m.Incomplete || len(m.Records) != 30 {
		t.Errorf("merged shards differ from one session (incomplete %v, %d records):\n%s", m.Incomplete, len(m.Records), diff)
	}
	if _, err := MergeResults(files[0], files[0]); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("merging a shard with itself: %v, want an overlap error", err)
	}
	other := filepath.Join(dir, "other.jsonl")
	rf, _ := CreateResults(other, Header{Seed: 6, Runs: 30, Shard: "1/3"})
	rf.Close(End{})
	if _, err := MergeResults(files[1], other); err == nil || !strings.Contains(err.Error(), "different sessions") {
		t.Errorf("merging shards of different seeds: %v", err)
	}
}

func TestParseShard(t *testing.T) {
	s, err := ParseShard("2/4")
	if err != nil || s != (Shard{2, 4}) || !s.Has(2) || !s.Has(6) || s.Has(3) {
		t.Errorf("ParseShard(2/4) = %v, %v", s, err)
	}
	for _, bad := range []string{"", "0/4", "5/4", "1/0", "a/b", "1", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q): no error", bad)
		}
	}
}

// TestKilledSessionFile: a results file cut off mid-line is read up to the cut, and marked
// incomplete.
func TestKilledSessionFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, _ := CreateResults(path, Header{Seed: 1, Runs: 10})
	rf.Add(Record{Package: Package{ImportPath: "p"}, Run: 1, Phase: Main, Tests: []TestResult{{Name: "TestA", Outcome: Pass}}})
	rf.f.WriteString(`{"record":{"package":"p","ru`)
	rf.f.Close()
	m, err := MergeResults(path)
	if err != nil || len(m.Records) != 1 || !m.Incomplete {
		t.Errorf("MergeResults of a cut file: %v, %+v", err, m)
	}
}

func TestRerun(t *testing.T) {
	pkg := fixture(t, "flaky")
	opts := Options{Runs: 30, Seed: 1, Parallel: 2}
	recs := run(t, pkg, opts)
	first := Summarize(recs, SummaryOptions{})
	jobs := RerunJobs([]Package{pkg}, first, 50, opts)
	if len(jobs) != 50 || jobs[0].Filter != "^(TestFlaky|TestSub)$" || jobs[0].Run != 31 {
		t.Fatalf("rerun jobs: %d, first %+v", len(jobs), jobs[0])
	}
	more, err := Execute(context.Background(), jobs, opts)
	if err != nil {
		t.Fatal(err)
	}
	rep := Summarize(append(recs, more...), SummaryOptions{})
	flaky := summary(t, rep, "flaky", "TestFlaky")
	if flaky.Runs != 30 || flaky.Rerun == nil || flaky.Rerun.Runs != 50 {
		t.Errorf("TestFlaky: main %+v, rerun %+v", flaky.Counts, flaky.Rerun)
	}
	if steady := summary(t, rep, "flaky", "TestSteady"); steady.Rerun != nil {
		t.Errorf("TestSteady passed and was rerun anyway")
	}
	// The reruns of two shards get different numbers, hence seeds.
	a := RerunJobs([]Package{pkg}, first, 3, Options{Runs: 30, Shard: Shard{1, 2}})
	b := RerunJobs([]Package{pkg}, first, 3, Options{Runs: 30, Shard: Shard{2, 2}})
	var nums []int
	for _, j := range append(a, b...) {
		nums = append(nums, j.Run)
	}
	slices.Sort(nums)
	if want := []int{31, 32, 33, 34, 35, 36}; !slices.Equal(nums, want) {
		t.Errorf("rerun numbers of shards 1/2 and 2/2: %v, want %v", nums, want)
	}
}

// TestInterrupt: a cancelled session keeps every finished run, loses none to the kill, and
// reports itself interrupted.
func TestInterrupt(t *testing.T) {
	pkg := fixture(t, "flaky")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []Record
	opts := Options{Runs: 500, Seed: 1, Parallel: 2, OnRecord: func(r Record) {
		seen = append(seen, r)
		if len(seen) == 5 {
			cancel()
		}
	}}
	recs, err := Execute(ctx, MainJobs([]Package{pkg}, opts), opts)
	if err != context.Canceled || len(recs) < 5 || len(recs) > 8 || len(seen) != len(recs) {
		t.Errorf("Execute: %v, %d records, %d seen", err, len(recs), len(seen))
	}

	// Runs that are still going when the session is stopped are killed, not waited for.
	hang := fixture(t, "hang")
	ctx, cancel = context.WithCancel(context.Background())
	opts = Options{Runs: 2, Timeout: time.Hour, Parallel: 2}
	time.AfterFunc(200*time.Millisecond, cancel)
	recs, err = Execute(ctx, MainJobs([]Package{hang}, opts), opts)
	if err != context.Canceled || len(recs) != 0 {
		t.Errorf("Execute of hanging runs: %v, %d records; want canceled and none", err, len(recs))
	}
	rep := Summarize(recs, SummaryOptions{})
	rep.Interrupted = true
	if rep.ExitCode() != ExitInterrupted {
		t.Errorf("exit code %d, want %d", rep.ExitCode(), ExitInterrupted)
	}
}

func TestRunSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	rf, err := CreateResults(path, Header{Seed: 9, Runs: 20})
	if err != nil {
		t.Fatal(err)
	}
	logs := t.TempDir()
	var progress []Progress
	rep, err := RunSession(context.Background(), Config{
		Build:   BuildOptions{Dir: fixtureDir, Patterns: []string{"./flaky", "./readsdata", "./broken"}},
		Options: Options{Runs: 20, Seed: 9, Parallel: 2, LogDir: logs, OnProgress: func(p Progress) { progress = append(progress, p) }},
		Rerun:   10, ReplayLimit: 5, Results: rf,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := rf.Close(End{Seconds: rep.Seconds}); err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != ExitBuild || rep.BuildErrors != 1 || rep.Seed != 9 || rep.Runs != 20 {
		t.Errorf("report: exit %d, %d build errors, seed %d, runs %d", rep.ExitCode(), rep.BuildErrors, rep.Seed, rep.Runs)
	}
	ts := summary(t, rep, "flaky", "TestFlaky")
	if ts.Rerun == nil || ts.Rerun.Runs != 10 || ts.Replayed != Reproduced {
		t.Errorf("TestFlaky: rerun %+v, replay %q", ts.Rerun, ts.Replayed)
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
	// The results file holds everything the report was made from.
	m, err := MergeResults(path)
	if err != nil {
		t.Fatal(err)
	}
	again := Summarize(m.Records, SummaryOptions{})
	if diff := cmp.Diff(rep.Packages, again.Packages); diff != "" {
		t.Errorf("report from the results file differs (-session +file):\n%s", diff)
	}
}

// TestBuildCache: builds go through the cache directory, and every session runs its own copy.
func TestBuildCache(t *testing.T) {
	cache := t.TempDir()
	build := func() Package {
		pkgs, err := Build(context.Background(), BuildOptions{Dir: fixtureDir, Patterns: []string{"./readsdata"},
			OutDir: t.TempDir(), CacheDir: cache})
		if err != nil || len(pkgs) != 1 || pkgs[0].Binary == "" {
			t.Fatalf("Build: %v, %+v", err, pkgs)
		}
		return pkgs[0]
	}
	p := build()
	cached, _ := filepath.Glob(filepath.Join(cache, "*-readsdata.test"))
	if len(cached) != 1 {
		t.Fatalf("cache holds %v", cached)
	}
	// That the go command skips the link of an up-to-date binary shows in time, not in the
	// file system: the side-by-side benchmark in benchmarks/runner measures it.
	q := build()
	if p.Binary == q.Binary || p.Binary == cached[0] {
		t.Errorf("sessions share a binary: %s, %s", p.Binary, q.Binary)
	}
	if recs := run(t, q, Options{Runs: 2}); len(recs) != 2 || recs[0].Failed() {
		t.Errorf("runs of the copied binary: %+v", recs)
	}
}

// TestUnrunPackages: a package that built but finished no run is listed, not left out.
func TestUnrunPackages(t *testing.T) {
	ran := Package{ImportPath: "x/ran", Binary: "/bin/ran"}
	idle := Package{ImportPath: "x/idle", Binary: "/bin/idle"}
	rep := Summarize([]Record{{Package: ran, Run: 1, Phase: Main, Tests: []TestResult{{Name: "TestA", Outcome: Pass}}}}, SummaryOptions{})
	addUnrun(rep, []Package{ran, idle})
	if len(rep.Packages) != 2 || rep.Packages[0].ImportPath != "x/idle" || rep.Packages[0].Runs != 0 || rep.Packages[0].Binary != "" {
		t.Fatalf("packages: %+v", rep.Packages)
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "x/idle (0 runs)\n    no tests ran") {
		t.Errorf("report:\n%s", b.String())
	}
}

// TestReplayJobsSkipHangs: a test whose failures all hung is not replayed (each replay would
// cost a whole timeout); one that also failed otherwise is replayed with that run's seed.
func TestReplayJobsSkipHangs(t *testing.T) {
	p := Package{ImportPath: "x/p", Binary: "/bin/p"}
	rec := func(run int, hang, flaky Outcome) Record {
		return Record{Package: p, Run: run, Seed: uint64(100 + run), Phase: Main,
			Tests: []TestResult{{Name: "TestHang", Outcome: hang}, {Name: "TestMixed", Outcome: flaky}}}
	}
	rep := Summarize([]Record{rec(1, Hang, Hang), rec(2, Hang, Fail), rec(3, Pass, Pass)}, SummaryOptions{})
	jobs := ReplayJobs([]Package{p}, rep, 10)
	if len(jobs) != 1 || jobs[0].Filter != "^TestMixed$" || jobs[0].Run != 2 || jobs[0].Seed != 102 {
		t.Errorf("replay jobs %+v, want one of TestMixed with run 2's seed", jobs)
	}
}
