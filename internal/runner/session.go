package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// Config describes a whole session: build, the main pass, reruns of what failed, replay checks.
type Config struct {
	Build   testbin.BuildOptions // OutDir, when empty, is a folder of the session's own (see BinDir)
	Options Options
	// Rerun is how many more times to run each test that failed the main pass; 0 means none.
	Rerun int
	// ReplayLimit is how many failing tests to replay with the seeds of failing runs (see
	// ReplayJobs), to tell whether their failures depend on the seed; 0 means none.
	ReplayLimit int
	Summary     testreport.SummaryOptions
	// Results, when set, receives every record as it arrives (see ResultsFile).
	Results *resultsfile.ResultsFile
	// Cache holds the session's folder for its copies of the test binaries when Build.OutDir
	// is empty; the zero Cache means the temporary directory.
	Cache testbin.Cache
	// Diff, when set, runs only the tests that a change touched (see Diff).
	Diff *Diff
}

// RunSession builds the packages, runs the main pass, then the reruns and the replay checks,
// and returns the report. When ctx is cancelled it stops starting runs and returns a report on
// the runs that finished, marked Interrupted. The error is for failures to run the go command
// at all; build failures of single packages are in the report.
func RunSession(ctx context.Context, cfg Config) (*testreport.Report, error) {
	start := time.Now()
	var filters map[string]string
	var diffRep *testreport.DiffReport
	if cfg.Diff != nil {
		// Choose from the list, so that only what the change touched is built.
		listed, err := testbin.List(ctx, cfg.Build)
		if err != nil {
			return nil, err
		}
		var chosen []testbin.Package
		chosen, filters, diffRep = cfg.Diff.choose(listed, cfg.Options.Run)
		if len(chosen) == 0 {
			return &testreport.Report{Seed: cfg.Options.Seed, Runs: cfg.Options.Runs, MaxFlake: cfg.Summary.MaxFlake,
				Packages: []testreport.PackageSummary{}, Diff: diffRep, Seconds: time.Since(start).Seconds()}, nil
		}
		cfg.Build.Patterns = nil
		for _, p := range chosen {
			cfg.Build.Patterns = append(cfg.Build.Patterns, p.ImportPath)
		}
	}
	pkgs, done, err := buildSession(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	defer done()
	var recs []resultsfile.Record
	keep := func(r resultsfile.Record) {
		recs = append(recs, r)
		if cfg.Results != nil {
			cfg.Results.Add(r)
		}
	}
	for _, p := range pkgs {
		if p.BuildError != "" {
			keep(resultsfile.Record{Package: p, Phase: resultsfile.Main})
		}
	}
	opts := cfg.Options
	opts.OnRecord = chain(keep, opts.OnRecord)
	none := matchNone(ctx, pkgs, &opts) // then no process is started: the report says NO TESTS
	if !none {
		if err := runPhases(ctx, &cfg, pkgs, filters, opts, &recs); err != nil && ctx.Err() == nil {
			return nil, err
		}
	}
	rep := testreport.Summarize(recs, cfg.Summary)
	rep.NoTests = rep.NoTests || none
	rep.Diff = diffRep
	addUnrun(rep, pkgs)
	rep.Stopped = stopped(&opts, rep)
	rep.Seed, rep.Runs = opts.Seed, opts.Runs
	if s := opts.Shard.String(); s != "" {
		rep.Shards = []string{s}
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.Interrupted = ctx.Err() != nil
	return rep, nil
}

// buildSession builds the packages into the session's folder and returns them with the
// function that removes the folder. A build stopped by ctx is no build failure: its packages
// are left out.
func buildSession(ctx context.Context, cfg *Config) ([]testbin.Package, func(), error) {
	done := func() {}
	if cfg.Build.OutDir == "" {
		c := cfg.Cache
		if c.Dir == "" {
			c.Dir = filepath.Join(os.TempDir(), "spreadcheck")
		}
		dir, release, err := c.Session()
		if err != nil {
			return nil, nil, err
		}
		cfg.Build.OutDir, done = dir, release
	}
	if cfg.Build.Parallel < 1 {
		cfg.Build.Parallel = cfg.Options.Parallel
	}
	pkgs, err := testbin.Build(ctx, cfg.Build)
	if ctx.Err() != nil {
		pkgs, err = slices.DeleteFunc(pkgs, func(p testbin.Package) bool { return p.BuildError != "" }), nil
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return pkgs, done, nil
}

// runPhases makes the main pass, the reruns and the replays, each only while ctx lasts. An
// interrupt is no error: the report gives it as Interrupted.
// filters holds the -test.run filter of each package whose changed tests alone run (Diff).
func runPhases(ctx context.Context, cfg *Config, pkgs []testbin.Package, filters map[string]string, opts Options, recs *[]resultsfile.Record) error {
	jobs := MainJobs(pkgs, opts)
	for i := range jobs {
		jobs[i].Filter = filters[jobs[i].Package.ImportPath]
	}
	if _, err := Execute(ctx, jobs, opts); err != nil {
		return err
	}
	// Reruns and replays are of failing tests: without one, there is no need to summarize.
	if !slices.ContainsFunc(*recs, func(r resultsfile.Record) bool { return r.Failed() }) {
		return nil
	}
	// The stopping rules are the main pass's: reruns and replays are few, and chosen.
	opts.FailFast, opts.Until, opts.Precision = false, 0, 0
	if cfg.Rerun > 0 {
		if _, err := Execute(ctx, RerunJobs(pkgs, testreport.Summarize(*recs, cfg.Summary), cfg.Rerun, opts), opts); err != nil {
			return err
		}
	}
	if cfg.ReplayLimit > 0 {
		_, err := Execute(ctx, ReplayJobs(pkgs, testreport.Summarize(*recs, cfg.Summary), cfg.ReplayLimit), opts)
		return err
	}
	return nil
}

// matchNone reports whether -run and -skip leave no test, fuzz target or example of any
// built package to run, as each test binary's -test.list says (a listing runs no test), so
// that a pattern that matches nothing is reported before processes are started for it. A
// package whose binary lists nothing, or cannot be listed, counts as unknown: it is run.
func matchNone(ctx context.Context, pkgs []testbin.Package, opts *Options) bool {
	if opts.Run == "" && opts.Skip == "" {
		return false
	}
	built := 0
	for i := range pkgs {
		if pkgs[i].BuildError != "" {
			continue
		}
		built++
		names := listTests(ctx, &pkgs[i], opts.timeout())
		if len(names) == 0 || len(selected(names, opts.Run, opts.Skip)) > 0 {
			return false
		}
	}
	return built > 0
}

// stopped says why the main pass made fewer runs than asked for, other than an interrupt.
func stopped(o *Options, rep *testreport.Report) string {
	made := 0
	for _, p := range rep.Packages {
		made += p.Runs
	}
	asked := 0
	for _, p := range rep.Packages {
		if p.BuildError == "" {
			asked += (o.Runs + max(o.Shard.N, 1) - max(o.Shard.K, 1)) / max(o.Shard.N, 1) * max(len(o.CPU), 1)
		}
	}
	switch {
	case made >= asked:
		return ""
	case o.FailFast && len(rep.Flaky)+len(rep.Failing) > 0 || o.FailFast && anyFailed(rep):
		return fmt.Sprintf("-failfast stopped the runs at the first failure, after %d of %d", made, asked)
	case o.Until > 0:
		return fmt.Sprintf("-until %s ran out after %d of %d runs", o.Until, made, asked)
	case o.Precision > 0:
		return fmt.Sprintf("-precision %g: every test's interval was narrower after %d of %d runs", o.Precision, made, asked)
	}
	return ""
}

func anyFailed(rep *testreport.Report) bool {
	for _, p := range rep.Packages {
		for _, t := range p.Tests {
			if t.Bad() > 0 {
				return true
			}
		}
	}
	return false
}

func chain(a, b func(resultsfile.Record)) func(resultsfile.Record) {
	if b == nil {
		return a
	}
	return func(r resultsfile.Record) { a(r); b(r) }
}

// addUnrun lists the packages that built but finished no run (the session was interrupted, or
// -run matched none of their tests) so that the report does not silently leave them out.
func addUnrun(rep *testreport.Report, pkgs []testbin.Package) {
	seen := map[string]bool{}
	for _, p := range rep.Packages {
		seen[p.ImportPath] = true
	}
	for _, p := range pkgs {
		if !seen[p.ImportPath] {
			p.Binary = ""
			rep.Packages = append(rep.Packages, testreport.PackageSummary{Package: p})
		}
	}
	slices.SortFunc(rep.Packages, func(a, b testreport.PackageSummary) int { return strings.Compare(a.ImportPath, b.ImportPath) })
}
