package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// Config says what to audit and how.
type Config struct {
	Dir      string   // a directory of the module to audit; "" is the current one
	Patterns []string // package patterns; none means ./...
	// BuildFlags are go test's build flags, such as -tags=x, -race or -vet=list, as
	// testbin.BuildOptions takes them. Without -vet, vet is off (tests of code one did not
	// write often fail its checks); -vet=all or a list runs them, and their failure is a
	// build failure.
	BuildFlags []string
	// Options say which tests run and how, as for a session of spreadcheck: Run, Skip,
	// TestFlags, CPU (the tests are compared at each -test.cpu value, as if each were a test
	// of its own), Parallel (test processes and builds at once; < 1 means GOMAXPROCS, as in
	// a session; test processes that sleep most of their time run up to 8 times as many at
	// once, see processesFor), Seed (every run gets its own seed from it) and Shard. Runs is R, the runs
	// at baseline and at most under each mutant (< 1 means DefaultRuns). Batch is how many
	// runs one test process makes in turn, at baseline and under every mutant alike: 1 gives
	// every run a process of its own, so that nothing a test leaves behind in memory (a
	// package variable it changed, a sync.Once) reaches another run; 0 chooses from the
	// start-up and test times that the trace measured (see chooseBatch). Whatever Batch, a
	// group with a test that its baseline shows failing only in the later runs of a process
	// runs a process per run (see leaks in alone.go). Timeout stops a test
	// process and counts the test it was running as hung; 0 derives each process's limit from
	// what the tests it runs took: a minute for each test's one run in the trace (a test that
	// hangs there is left out of the audit); for a group's baseline processes, hangMultiple
	// times what the trace measured for one of them; for its mutants' processes, hangMultiple
	// times its slowest baseline process; never less than hangFloor. The session's stopping rules and
	// hooks (Until, FailFast, Precision, Args, LogDir, OnRecord, OnProgress) are not the
	// audit's: Run refuses a Config that sets them.
	runner.Options
	Alpha float64 // false-kill rate of the whole family; 0 means DefaultAlpha
	// PerMutant builds one test binary per mutant instead of one mutant schema per package.
	PerMutant bool
	// AllRuns runs every mutant R times: no sequential stopping once it is killed or its
	// survival is certain.
	AllRuns bool
	// Change, when set, restricts the audit to the sites on the lines a change added or
	// modified.
	Change *Change
	// CacheDir, when set, keeps the mutant schema's test binaries between audits, as
	// testbin.BuildOptions.CacheDir keeps a session's: an audit of code already audited with
	// the same flags finds them up to date and does not link them again.
	CacheDir string
	// Log, when set, receives progress lines.
	Log func(format string, args ...any)
}

// Defaults of Config.
const (
	DefaultRuns  = 20
	DefaultAlpha = 0.01
)

// BuildError is a failure to find or build the code to audit, or its mutants: what failed,
// and the go command's or the compiler's message, each once.
type BuildError struct {
	Stage Stage
	Msg   string
}

// A Stage says where a BuildError stopped the audit.
type Stage string

// The stages at which an audit stops before it runs anything.
const (
	NotAModule Stage = "not a module" // Config.Dir is in no Go module (nor workspace)
	NoPackage  Stage = "no package"   // a pattern names no package of the module or its dependencies
	Compile    Stage = "compile"      // the code, or its tests, do not build
	// MutantsCompile: the code builds but no mutant of a package does. The rewrites are
	// meant to compile wherever the code does: this is a defect of the audit, reported
	// rather than counted as a package with nothing to test.
	MutantsCompile Stage = "mutants compile"
)

var stageHeads = map[Stage]string{
	NotAModule:     "is not in a Go module",
	NoPackage:      "no such package",
	Compile:        "the code does not build",
	MutantsCompile: "no mutant of the package compiles (a defect of spreadcheck audit: please report it with this message)",
}

func (e *BuildError) Error() string {
	if e.Stage == NotAModule {
		return e.Msg + " " + stageHeads[e.Stage] + ": no go.mod in it or in a folder above it (go mod init makes one)"
	}
	return stageHeads[e.Stage] + ":\n" + e.Msg
}

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
// build, testbin.ErrNoPackages, or a failure of the go command.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	o := cfg.Options
	if o.Until != 0 || o.FailFast || o.Precision != 0 || o.Args != nil || o.LogDir != "" || o.OnRecord != nil || o.OnProgress != nil {
		return nil, errors.New("audit: Config.Options sets a session's stopping rule or hook (Until, FailFast, Precision, Args, LogDir, OnRecord or OnProgress), which an audit does not follow")
	}
	cfg.Parallel = cfg.Processes()
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
	if err := runner.CheckPattern("-run", cfg.Run); err != nil {
		return nil, fmt.Errorf("audit: %v", err)
	}
	tmp, err := os.MkdirTemp("", "spreadcheck-audit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	f, err := locate(ctx, cfg)
	if err != nil {
		return nil, err
	}
	a := &auditor{cfg: cfg, tmp: tmp, imps: f.imps, sites: f.sites, mark: start,
		eng: &runnerEngine{dir: cfg.Dir, buildFlags: withVet(cfg.BuildFlags),
			testFlags: cfg.TestFlags, skip: cfg.Skip, seed: cfg.Seed,
			parallel: max(cfg.Parallel, 1), outDir: tmp, cacheDir: cfg.CacheDir}}
	a.rep = &Report{Module: f.module, Runs: cfg.Runs, Alpha: cfg.Alpha, Seed: cfg.Seed, Mode: Schemata, Warnings: f.warnings}
	if cfg.PerMutant {
		a.rep.Mode = PerMutant
	}
	if s := cfg.Shard.String(); s != "" {
		a.rep.Shards = []string{s}
	}
	if cfg.Change != nil {
		a.rep.Change = &ChangeReport{Since: cfg.Change.Since}
		a.sites, a.rep.Change.Outside = changedSites(a.sites, cfg.Change)
	}
	a.phase("find")
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

// withVet returns the build flags with -vet=off added when they have no -vet.
func withVet(flags []string) []string {
	if slices.ContainsFunc(flags, isVet) {
		return flags
	}
	return append(slices.Clip(flags), "-vet=off")
}

// isVet reports whether a flag is go test's -vet, which go list and go/packages refuse.
func isVet(flag string) bool { return strings.HasPrefix(flag, "-vet=") || flag == "-vet" }

// load type-checks the non-test files of the packages and returns them with the module's
// path and directory. When they do not load, a folder in no module is told first, as
// inModule tells it: it is asked only then, which saves a go command in every audit that
// loads.
func load(ctx context.Context, cfg Config) ([]*packages.Package, string, string, error) {
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule
	flags := slices.DeleteFunc(slices.Clone(cfg.BuildFlags), isVet)
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Mode: mode, Dir: cfg.Dir, BuildFlags: flags, Env: testbin.GoEnv()}, cfg.Patterns...)
	switch {
	case err != nil:
		err = &BuildError{Stage: Compile, Msg: err.Error()}
	case len(pkgs) == 0:
		err = testbin.ErrNoPackages
	default:
		err = loadErrors(pkgs)
	}
	if err != nil {
		if merr := inModule(ctx, cfg.Dir); merr != nil {
			return nil, "", "", merr
		}
		return nil, "", "", err
	}
	for _, p := range pkgs {
		if p.Module != nil {
			return pkgs, p.Module.Path, p.Module.Dir, nil
		}
	}
	dir, err := filepath.Abs(cfg.Dir)
	return pkgs, "", dir, err
}

// inModule returns a BuildError when dir is in no Go module and no workspace, as the go
// command finds them: go/packages would only say that the pattern ./... matches nothing there.
func inModule(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "env", "GOMOD", "GOWORK")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("audit: go env in %s: %v", orDot(dir), err)
	}
	gomod, gowork, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if gomod != "" && gomod != os.DevNull || gowork != "" && gowork != "off" {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	return &BuildError{Stage: NotAModule, Msg: abs}
}

// loadErrors returns the errors of the packages and their dependencies as one BuildError, each
// message once: a pattern that names no package, or the compiler's messages. go/packages gives
// a package that does not type-check both go list's message and the type checker's, which say
// the same: the type checker's, with their positions, are kept.
func loadErrors(pkgs []*packages.Package) error {
	var missing []string
	for _, p := range pkgs {
		if len(p.GoFiles)+len(p.CompiledGoFiles) == 0 && len(p.Errors) > 0 {
			missing = append(missing, p.PkgPath+": "+p.Errors[0].Msg)
		}
	}
	if len(missing) > 0 {
		return &BuildError{Stage: NoPackage, Msg: strings.Join(missing, "\n")}
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typed := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
		for _, e := range p.Errors {
			if typed && e.Kind == packages.ListError {
				continue
			}
			m := e.Msg
			if e.Pos != "" {
				m = e.Pos + ": " + m
			}
			if !slices.Contains(msgs, m) {
				msgs = append(msgs, m)
			}
		}
	})
	if len(msgs) > 0 {
		return &BuildError{Stage: Compile, Msg: strings.Join(msgs, "\n")}
	}
	return nil
}

// auditor holds one audit's state.
type auditor struct {
	cfg   Config
	tmp   string
	eng   engine
	imps  map[string]*importSet
	sites []*Site
	rep   *Report

	bins       []testbin.Package                  // the test binaries of the mutant schemata
	reach      map[int][]testRef                  // site -> the tests that reach it
	groups     []*group                           // the -run sets, each with its baseline
	siteGroups map[int][]int                      // site -> its groups
	perBins    map[int]map[string]testbin.Package // per-mutant mode: mutant -> import path -> binary
	total      int                                // mutants in the whole audit, every shard's
	batch      int                                // runs per process
	startup    time.Duration                      // what starting a test process costs, as the trace measured it
	perRun     time.Duration                      // the slowest group's run, as the trace measured it
	testSecs   map[testRef]float64                // each test's time in its trace run
	traceCost  map[testRef]cost                   // each test's trace process: its wall and CPU time
	mark       time.Time                          // when the last phase ended
}

// phase ends a phase of the audit: it records the time since the last one ended under the
// phase's name, and calls the stage hook with it.
func (a *auditor) phase(name string) {
	now := time.Now()
	a.rep.Phases = append(a.rep.Phases, Phase{Name: name, Seconds: now.Sub(a.mark).Seconds()})
	a.mark = now
	stage(name)
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
	a.phase("build")
	return a.judge(ctx)
}

// judge runs the stages after the build: the trace, the baselines, the mutants, the report.
func (a *auditor) judge(ctx context.Context) error {
	if err := a.trace(ctx); err != nil || ctx.Err() != nil {
		a.report(nil)
		return err
	}
	a.phase("trace")
	a.makeGroups()
	all := a.mutants()
	a.rep.Family = a.family(all)
	a.batch = a.chooseBatch()
	a.rep.Batch = a.batch
	muts := a.shard(all)
	open := a.open(muts)
	var first *look
	if !a.cfg.PerMutant {
		first = a.newLook(open, a.plan()[0])
	}
	a.runBaseline(ctx, a.needed(muts), first)
	a.phase("baseline")
	a.uncovered(muts)
	open = a.afterBaseline(open, first, ctx.Err() != nil)
	if ctx.Err() == nil {
		a.runMutants(ctx, open)
	}
	a.phase("mutants")
	a.identical(ctx, muts)
	a.phase("identical")
	a.report(muts)
	return nil
}

// buildSchemata builds every test binary with every site rewritten. A site whose rewrite
// does not compile is marked not viable and the build tried again without it; when the
// compiler's message names no site, the unmodified code is built to tell a package that does
// not compile from a schema that does not. Either way, a package none of whose mutants
// compiles is a BuildError: the audit would otherwise pass having tested nothing.
func (a *auditor) buildSchemata(ctx context.Context) error {
	var all []string // the compiler's messages of every attempt
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
		a.cfg.Log("audit: building the mutant schemata of %s", plural(len(a.sites), "site"))
		bins, err := a.eng.build(ctx, a.cfg.Patterns, inCache, "-overlay="+ov.File)
		if errors.Is(err, testbin.ErrNoPackages) {
			a.rep.Warnings = append(a.rep.Warnings, "no package matched has tests: every site is not covered")
			return nil
		}
		if err != nil {
			return err
		}
		msgs := ov.originals(buildErrors(bins), a.cfg.Dir)
		if len(msgs) == 0 {
			a.bins = bins
			return a.noneCompiles(all)
		}
		all = append(all, msgs...)
		if !a.blame(msgs) || attempt == 3 {
			return a.originalError(ctx, all)
		}
	}
}

func buildErrors(bins []testbin.Package) []string {
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
					s.NotViable = notCompiled + strings.TrimSpace(l)
					found = true
				}
			}
		}
	}
	return found
}

// notCompiled starts the reason of a site whose rewrite the compiler refused.
const notCompiled = "does not compile: "

// originalError builds the unmodified code: when it fails too, the user's code does not
// build; otherwise the mutant schemata do not, and no mutant of theirs can run.
func (a *auditor) originalError(ctx context.Context, msgs []string) error {
	bins, err := a.eng.build(ctx, a.cfg.Patterns, inAudit)
	if err != nil {
		return err
	}
	if orig := buildErrors(bins); len(orig) > 0 {
		return &BuildError{Stage: Compile, Msg: strings.Join(orig, "\n")}
	}
	return &BuildError{Stage: MutantsCompile, Msg: strings.Join(msgs, "\n")}
}

// noneCompiles returns a BuildError with the compiler's messages when some package with
// sites has none left whose rewrite compiles, and one at least that the compiler refused.
func (a *auditor) noneCompiles(msgs []string) error {
	viable, refused := map[string]bool{}, map[string]bool{}
	for _, s := range a.sites {
		viable[s.Package] = viable[s.Package] || s.NotViable == ""
		refused[s.Package] = refused[s.Package] || strings.HasPrefix(s.NotViable, notCompiled)
	}
	var none []string
	for p := range refused {
		if !viable[p] {
			none = append(none, p)
		}
	}
	if len(none) == 0 {
		return nil
	}
	sort.Strings(none)
	return &BuildError{Stage: MutantsCompile, Msg: strings.Join(none, ", ") + ":\n" + strings.Join(msgs, "\n")}
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
			// -run picks the top-level tests by its first level; each process's
			// -test.run keeps the levels below, so package testing picks the subtests.
			if !runner.MatchesTop(a.cfg.Run, n, true) {
				continue
			}
			path := filepath.Join(a.tmp, fmt.Sprintf("trace-%d-%d", i, len(jobs)))
			jobs = append(jobs, job{pkg: b, filter: runner.OnlyTests(a.cfg.Run, []string{n}),
				env: []string{rewrite.TraceEnv + "=" + path}, run: len(jobs) + 1, timeout: a.traceLimit()})
			refs = append(refs, testRef{i, n})
		}
	}
	a.cfg.Log("audit: tracing which of %s reach which of %s", plural(len(jobs), "test"), plural(len(a.sites), "site"))
	timeout := a.traceLimit()
	res, err := a.eng.run(ctx, jobs)
	a.measure(res, refs)
	for _, r := range res {
		if hung(r, refs[r.job].test) {
			a.rep.Warnings = append(a.rep.Warnings, fmt.Sprintf("%s %s hung in its trace run (still running after %s): left out of the audit; -skip it, or give it more time with -timeout",
				a.bins[refs[r.job].bin].ImportPath, refs[r.job].test, timeout))
			continue
		}
		if !ran(r, refs[r.job].test) {
			continue // -skip left it out: the draws its process made were package initialisation's
		}
		data, _ := os.ReadFile(jobs[r.job].env[0][len(rewrite.TraceEnv)+1:])
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

// ran reports whether the named test ran in a process (whatever its outcome, a skip it
// called included): a test that -skip leaves out does not, and its trace process still makes
// the draws of package initialisation, which would otherwise put it in the group of every
// site drawn there, its comparisons counted in the family with no run to make.
func ran(r result, name string) bool {
	return slices.ContainsFunc(r.tests, func(t testout.TestResult) bool { return t.Name == name })
}

// hung reports whether the named test hung in a process.
func hung(r result, name string) bool {
	for _, t := range r.tests {
		if t.Name == name && t.Outcome == testout.Hang {
			return true
		}
	}
	return false
}

// traceTimeout is how long one test may run alone in the trace unless Config.Timeout says
// otherwise: a test that takes longer would make an audit, which runs it dozens of times,
// take hours (one that waits for the network retries for minutes).
const traceTimeout = time.Minute

// A hang's limit: hangMultiple times what the tests of the process took when measured, and
// at least hangFloor, which keeps a process of tests that take milliseconds from being
// called hung when the machine stalls it for a moment. A mutant that makes a test hang holds
// one process per run of its first look (the runner makes the runs a hang cut short in new
// processes): a limit sized from the tests that reach the site, not from the audit's slowest
// process, keeps that short.
const (
	hangMultiple = 10
	hangFloor    = 2 * time.Second
)

// traceLimit returns the limit on a process of the trace: Config.Timeout when set, else
// traceTimeout.
func (a *auditor) traceLimit() time.Duration {
	if a.cfg.Timeout > 0 {
		return a.cfg.Timeout
	}
	return traceTimeout
}

// baselineLimit returns the limit on a baseline process of a group: Config.Timeout when set,
// else hangMultiple times what the trace measured for one (a start-up, and the group's tests
// for each run of the batch), at least hangFloor.
func (a *auditor) baselineLimit(g *group) time.Duration {
	if a.cfg.Timeout > 0 {
		return a.cfg.Timeout
	}
	return max(hangFloor, hangMultiple*(a.startup+time.Duration(a.batchOf(g))*a.groupRun(g)))
}

// mutantLimit returns the limit on a process of a mutant in a group: Config.Timeout when
// set, else hangMultiple times the group's slowest baseline process (the baseline limit when
// none finished), at least hangFloor.
func (a *auditor) mutantLimit(g *group) time.Duration {
	if a.cfg.Timeout > 0 || g.slowest == 0 {
		return a.baselineLimit(g)
	}
	return max(hangFloor, hangMultiple*g.slowest)
}

// runBaseline runs the tests of each group the shard's mutants need R times unmutated, in
// processes of the audit's batch size, and excludes from the verdicts the tests that failed
// every run: they cannot fail more often. A group with a test that fails only in the later
// runs of a process (see leaks) runs its baseline again, a process per run, as its mutants
// will.
//
// The first look of the mutants, when given, is made beside the baseline, in the same call of
// the engine: its processes do not depend on the baseline's outcomes (only its verdicts do,
// and they wait for the baseline), and a look made after the baseline left the workers idle
// while the baseline's last processes ended, then again while the look's slowest did (a
// mutant whose test prints thousands of failures). What the baseline then changes is
// afterBaseline's to settle.
func (a *auditor) runBaseline(ctx context.Context, groups []int, first *look) {
	res, owner := a.baselineRuns(ctx, groups, first)
	if alone := a.leaking(groups, res, owner); len(alone) > 0 && ctx.Err() == nil {
		a.baselineRuns(ctx, alone, nil)
	}
	for _, gi := range groups {
		a.judgeBaseline(a.groups[gi])
	}
}

// baselineRuns makes the baseline runs of the groups, in processes of each one's batch size,
// into fresh tallies, and returns the processes that finished with the group of each job. The
// look's processes, when given, run in the same call, first (a mutant's process is the
// likelier to be slow), and are counted into its mutants' tallies.
func (a *auditor) baselineRuns(ctx context.Context, groups []int, beside *look) ([]result, []int) {
	var jobs []job
	var owner []int
	for _, gi := range groups {
		g := a.groups[gi]
		g.first, g.slowest, g.cost = a.groupFirst(gi), 0, cost{}
		for _, t := range append(slices.Clip(g.tests), testout.PackageTest) {
			g.base[t] = &tally{}
		}
		for _, p := range processes(0, a.cfg.Runs, a.batchOf(g)) {
			jobs = append(jobs, job{pkg: a.bins[g.bin], filter: g.filter, cpu: g.cpu, run: g.first + p[0], count: p[1],
				timeout: a.baselineLimit(g), cost: a.groupCost(g)})
			owner = append(owner, gi)
		}
	}
	a.cfg.Log("audit: %s at baseline, in %s", plural(len(groups)*a.cfg.Runs, "run"), plural(len(jobs), "process"))
	var lookJobs []job
	if beside != nil {
		lookJobs = beside.jobs
		a.cfg.Log("audit: look 1 beside it: %s", plural(len(lookJobs), "process"))
	}
	jobs = append(slices.Clip(lookJobs), jobs...)
	a.logAtOnce(jobs)
	all, _ := a.eng.run(ctx, jobs)
	var res []result
	for _, r := range all {
		if r.job < len(lookJobs) {
			beside.count(r)
			continue
		}
		r.job -= len(lookJobs)
		g := a.groups[owner[r.job]]
		g.slowest = max(g.slowest, r.elapsed)
		g.cost.add(r)
		count(g.base, r)
		res = append(res, r)
	}
	return res, owner
}

// logAtOnce tells how many of the jobs' processes run at once when that is more than
// Config.Parallel (see processesOf).
func (a *auditor) logAtOnce(jobs []job) {
	if n := processesOf(a.cfg.Parallel, jobs); n > max(a.cfg.Parallel, 1) {
		a.cfg.Log("audit: %d processes at once: they used %.0f%% of their time in CPU", n, 100*shareOf(jobs))
	}
}

// judgeBaseline reports a group's baseline and excludes the tests that failed every run.
func (a *auditor) judgeBaseline(g *group) {
	for _, name := range append(slices.Clip(g.tests), testout.PackageTest) {
		t := g.base[name]
		if name == testout.PackageTest && t.fails == 0 {
			continue
		}
		tb := TestBaseline{Package: a.bins[g.bin].ImportPath, Test: name, CPU: g.cpu, Run: g.filter,
			Runs: t.runs, Failures: t.fails, Alone: g.alone != ""}
		where := a.describeGroup(g)
		if t.runs > 0 && t.fails == t.runs {
			tb.Excluded = true
			g.excl[name] = true
			a.rep.Warnings = appendNew(a.rep.Warnings, fmt.Sprintf("%s %s fails every baseline run (%d of %d): left out of the verdicts",
				where, name, t.fails, t.runs))
		} else if t.fails > 0 {
			w := fmt.Sprintf("%s %s fails %d of %d baseline runs: a mutant kills only by failing it significantly more often", where, name, t.fails, t.runs)
			if hint := runsNeeded(t, a.cfg.Runs, a.level()); hint != "" {
				w += "; " + hint
			}
			a.rep.Warnings = appendNew(a.rep.Warnings, w)
		}
		a.rep.Baseline = append(a.rep.Baseline, tb)
	}
}

// count adds one process's outcomes to the tallies of the tests it holds (top-level tests and
// the package pseudo-test only, which has one outcome per process); tests without a tally are
// not compared and left out.
func count(tallies map[string]*tally, r result) {
	for _, t := range r.tests {
		if strings.Contains(t.Name, "/") || t.Outcome == testout.Skip {
			continue
		}
		c := tallies[t.Name]
		if c == nil {
			continue
		}
		c.runs++
		if t.Outcome.Failed() {
			c.fails++
		}
		if t.Outcome == testout.Hang {
			c.hangs++
		}
	}
	// A process in which the package pseudo-test did not fail passed it.
	if c := tallies[testout.PackageTest]; c != nil && !hasTest(r, testout.PackageTest) {
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
