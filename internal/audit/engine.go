package audit

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/runner"
)

// engine builds and runs test binaries. It is the audit's only contact with internal/runner,
// kept narrow so that a change of the runner is a change here alone.
type engine interface {
	// build compiles the test binary of every package the patterns match that has tests, with
	// the overlay applied when it is not "".
	build(ctx context.Context, patterns []string, overlay string) ([]runner.Package, error)
	// run runs the jobs, at most the engine's parallelism at a time, and returns one result
	// per job that finished, in any order; on cancellation it returns what finished.
	run(ctx context.Context, jobs []job, timeout time.Duration) ([]result, error)
	// list returns the names of a binary's top-level tests, examples and fuzz targets.
	list(ctx context.Context, p runner.Package) ([]string, error)
}

// job is one run of one test binary: filter is its -test.run pattern, env its extra variables.
type job struct {
	pkg    runner.Package
	filter string
	env    []string
	seed   uint64
}

// result is one finished job: each test's outcome.
type result struct {
	job     int // the index of the job
	tests   []runner.TestResult
	elapsed time.Duration
}

// runnerEngine is the engine of internal/runner.
type runnerEngine struct {
	dir        string   // the module directory
	buildFlags []string // -tags, -race, -vet
	testFlags  []string // go test's test flags, such as -short
	skip       string
	parallel   int
	outDir     string // where binaries go
}

func (e *runnerEngine) build(ctx context.Context, patterns []string, overlay string) ([]runner.Package, error) {
	flags := e.buildFlags
	if overlay != "" {
		flags = append(append([]string(nil), flags...), "-overlay="+overlay)
	}
	out, err := os.MkdirTemp(e.outDir, "bin-")
	if err != nil {
		return nil, err
	}
	return runner.Build(ctx, runner.BuildOptions{Dir: e.dir, Patterns: patterns, BuildFlags: flags,
		OutDir: out, Parallel: e.parallel})
}

func (e *runnerEngine) run(ctx context.Context, jobs []job, timeout time.Duration) ([]result, error) {
	rjobs := make([]runner.Job, len(jobs))
	for i, j := range jobs {
		// The run number carries the job's index back from the record.
		rjobs[i] = runner.Job{Package: j.pkg, Run: i + 1, Seed: j.seed, Phase: runner.Main, Filter: j.filter, Env: j.env}
	}
	recs, err := runner.Execute(ctx, rjobs, runner.Options{Parallel: e.parallel, Timeout: timeout,
		Skip: e.skip, TestFlags: e.testFlags, Batch: 1})
	res := make([]result, len(recs))
	for i, r := range recs {
		res[i] = result{job: r.Run - 1, tests: r.Tests, elapsed: time.Duration(r.Seconds * float64(time.Second))}
	}
	return res, err
}

func (e *runnerEngine) list(ctx context.Context, p runner.Package) ([]string, error) {
	cmd := exec.CommandContext(ctx, p.Binary, "-test.list", ".")
	cmd.Dir = p.Dir
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "Benchmark") && !strings.Contains(l, " ") {
			names = append(names, l)
		}
	}
	return names, nil
}
