package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/mutants"
)

// Config says what to audit and how.
type Config struct {
	Dir        string   // a directory of the module to audit; "" is the current one
	Patterns   []string // package patterns; none means ./...
	BuildFlags []string // such as -tags=x or -race, for go list, go/packages and go test -c
	Run, Skip  string   // which tests to run, as go test -run and -skip
	// Vet is go test's -vet for the test binaries' builds: "" means off (tests of code one did
	// not write often fail vet's checks); a list of checks, or "all", runs them, and their
	// failure is a build failure.
	Vet       string
	TestFlags []string // go test's test flags for every run, such as -short
	// Timeout stops a run and counts it as a hang. 0 means 10 times the slowest baseline run,
	// at least 10s.
	Timeout  time.Duration
	Parallel int     // test processes and builds at once; < 1 means 1
	Runs     int     // R: runs at baseline and at most under each mutant; < 1 means DefaultRuns
	Alpha    float64 // false-kill rate of the whole family; 0 means DefaultAlpha
	Seed     uint64  // base seed: every run gets its own seed from it
	Shard    runner.Shard
	// PerMutant builds one test binary per mutant instead of one mutant schema per package.
	PerMutant bool
	// AllRuns runs every mutant R times: no sequential stopping once it is killed or its
	// survival is certain.
	AllRuns bool
	// Log, when set, receives progress lines.
	Log func(format string, args ...any)
}

// Defaults of Config.
const (
	DefaultRuns  = 20
	DefaultAlpha = 0.01
)

// BuildError is a failure to load or build the code to audit: the go command's or the
// compiler's message.
type BuildError struct{ Msg string }

func (e *BuildError) Error() string { return e.Msg }

// ErrNoPackages is returned when the patterns match no package.
var ErrNoPackages = errors.New("audit: the patterns match no packages")

// stageHook, when set (by tests), is called after each stage of an audit, so that a test can
// interrupt it at a chosen point.
var stageHook func(stage string)

func stage(name string) {
	if stageHook != nil {
		stageHook(name)
	}
}

// Run audits the packages: it finds the sites where randomness enters, builds the mutants
// with overlays (the audited tree is only read), runs the tests at baseline and under each
// mutant, and returns the verdicts. When ctx is cancelled it stops and returns a report of
// what finished, marked Interrupted. The error is a *BuildError for code that does not
// build, ErrNoPackages, or a failure of the go command.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	if cfg.Runs < 1 {
		cfg.Runs = DefaultRuns
	}
	if cfg.Alpha <= 0 {
		cfg.Alpha = DefaultAlpha
	}
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"./..."}
	}
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	tmp, err := os.MkdirTemp("", "spreadcheck-audit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	pkgs, module, modDir, err := load(ctx, cfg)
	if err != nil {
		return nil, err
	}
	imps := map[string]*importSet{}
	a := &auditor{cfg: cfg, tmp: tmp, imps: imps, sites: findSites(pkgs, modDir, imps),
		eng: &runnerEngine{dir: cfg.Dir, buildFlags: append(cfg.BuildFlags[:len(cfg.BuildFlags):len(cfg.BuildFlags)], "-vet="+orOff(cfg.Vet)),
			testFlags: cfg.TestFlags, skip: cfg.Skip,
			parallel: max(cfg.Parallel, 1), outDir: tmp}}
	a.rep = &Report{Module: module, Runs: cfg.Runs, Alpha: cfg.Alpha, Seed: cfg.Seed, Mode: "schemata"}
	if cfg.PerMutant {
		a.rep.Mode = "per-mutant"
	}
	if s := cfg.Shard.String(); s != "" {
		a.rep.Shards = []string{s}
	}
	stage("find")
	if len(a.sites) > 0 {
		if err := a.audit(ctx); err != nil {
			return nil, err
		}
	}
	a.rep.Interrupted = ctx.Err() != nil
	a.rep.Seconds = time.Since(start).Seconds()
	a.rep.score()
	return a.rep, nil
}

func orOff(vet string) string {
	if vet == "" {
		return "off"
	}
	return vet
}

// load type-checks the non-test files of the packages and returns them with the module's
// path and directory.
func load(ctx context.Context, cfg Config) ([]*packages.Package, string, string, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: mode, Dir: cfg.Dir, BuildFlags: cfg.BuildFlags}, cfg.Patterns...)
	if err != nil {
		return nil, "", "", &BuildError{Msg: err.Error()}
	}
	if len(pkgs) == 0 {
		return nil, "", "", ErrNoPackages
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		return nil, "", "", &BuildError{Msg: strings.Join(msgs, "\n")}
	}
	for _, p := range pkgs {
		if p.Module != nil {
			return pkgs, p.Module.Path, p.Module.Dir, nil
		}
	}
	dir, err := filepath.Abs(cfg.Dir)
	return pkgs, "", dir, err
}

// auditor holds one audit's state.
type auditor struct {
	cfg   Config
	tmp   string
	eng   engine
	imps  map[string]*importSet
	sites []*Site
	rep   *Report

	bins     []runner.Package                  // the test binaries of the mutant schemata
	reach    map[int][]testRef                 // site -> the tests that reach it
	baseline map[testRef]*tally                // each compared test's baseline
	perBins  map[int]map[string]runner.Package // per-mutant mode: mutant -> import path -> binary
	slowest  time.Duration
}

// testRef names one test of one binary (by its index in bins).
type testRef struct {
	bin  int
	test string
}

// tally counts one test's runs and failures.
type tally struct{ runs, fails, hangs int }

// audit runs the stages after site finding.
func (a *auditor) audit(ctx context.Context) error {
	if err := a.buildSchemata(ctx); err != nil || ctx.Err() != nil {
		a.report(nil)
		if ctx.Err() != nil {
			return nil // interrupted: a report of what finished, which is nothing yet
		}
		return err
	}
	stage("build")
	if err := a.trace(ctx); err != nil || ctx.Err() != nil {
		a.report(nil)
		return err
	}
	stage("trace")
	a.runBaseline(ctx)
	stage("baseline")
	muts := a.plan()
	if ctx.Err() == nil {
		a.runMutants(ctx, muts)
	}
	a.report(muts)
	return nil
}

// buildSchemata builds every test binary with every site rewritten. A site whose rewrite
// does not compile is marked not viable and the build tried again without it; when the
// compiler's message names no site, the unmodified code is built to tell a package that does
// not compile (a BuildError) from a schema that does not.
func (a *auditor) buildSchemata(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		dir := filepath.Join(a.tmp, fmt.Sprintf("schema-%d", attempt))
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
		ov, err := writeOverlay(dir, a.sites, a.imps, "")
		if err != nil {
			return err
		}
		for id, why := range ov.rejected {
			a.sites[id].NotViable = why
		}
		a.cfg.Log("audit: building the mutant schemata of %d sites", len(a.sites))
		bins, err := a.eng.build(ctx, a.cfg.Patterns, ov.File)
		if errors.Is(err, runner.ErrNoPackages) {
			a.rep.Warnings = append(a.rep.Warnings, "no package matched has tests: every site is not covered")
			return nil
		}
		if err != nil {
			return err
		}
		msgs := buildErrors(bins)
		if len(msgs) == 0 {
			a.bins = bins
			return nil
		}
		if !a.blame(msgs) || attempt == 3 {
			return a.originalError(ctx, msgs)
		}
	}
}

func buildErrors(bins []runner.Package) []string {
	var msgs []string
	for _, b := range bins {
		if b.BuildError != "" {
			msgs = append(msgs, b.BuildError)
		}
	}
	return msgs
}

// blame marks not viable every site whose line a compiler message names, and reports
// whether it found one.
func (a *auditor) blame(msgs []string) bool {
	found := false
	for _, s := range a.sites {
		if s.NotViable != "" {
			continue
		}
		needle := fmt.Sprintf("%s:%d:", filepath.Base(s.Path), s.Line)
		for _, m := range msgs {
			for _, l := range strings.Split(m, "\n") {
				if strings.Contains(l, needle) {
					s.NotViable = "does not compile: " + strings.TrimSpace(l)
					found = true
				}
			}
		}
	}
	return found
}

// originalError builds the unmodified code: when it fails too, the user's code does not
// build; otherwise the schemata do not, and every site of the failing packages is not viable.
func (a *auditor) originalError(ctx context.Context, msgs []string) error {
	bins, err := a.eng.build(ctx, a.cfg.Patterns, "")
	if err != nil {
		return err
	}
	if orig := buildErrors(bins); len(orig) > 0 {
		return &BuildError{Msg: strings.Join(orig, "\n")}
	}
	for _, s := range a.sites {
		if s.NotViable == "" {
			s.NotViable = "the mutant schema does not compile: " + firstLine(strings.Join(msgs, "\n"))
		}
	}
	a.bins = bins
	return nil
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return s
}

// trace runs each test once, alone, and records the sites it reaches: the audit's coverage.
// Only the tests that reach a site run again, at baseline and under that site's mutants.
func (a *auditor) trace(ctx context.Context) error {
	a.reach = map[int][]testRef{}
	var jobs []job
	var refs []testRef
	var runRe *regexp.Regexp
	if a.cfg.Run != "" {
		runRe, _ = regexp.Compile(a.cfg.Run) // checked by the command
	}
	for i, b := range a.bins {
		if b.Binary == "" {
			continue
		}
		names, err := a.eng.list(ctx, b)
		if err != nil {
			a.rep.Warnings = append(a.rep.Warnings, fmt.Sprintf("%s: listing its tests: %v", b.ImportPath, err))
			continue
		}
		for _, n := range names {
			if runRe != nil && !runRe.MatchString(n) {
				continue
			}
			path := filepath.Join(a.tmp, fmt.Sprintf("trace-%d-%d", i, len(jobs)))
			jobs = append(jobs, job{pkg: b, filter: "^" + regexp.QuoteMeta(n) + "$",
				env: []string{mutants.TraceEnv + "=" + path}, seed: runner.RunSeed(a.cfg.Seed, 0)})
			refs = append(refs, testRef{i, n})
		}
	}
	a.cfg.Log("audit: tracing which of %d tests reach which of %d sites", len(jobs), len(a.sites))
	res, err := a.eng.run(ctx, jobs, a.timeout())
	for _, r := range res {
		data, _ := os.ReadFile(jobs[r.job].env[0][len(mutants.TraceEnv)+1:])
		seen := map[int]bool{}
		for _, l := range strings.Fields(string(data)) {
			var id int
			if _, err := fmt.Sscan(l, &id); err == nil && id >= 0 && id < len(a.sites) && !seen[id] {
				seen[id] = true
				a.reach[id] = append(a.reach[id], refs[r.job])
			}
		}
	}
	for _, rs := range a.reach {
		sort.Slice(rs, func(i, j int) bool { return rs[i].bin < rs[j].bin || rs[i].bin == rs[j].bin && rs[i].test < rs[j].test })
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func (a *auditor) timeout() time.Duration {
	if a.cfg.Timeout > 0 {
		return a.cfg.Timeout
	}
	if a.slowest == 0 {
		return 10 * time.Minute
	}
	return max(10*time.Second, 10*a.slowest)
}

// reachingTests returns, per binary, the tests that reach any site.
func (a *auditor) reachingTests() map[int][]string {
	set := map[int]map[string]bool{}
	for _, rs := range a.reach {
		for _, r := range rs {
			if set[r.bin] == nil {
				set[r.bin] = map[string]bool{}
			}
			set[r.bin][r.test] = true
		}
	}
	out := map[int][]string{}
	for b, names := range set {
		for n := range names {
			out[b] = append(out[b], n)
		}
		sort.Strings(out[b])
	}
	return out
}

// filter returns the -test.run pattern that selects exactly the named top-level tests.
func filter(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = regexp.QuoteMeta(n)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// runBaseline runs every test that reaches a site R times unmutated, and excludes from the
// verdicts the tests that failed every run: they cannot fail more often.
func (a *auditor) runBaseline(ctx context.Context) {
	a.baseline = map[testRef]*tally{}
	var jobs []job
	for b, names := range a.reachingTests() {
		for _, n := range append(names, runner.PackageTest) {
			a.baseline[testRef{b, n}] = &tally{}
		}
		for i := 1; i <= a.cfg.Runs; i++ {
			jobs = append(jobs, job{pkg: a.bins[b], filter: filter(names), seed: runner.RunSeed(a.cfg.Seed, i)})
		}
	}
	a.cfg.Log("audit: %d baseline runs", len(jobs))
	res, _ := a.eng.run(ctx, jobs, a.timeout())
	for _, r := range res {
		a.slowest = max(a.slowest, r.elapsed)
		count(a.baseline, a.binIndex(jobs[r.job].pkg), r)
	}
	refs := make([]testRef, 0, len(a.baseline))
	for ref := range a.baseline {
		refs = append(refs, ref)
	}
	sort.Slice(refs, func(i, j int) bool {
		return refs[i].bin < refs[j].bin || refs[i].bin == refs[j].bin && refs[i].test < refs[j].test
	})
	for _, ref := range refs {
		t := a.baseline[ref]
		if ref.test == runner.PackageTest && t.fails == 0 {
			continue
		}
		tb := TestBaseline{Package: a.bins[ref.bin].ImportPath, Test: ref.test, Runs: t.runs, Failures: t.fails}
		if t.runs > 0 && t.fails == t.runs {
			tb.Excluded = true
			delete(a.baseline, ref)
			a.rep.Warnings = append(a.rep.Warnings, fmt.Sprintf("%s %s fails every baseline run (%d of %d): left out of the verdicts",
				tb.Package, tb.Test, t.fails, t.runs))
		} else if t.fails > 0 {
			a.rep.Warnings = append(a.rep.Warnings, fmt.Sprintf("%s %s fails %d of %d baseline runs: a mutant kills only by failing it significantly more often",
				tb.Package, tb.Test, t.fails, t.runs))
		}
		a.rep.Baseline = append(a.rep.Baseline, tb)
	}
}

func (a *auditor) binIndex(p runner.Package) int {
	for i, b := range a.bins {
		if b.ImportPath == p.ImportPath {
			return i
		}
	}
	return -1
}

// count adds one run's outcomes to the tallies of the tests it holds (top-level tests and
// the package pseudo-test only); tests without a tally are not compared and left out.
func count(tallies map[testRef]*tally, bin int, r result) {
	for _, t := range r.tests {
		if strings.Contains(t.Name, "/") || t.Outcome == runner.Skip {
			continue
		}
		c := tallies[testRef{bin, t.Name}]
		if c == nil {
			continue
		}
		c.runs++
		if t.Outcome.Failed() {
			c.fails++
		}
		if t.Outcome == runner.Hang {
			c.hangs++
		}
	}
	// A run in which the package pseudo-test did not fail passed it.
	if c := tallies[testRef{bin, runner.PackageTest}]; c != nil && !hasTest(r, runner.PackageTest) {
		c.runs++
	}
}

func hasTest(r result, name string) bool {
	for _, t := range r.tests {
		if t.Name == name {
			return true
		}
	}
	return false
}
