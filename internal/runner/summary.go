package runner

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/replay"
)

// Counts tallies one test's outcomes over runs.
type Counts struct {
	Runs     int `json:"runs"` // runs in which the test ran to an outcome other than a skip
	Failures int `json:"failures"`
	Crashes  int `json:"crashes"`
	Hangs    int `json:"hangs"`
	Skips    int `json:"skips"`
}

// Bad is the number of runs the test did not pass: failures, crashes and hangs.
func (c Counts) Bad() int { return c.Failures + c.Crashes + c.Hangs }

func (c *Counts) add(o Outcome) {
	switch o {
	case Skip:
		c.Skips++
		return
	case Fail:
		c.Failures++
	case Crash:
		c.Crashes++
	case Hang:
		c.Hangs++
	}
	c.Runs++
}

// Rate is a failure rate with its 95% confidence interval (see Interval).
type Rate struct {
	Rate  float64 `json:"rate"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
}

func rateOf(c Counts) Rate {
	if c.Runs == 0 {
		return Rate{}
	}
	lo, hi, _ := Interval(c.Bad(), c.Runs)
	return Rate{float64(c.Bad()) / float64(c.Runs), lo, hi}
}

// Failure is one failing run of a test.
type Failure struct {
	Run     int     `json:"run"`
	Seed    uint64  `json:"seed,string"`
	Outcome Outcome `json:"outcome"`
	Replay  string  `json:"replay"`        // the shell command that replays the run
	Log     string  `json:"log,omitempty"` // the run's whole output, when saved with -o
}

// Replay results for TestSummary.Replayed.
const (
	Reproduced    = "reproduced"
	NotReproduced = "not reproduced"
)

// TestSummary is everything the report says about one test.
type TestSummary struct {
	Name string `json:"name"`
	Counts
	Rate
	// Allowed is the failure rate per run that the test's own spread checks allow, from the
	// alphas they recorded (the largest over runs); 0 when it recorded none.
	Allowed float64 `json:"allowed,omitempty"`
	// Chance is the probability of this many failures or more if the test failed at the Allowed
	// rate: a tiny Chance means the failures are not the sizing's doing.
	Chance   float64   `json:"chance,omitempty"`
	Seeded   bool      `json:"seeded,omitempty"` // the test recorded the seed it drew from
	Failing  []Failure `json:"failing,omitempty"`
	Output   string    `json:"output,omitempty"`   // the output of the first failing run
	Replayed string    `json:"replayed,omitempty"` // Reproduced or NotReproduced, when replay was checked

	// Rerun holds the counts and rate from -rerun alone. They are kept apart from the main
	// pass because the tests were chosen for rerunning by having failed it.
	Rerun *RerunSummary `json:"rerun,omitempty"`
}

// RerunSummary is a test's record over its reruns.
type RerunSummary struct {
	Counts
	Rate
}

// NotChance is the Chance below which the report calls a test's failures more than its own
// sizing can explain.
const NotChance = 1e-3

// PackageSummary is the report on one package.
type PackageSummary struct {
	Package
	Runs  int           `json:"runs"` // main-pass runs of the package's binary that finished
	Tests []TestSummary `json:"tests,omitempty"`
}

// Report is the outcome of a session, per package and test.
type Report struct {
	Seed     uint64           `json:"seed,string"`
	Runs     int              `json:"runs"` // runs asked for per package
	Shards   []string         `json:"shards,omitempty"`
	MaxFlake float64          `json:"max_flake"`
	Packages []PackageSummary `json:"packages"`
	Seconds  float64          `json:"seconds"` // wall time of the session(s)
	// Interrupted says the session was stopped before it made every run.
	Interrupted bool `json:"interrupted,omitempty"`
	// Flaky lists the tests ("package.Test") whose flake rate is above MaxFlake at 95%
	// confidence: the lower end of their interval exceeds it.
	Flaky       []string `json:"flaky,omitempty"`
	BuildErrors int      `json:"build_errors,omitempty"`
	// Detect is a flake rate the user cares about and DetectRuns the runs that see such a flake
	// at least once with 95% probability.
	Detect     float64 `json:"detect,omitempty"`
	DetectRuns int     `json:"detect_runs,omitempty"`
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

// Exit codes, as the command returns them.
const (
	ExitClean       = 0
	ExitFlaky       = 1
	ExitBuild       = 2 // also usage errors
	ExitInterrupted = 3
)

// ExitCode is the status the command exits with: interrupted beats a build error, which beats
// flaky tests.
func (r *Report) ExitCode() int {
	switch {
	case r.Interrupted:
		return ExitInterrupted
	case r.BuildErrors > 0:
		return ExitBuild
	case len(r.Flaky) > 0:
		return ExitFlaky
	}
	return ExitClean
}

type testKey struct{ pkg, name string }

type testAcc struct {
	main, rerun Counts
	allowed     float64
	seeded      bool
	failing     []Failure
	output      string
	outputRun   int // the run that output comes from: the first failing one
	replayed    string
}

// Summarize aggregates records into a report.
func Summarize(recs []Record, opts SummaryOptions) *Report {
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
	for _, p := range g.pkgOrder {
		ps := g.pkgs[p]
		for _, name := range g.tests[p] {
			ts := g.acc[testKey{p, name}].summary(name)
			if ts.Bad() > 0 && ts.Lower > opts.MaxFlake {
				rep.Flaky = append(rep.Flaky, p+"."+name)
			}
			ps.Tests = append(ps.Tests, ts)
		}
		if ps.BuildError != "" {
			rep.BuildErrors++
		}
		rep.Packages = append(rep.Packages, *ps)
	}
	return rep
}

// aggregate collects records per package and test, in the order they first appear.
type aggregate struct {
	pkgs     map[string]*PackageSummary
	pkgOrder []string
	tests    map[string][]string // per package
	acc      map[testKey]*testAcc
}

func newAggregate() *aggregate {
	return &aggregate{pkgs: map[string]*PackageSummary{}, tests: map[string][]string{}, acc: map[testKey]*testAcc{}}
}

func (g *aggregate) add(r *Record) {
	ps := g.pkgs[r.ImportPath]
	if ps == nil {
		ps = &PackageSummary{Package: r.Package}
		ps.Binary = ""
		g.pkgs[r.ImportPath] = ps
		g.pkgOrder = append(g.pkgOrder, r.ImportPath)
	}
	if r.BuildError != "" {
		ps.BuildError = r.BuildError
		return
	}
	if r.Phase == Main {
		ps.Runs++
	}
	for _, t := range r.Tests {
		k := testKey{r.ImportPath, t.Name}
		a := g.acc[k]
		if a == nil {
			a = &testAcc{}
			g.acc[k] = a
			g.tests[r.ImportPath] = append(g.tests[r.ImportPath], t.Name)
		}
		a.record(r, &t)
	}
}

// summary turns one test's tallies into its part of the report.
func (a *testAcc) summary(name string) TestSummary {
	ts := TestSummary{Name: name, Counts: a.main, Rate: rateOf(a.main), Allowed: a.allowed,
		Seeded: a.seeded, Failing: a.failing, Output: a.output, Replayed: a.replayed}
	slices.SortFunc(ts.Failing, func(x, y Failure) int { return x.Run - y.Run })
	if ts.Allowed > 0 && ts.Bad() > 0 {
		ts.Chance = TailProb(ts.Bad(), ts.Runs, ts.Allowed)
	}
	if a.rerun.Runs+a.rerun.Skips > 0 {
		ts.Rerun = &RerunSummary{a.rerun, rateOf(a.rerun)}
	}
	return ts
}

func (a *testAcc) record(r *Record, t *TestResult) {
	switch r.Phase {
	case Replay:
		if t.Outcome.Failed() {
			a.replayed = Reproduced
		} else if a.replayed == "" && t.Outcome == Pass {
			a.replayed = NotReproduced
		}
		return
	case Rerun:
		a.rerun.add(t.Outcome)
	default:
		a.main.add(t.Outcome)
	}
	if len(t.Alphas) > 0 {
		a.allowed = max(a.allowed, AllowedRate(t.Alphas))
	}
	a.seeded = a.seeded || t.Seeded
	if !t.Outcome.Failed() {
		return
	}
	// Keep the output of the lowest-numbered failing run, so that the report does not depend on
	// the order in which parallel runs finished.
	if first := r.Phase == Main && (a.outputRun == 0 || r.Run < a.outputRun); first || a.output == "" {
		a.output = t.Output
		if r.Phase == Main {
			a.outputRun = r.Run
		}
	}
	if r.Phase == Main {
		a.failing = append(a.failing, Failure{Run: r.Run, Seed: r.Seed, Outcome: t.Outcome,
			Replay: ReplayCommand(&r.Package, t.Name, r.Seed), Log: r.Log})
	}
}

// ReplayCommand returns the shell command that replays one run of one test:
//
//	SPREADCHECK_SEED=<seed> go test -run '^TestName$' -count=1 ./pkg
func ReplayCommand(p *Package, test string, seed uint64) string {
	c := replay.Command{
		Dir:     p.CdDir,
		Env:     []string{fmt.Sprintf("%s=%d", SeedEnv, seed)},
		Flags:   p.Flags,
		Test:    test,
		Package: p.Target,
	}
	if test == PackageTest {
		c.Test = ""
	}
	if c.Package == "" {
		c.Package = p.ImportPath
	}
	return c.String()
}

// FailedTests returns, per package, the top-level tests that failed in the report: the tests a
// rerun needs to run again. A failing subtest brings in its top-level test.
func (r *Report) FailedTests() map[string][]string {
	out := map[string][]string{}
	for _, p := range r.Packages {
		for _, t := range p.Tests {
			if t.Bad() == 0 || t.Name == PackageTest {
				continue
			}
			top, _, _ := strings.Cut(t.Name, "/")
			if !slices.Contains(out[p.ImportPath], top) {
				out[p.ImportPath] = append(out[p.ImportPath], top)
			}
		}
	}
	return out
}

// RerunJobs returns n more runs of each package with failed tests, limited to those tests,
// numbered after the main pass's runs so that their seeds are new. Under a shard the numbers
// interleave like the main pass's, so that the reruns of different shards do not collide.
func RerunJobs(pkgs []Package, r *Report, n int, opts Options) []Job {
	failed := r.FailedTests()
	var jobs []Job
	for i := 1; i <= n; i++ {
		for _, p := range pkgs {
			names := failed[p.ImportPath]
			if len(names) == 0 || p.Binary == "" {
				continue
			}
			quoted := make([]string, len(names))
			for j, nm := range names {
				quoted[j] = regexp.QuoteMeta(nm)
			}
			run := opts.Runs + i
			if opts.Shard.N > 1 {
				run = opts.Runs + (i-1)*opts.Shard.N + opts.Shard.K
			}
			jobs = append(jobs, Job{Package: p, Run: run, Seed: RunSeed(opts.Seed, run), Phase: Rerun,
				Filter: "^(" + strings.Join(quoted, "|") + ")$"})
		}
	}
	return jobs
}

// ReplayJobs returns one job per failing test (at most limit) that runs the test alone with the
// seed of its first failing run that did not hang, to check that the seed reproduces the
// failure.
func ReplayJobs(pkgs []Package, r *Report, limit int) []Job {
	bins := map[string]Package{}
	for _, p := range pkgs {
		bins[p.ImportPath] = p
	}
	var jobs []Job
	for _, ps := range r.Packages {
		p, ok := bins[ps.ImportPath]
		if !ok || p.Binary == "" {
			continue
		}
		for _, t := range ps.Tests {
			if t.Name == PackageTest || len(jobs) >= limit {
				continue
			}
			// Hangs are not replayed: each replay would cost a whole -timeout.
			i := slices.IndexFunc(t.Failing, func(f Failure) bool { return f.Outcome != Hang })
			if i < 0 {
				continue
			}
			f := t.Failing[i]
			jobs = append(jobs, Job{Package: p, Run: f.Run, Seed: f.Seed, Phase: Replay, Filter: replay.RunPattern(t.Name)})
		}
	}
	return jobs
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
