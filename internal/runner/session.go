package runner

import (
	"context"
	"os"
	"slices"
	"strings"
	"time"
)

// Config describes a whole session: build, the main pass, reruns of what failed, replay checks.
type Config struct {
	Build   BuildOptions
	Options Options
	// Rerun is how many more times to run each test that failed the main pass; 0 means none.
	Rerun int
	// ReplayLimit is how many failing tests to replay once with the seed of a failing run (see
	// ReplayJobs), to check that the seed reproduces the failure; 0 means none.
	ReplayLimit int
	Summary     SummaryOptions
	// Results, when set, receives every record as it arrives (see ResultsFile).
	Results *ResultsFile
}

// RunSession builds the packages, runs the main pass, then the reruns and the replay checks,
// and returns the report. When ctx is cancelled it stops starting runs and returns a report on
// the runs that finished, marked Interrupted. The error is for failures to run the go command
// at all; build failures of single packages are in the report.
func RunSession(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	bin, err := os.MkdirTemp("", "spreadcheck-bin-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(bin)
	b := cfg.Build
	b.OutDir = bin
	if b.Parallel < 1 {
		b.Parallel = cfg.Options.Parallel
	}
	pkgs, err := Build(ctx, b)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}

	var recs []Record
	keep := func(r Record) {
		recs = append(recs, r)
		if cfg.Results != nil {
			cfg.Results.Add(r)
		}
	}
	for _, p := range pkgs {
		if p.BuildError != "" && ctx.Err() == nil { // an interrupted build is no build failure
			keep(Record{Package: p, Phase: Main})
		}
	}
	opts := cfg.Options
	userRecord := opts.OnRecord
	opts.OnRecord = func(r Record) {
		keep(r)
		if userRecord != nil {
			userRecord(r)
		}
	}
	// Execute's only error is ctx's, which the report gives as Interrupted.
	if ctx.Err() == nil {
		Execute(ctx, MainJobs(pkgs, opts), opts)
	}
	if cfg.Rerun > 0 && ctx.Err() == nil {
		Execute(ctx, RerunJobs(pkgs, Summarize(recs, cfg.Summary), cfg.Rerun, opts), opts)
	}
	if cfg.ReplayLimit > 0 && ctx.Err() == nil {
		ropts := opts
		ropts.OnProgress = nil // a handful of runs, not worth a progress line
		Execute(ctx, ReplayJobs(pkgs, Summarize(recs, cfg.Summary), cfg.ReplayLimit), ropts)
	}

	rep := Summarize(recs, cfg.Summary)
	addUnrun(rep, pkgs)
	rep.Seed, rep.Runs = opts.Seed, opts.Runs
	if s := opts.Shard.String(); s != "" {
		rep.Shards = []string{s}
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.Interrupted = ctx.Err() != nil
	return rep, nil
}

// addUnrun lists the packages that built but finished no run (the session was interrupted, or
// -run matched none of their tests) so that the report does not silently leave them out.
func addUnrun(rep *Report, pkgs []Package) {
	seen := map[string]bool{}
	for _, p := range rep.Packages {
		seen[p.ImportPath] = true
	}
	for _, p := range pkgs {
		if !seen[p.ImportPath] {
			p.Binary = ""
			rep.Packages = append(rep.Packages, PackageSummary{Package: p})
		}
	}
	slices.SortFunc(rep.Packages, func(a, b PackageSummary) int { return strings.Compare(a.ImportPath, b.ImportPath) })
}
