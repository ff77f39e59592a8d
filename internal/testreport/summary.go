package testreport

import (
	"slices"
	"strconv"

	"github.com/spreadcheck/spreadcheck/internal/replay"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// Counts tallies one test's outcomes over runs.
type Counts struct {
	Runs     int `json:"runs"`     // runs in which the test ran to an outcome other than a skip
	Failures int `json:"failures"` // runs it failed (t.Error, t.Fatal)
	Crashes  int `json:"crashes"`  // runs in which the process died while it ran
	Hangs    int `json:"hangs"`    // runs in which the timeout expired while it ran
	Skips    int `json:"skips"`    // runs in which it skipped
}

// Bad is the number of runs the test did not pass: failures, crashes and hangs.
func (c Counts) Bad() int { return c.Failures + c.Crashes + c.Hangs }

// Add counts one run's outcome.
func (c *Counts) Add(o testout.Outcome) {
	switch o {
	case testout.Skip:
		c.Skips++
		return
	case testout.Fail:
		c.Failures++
	case testout.Crash:
		c.Crashes++
	case testout.Hang:
		c.Hangs++
	}
	c.Runs++
}

// Rate is a failure rate with its 95% confidence interval (sizing.ClopperPearson).
type Rate struct {
	Rate  float64 `json:"rate"`  // failures, crashes and hangs over runs
	Lower float64 `json:"lower"` // the lower end of its 95% Clopper-Pearson interval
	Upper float64 `json:"upper"` // the upper end
}

// RateOf is the failure rate of the counts, with its 95% interval.
func RateOf(c Counts) Rate {
	if c.Runs == 0 {
		return Rate{}
	}
	lo, hi, _ := sizing.ClopperPearson(c.Bad(), c.Runs, 1-Confidence)
	return Rate{float64(c.Bad()) / float64(c.Runs), lo, hi}
}

// Failure is one failing run of a test.
type Failure struct {
	Run     int             `json:"run"`           // the run's number
	Seed    uint64          `json:"seed,string"`   // the run's seed
	Outcome testout.Outcome `json:"outcome"`       // fail, crash or hang
	Replay  string          `json:"replay"`        // the shell command that replays the run
	Log     string          `json:"log,omitempty"` // the process's whole output, when saved with -o
	Seconds float64         `json:"seconds"`       // the run's time, as package testing measured it
	// Process is the record of the process the run was made in, its tests left out: what a
	// replay repeats. It is nil in a report read back from JSON.
	Process *resultsfile.Record `json:"-"`
}

// TestSummary is everything the report says about one test.
type TestSummary struct {
	Name string `json:"name"` // the test's full name, subtests included (TestX/case_1), or "(package)"
	Counts
	Rate
	// Allowed is the failure rate per run that the test's own spread checks allow, from the
	// alphas they recorded (the largest over runs); 0 when it recorded none.
	Allowed float64 `json:"allowed,omitempty"`
	// Chance is the probability of this many failures or more if the test failed at the Allowed
	// rate: a tiny Chance means the failures are not the sizing's doing.
	Chance  float64   `json:"chance,omitempty"`
	Seeded  bool      `json:"seeded,omitempty"`  // the test recorded the seed it drew from (spreadcheck.seed)
	Failing []Failure `json:"failing,omitempty"` // every failing run of the main pass, by run number
	Output  string    `json:"output,omitempty"`  // the output of the first failing run
	// Duration summarizes the test's run times, as package testing measured them.
	Duration Durations `json:"duration"`
	// Replay says whether replaying failing runs' seeds fails again more often than the test
	// fails anyway: whether the failures depend on the seed.
	Replay *ReplayCheck `json:"replay,omitempty"`
	// Rerun holds the counts and rate from -rerun alone. They are kept apart from the main
	// pass: the tests were chosen for rerunning by having failed it, and run alone.
	Rerun *RerunSummary `json:"rerun,omitempty"`
}

// EveryRun reports whether the test failed in every run it made: a failure, not a flake.
func (t *TestSummary) EveryRun() bool { return t.Runs > 0 && t.Bad() == t.Runs }

// RerunSummary is a test's record over its reruns.
type RerunSummary struct {
	Counts
	Rate
	// Differs says that the rerun interval and the main pass's do not overlap: the test fails
	// at another rate when rerun alone than among the others (load, order, shared state).
	Differs bool `json:"differs,omitempty"`
}

// NotChance is the Chance below which the report calls a test's failures more than its own
// sizing can explain.
const NotChance = 1e-3

// PackageSummary is the report on one package.
type PackageSummary struct {
	testbin.Package
	Runs      int `json:"runs"`      // main-pass runs that finished
	Processes int `json:"processes"` // the processes that made them
	// Cut counts the runs of top-level tests that crashes and hangs cut short or kept from
	// starting; Lost those of them that could not be made again (see Record.Cut).
	Cut   int           `json:"cut,omitempty"`
	Lost  int           `json:"lost,omitempty"`      // runs that could not be made: see Cut
	Error string        `json:"run_error,omitempty"` // why processes could not be started
	Tests []TestSummary `json:"tests,omitempty"`     // in the order they first ran; "(package)" among them
}

// Report is the outcome of a session, per package and test.
type Report struct {
	Seed     uint64           `json:"seed,string"`      // the session's base seed (-seed)
	Runs     int              `json:"runs"`             // runs asked for per package
	Shards   []string         `json:"shards,omitempty"` // the shards the report covers ("2/4")
	MaxFlake float64          `json:"max_flake"`        // the -max-flake the tests were judged by
	Packages []PackageSummary `json:"packages"`         // sorted by import path
	Seconds  float64          `json:"seconds"`          // wall time of the session(s)
	// Interrupted says the session was stopped before it made every run.
	Interrupted bool `json:"interrupted,omitempty"`
	// Stopped says why the main pass made fewer runs than asked for, other than an interrupt:
	// -until, -failfast or -precision.
	Stopped string `json:"stopped,omitempty"`
	// MissingShards lists the shards of the session that a merge did not have.
	MissingShards []string `json:"missing_shards,omitempty"`
	// Flaky lists the tests ("package.Test") whose flake rate is above MaxFlake at 95%
	// confidence (the lower end of their interval exceeds it) and that failed in some runs
	// only; a parent whose failures are all its subtests' is not listed apart from them.
	Flaky []string `json:"flaky,omitempty"`
	// Failing lists the tests that failed in every run: failures, not flakes.
	Failing     []string `json:"failing,omitempty"`
	BuildErrors int      `json:"build_errors,omitempty"` // packages that did not build
	// Detect is a flake rate the user cares about and DetectRuns the runs that see such a flake
	// at least once with 95% probability.
	Detect     float64 `json:"detect,omitempty"`
	DetectRuns int     `json:"detect_runs,omitempty"` // see Detect
	// NoTests says that no test ran in any package: a -run pattern that matches nothing.
	NoTests bool `json:"no_tests,omitempty"`
	// Diff, when the session ran only what a change touched, says what it chose and why.
	Diff *DiffReport `json:"diff,omitempty"`
}

// SummaryOptions says how to judge the tests.
type SummaryOptions struct {
	// MaxFlake is the failure rate above which a test counts as flaky. It is judged on the lower
	// end of the test's 95% interval, so that a test is called flaky only when its runs show it.
	MaxFlake float64
	// Detect is a flake rate for which the report states the runs needed to see it; 0 means
	// 0.1%.
	Detect float64
}

// Exit codes, as spreadcheck and spreadcheck audit return them: the one definition.
const (
	ExitClean       = 0 // no test flaky; every mutant killed (or equivalent), or nothing to audit
	ExitFlaky       = 1 // a test flaky or failing in every run; a mutant survived or was not covered
	ExitBuild       = 2 // a usage or build error, a -run that matches no test
	ExitInterrupted = 3 // also a merge that misses shards
	ExitUnreadable  = 4 // a file the command was given cannot be read
)

// ExitCode is the status the command exits with: interrupted beats a build error, which beats
// failing tests.
func (r *Report) ExitCode() int {
	switch {
	case r.Interrupted || len(r.MissingShards) > 0:
		return ExitInterrupted
	case r.BuildErrors > 0 || r.NoTests:
		return ExitBuild
	case len(r.Flaky)+len(r.Failing) > 0:
		return ExitFlaky
	}
	return ExitClean
}

// Summarize aggregates records into a report.
func Summarize(recs []resultsfile.Record, opts SummaryOptions) *Report {
	rep := &Report{MaxFlake: opts.MaxFlake, Detect: opts.Detect}
	if rep.Detect <= 0 || rep.Detect >= 1 {
		rep.Detect = 0.001
	}
	rep.DetectRuns, _ = RunsToDetect(rep.Detect)
	g := newAggregate()
	for i := range recs {
		g.add(&recs[i])
	}
	slices.Sort(g.pkgOrder)
	rep.NoTests = len(recs) > 0
	for _, p := range g.pkgOrder {
		rep.addPackage(g, p)
	}
	return rep
}

func (rep *Report) addPackage(g *aggregate, pkg string) {
	ps := g.pkgs[pkg]
	ps.Runs = len(g.runs[pkg])
	for _, name := range g.tests[pkg] {
		ts := g.acc[testKey{pkg, name}].summary(name)
		ps.Tests = append(ps.Tests, ts)
		if ts.Skips+ts.Bad() > 0 || (name != testout.PackageTest && ts.Runs > 0) {
			rep.NoTests = false
		}
	}
	for _, ts := range ps.Tests {
		switch {
		case ts.Bad() == 0 || failsThroughSubtests(&ts, ps.Tests):
		case ts.EveryRun():
			rep.Failing = append(rep.Failing, pkg+"."+ts.Name)
		case ts.Lower > rep.MaxFlake:
			rep.Flaky = append(rep.Flaky, pkg+"."+ts.Name)
		}
	}
	if ps.BuildError != "" {
		rep.BuildErrors++
		rep.NoTests = false
	}
	rep.Packages = append(rep.Packages, *ps)
}

type testKey struct{ pkg, name string }

// aggregate collects records per package and test, in the order they first appear.
type aggregate struct {
	pkgs     map[string]*PackageSummary
	pkgOrder []string
	runs     map[string]map[[2]string]bool // per package: the main runs seen, by number and -cpu
	tests    map[string][]string           // per package
	acc      map[testKey]*testAcc
}

func newAggregate() *aggregate {
	return &aggregate{pkgs: map[string]*PackageSummary{}, runs: map[string]map[[2]string]bool{},
		tests: map[string][]string{}, acc: map[testKey]*testAcc{}}
}

func (g *aggregate) add(r *resultsfile.Record) {
	ps := g.pkgs[r.ImportPath]
	if ps == nil {
		ps = &PackageSummary{Package: r.Package}
		ps.Binary, ps.Flags = "", nil
		g.pkgs[r.ImportPath] = ps
		g.pkgOrder = append(g.pkgOrder, r.ImportPath)
		g.runs[r.ImportPath] = map[[2]string]bool{}
	}
	if r.BuildError != "" {
		ps.BuildError = r.BuildError
		return
	}
	g.book(ps, r)
	for i := range r.Tests {
		t := &r.Tests[i]
		k := testKey{r.ImportPath, t.Name}
		a := g.acc[k]
		if a == nil {
			a = &testAcc{}
			g.acc[k] = a
			g.tests[r.ImportPath] = append(g.tests[r.ImportPath], t.Name)
		}
		a.record(r, t)
	}
}

// book counts a main-pass process and its runs.
func (g *aggregate) book(ps *PackageSummary, r *resultsfile.Record) {
	if r.Phase != resultsfile.Main {
		return
	}
	if r.Error != "" {
		ps.Error = r.Error
		ps.Lost += r.Runs()
		return
	}
	ps.Processes++
	ps.Cut += r.Cut
	if !r.Restarted {
		ps.Lost += r.Cut
	}
	for _, t := range r.Tests {
		if t.Name != testout.PackageTest {
			g.runs[r.ImportPath][[2]string{strconv.Itoa(t.Run), r.CPU}] = true
		}
	}
}

// testAcc accumulates one test's results.
type testAcc struct {
	main, rerun Counts
	allowed     float64
	seeded      bool
	failing     []Failure
	output      string
	outputRun   int // the run that output comes from: the first failing one
	times       durations
	replays     replayTally
}

// summary turns one test's tallies into its part of the report.
func (a *testAcc) summary(name string) TestSummary {
	ts := TestSummary{Name: name, Counts: a.main, Rate: RateOf(a.main), Allowed: a.allowed,
		Seeded: a.seeded, Failing: a.failing, Output: a.output, Duration: a.times.summary()}
	slices.SortFunc(ts.Failing, func(x, y Failure) int { return x.Run - y.Run })
	if ts.Allowed > 0 && ts.Bad() > 0 {
		ts.Chance, _ = sizing.BinomialTail(ts.Bad(), ts.Runs, ts.Allowed)
	}
	if a.rerun.Runs+a.rerun.Skips > 0 {
		ts.Rerun = &RerunSummary{Counts: a.rerun, Rate: RateOf(a.rerun)}
		ts.Rerun.Differs = ts.Runs > 0 && ts.Rerun.Runs > 0 && (ts.Rerun.Lower > ts.Upper || ts.Rerun.Upper < ts.Lower)
	}
	if a.replays.Runs > 0 {
		ts.Replay = judgeReplays(a.replays, a.main, ts.Seeded)
	}
	return ts
}

func (a *testAcc) record(r *resultsfile.Record, t *testout.TestResult) {
	switch r.Phase {
	case resultsfile.Replay:
		if r.Filter == replay.RunPattern(t.Name) { // not a subtest of the test replayed
			a.replays.add(t)
		}
		return
	case resultsfile.Rerun:
		a.rerun.Add(t.Outcome)
	default:
		a.main.Add(t.Outcome)
		a.times.add(t.Seconds)
	}
	if allowed, err := sizing.Combine(t.Alphas...); err == nil { // a rate outside [0, 1] allows nothing
		a.allowed = max(a.allowed, allowed)
	}
	a.seeded = a.seeded || t.Seeded
	if t.Outcome.Failed() {
		a.fail(r, t)
	}
}

// fail notes a failing run: its replay, and its output if it is the first.
func (a *testAcc) fail(r *resultsfile.Record, t *testout.TestResult) {
	// Keep the output of the lowest-numbered failing run, so that the report does not depend on
	// the order in which parallel processes finished.
	if first := r.Phase == resultsfile.Main && (a.outputRun == 0 || t.Run < a.outputRun); first || a.output == "" {
		a.output = t.Output
		if r.Phase == resultsfile.Main {
			a.outputRun = t.Run
		}
	}
	if r.Phase == resultsfile.Main {
		a.failing = append(a.failing, Failure{Run: t.Run, Seed: t.Seed, Outcome: t.Outcome,
			Replay: resultsfile.ReplayCommand(r, t), Log: r.Log, Seconds: t.Seconds, Process: withoutTests(r)})
	}
}

// FailedTests returns, per package, the top-level tests that failed in the report: the tests a
// rerun needs to run again. A failing subtest brings in its top-level test.
func (r *Report) FailedTests() map[string][]string {
	out := map[string][]string{}
	for _, p := range r.Packages {
		for _, t := range p.Tests {
			if t.Bad() == 0 || t.Name == testout.PackageTest {
				continue
			}
			top := testout.TopName(t.Name)
			if !slices.Contains(out[p.ImportPath], top) {
				out[p.ImportPath] = append(out[p.ImportPath], top)
			}
		}
	}
	return out
}

// FormatRate prints a rate as a percentage with enough digits to tell small rates apart.
func FormatRate(x float64) string {
	switch {
	case x == 0:
		return "0"
	case x >= 0.1:
		return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
	case x >= 0.001:
		return strconv.FormatFloat(100*x, 'f', 2, 64) + "%"
	}
	return strconv.FormatFloat(100*x, 'g', 2, 64) + "%"
}

// withoutTests returns a copy of the record without its tests, whose outputs the report need
// not keep.
func withoutTests(r *resultsfile.Record) *resultsfile.Record {
	c := *r
	c.Tests = nil
	return &c
}
