package audit

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// engine builds and runs test binaries. It is the audit's only contact with internal/runner,
// kept narrow so that a change of the runner is a change here alone.
type engine interface {
	// build compiles the test binary of every package the patterns match that has tests, with
	// the audit's build flags and then these (an -overlay, -trimpath), into the folder where
	// says.
	build(ctx context.Context, patterns []string, where binaries, flags ...string) ([]testbin.Package, error)
	// run makes the jobs, at most the engine's parallelism at a time, each in one process
	// (what a crash or hang cuts short in a new one) stopped at the job's timeout, and
	// returns one result per process that finished, in any order; on cancellation it
	// returns what finished.
	run(ctx context.Context, jobs []job) ([]result, error)
	// list returns the names of a binary's top-level tests, examples and fuzz targets.
	list(ctx context.Context, p testbin.Package) ([]string, error)
	// compiled compiles, without linking, every package of the test binaries of the packages,
	// with the audit's build flags and then these, and returns each one's content ID by the
	// name go list -test gives it ("p [p.test]" for p recompiled with its tests). A content
	// ID hashes what the compiler wrote, so equal IDs for every package of a binary mean the
	// linker is given the same input.
	compiled(ctx context.Context, pkgs []string, flags ...string) (map[string]string, error)
}

// binaries says where a build puts its test binaries.
type binaries int

const (
	// inAudit: the audit's own folder, removed with it. For the builds made several at once
	// (one per mutant), which would otherwise wait for one another's folder in the cache.
	inAudit binaries = iota
	// inCache: the binary cache (Config.CacheDir), when the audit has one, in the folder of
	// the module's directory and the audit's flags: the next audit of unchanged code finds
	// its schema's binaries there up to date, and the go command does not link them again.
	inCache
)

// job is one process of one test binary: count runs in turn (-test.count), numbered run,
// run+1, ...; filter is its -test.run pattern, env its extra variables, cpu its -test.cpu,
// timeout the limit after which the test it is running counts as hung.
// The process's seed is runner.RunSeed(Config.Seed, run), and iteration i of it gets
// replay.IterationSeed of that seed, as the runner gives every process.
type job struct {
	pkg     testbin.Package
	filter  string
	env     []string
	cpu     string
	run     int
	count   int // < 1 means 1
	timeout time.Duration
	// cost is what the processes measured before it that predict its own took (its group's
	// trace and baseline, its mutant's earlier processes): how many processes run at once
	// follows from it (processesOf). Zero when none was measured.
	cost cost
}

// result is one finished process of a job: each test's outcome in each of its runs, and one
// outcome of the package pseudo-test.
type result struct {
	job     int // the index of the job
	first   int // the number of the process's first run: a test's run number less it is its place in the process
	tests   []testout.TestResult
	elapsed time.Duration
	cpu     time.Duration // its user and system CPU time
}

// runnerEngine is the engine of internal/runner.
type runnerEngine struct {
	dir        string   // the module directory
	buildFlags []string // -tags, -race, -vet
	testFlags  []string // go test's test flags, such as -short
	skip       string
	parallel   int
	seed       uint64 // the base seed of every run
	outDir     string // where binaries go
	cacheDir   string // the binary cache, for the builds inCache; "" for none
	// execute runs the runner's jobs: runner.Execute when nil (the tests give a fake).
	execute func(context.Context, []runner.Job, runner.Options) ([]resultsfile.Record, error)
}

func (e *runnerEngine) build(ctx context.Context, patterns []string, where binaries, flags ...string) ([]testbin.Package, error) {
	out, err := os.MkdirTemp(e.outDir, "bin-")
	if err != nil {
		return nil, err
	}
	opts := testbin.BuildOptions{Dir: e.dir, Patterns: patterns, BuildFlags: linkFlags(append(slices.Clip(e.buildFlags), flags...)),
		OutDir: out, Parallel: e.parallel}
	if where == inCache {
		opts.CacheDir = e.cacheDir
	}
	return testbin.Build(ctx, opts)
}

// linkFlags returns the build flags with -ldflags=-w added when they have no -ldflags: the
// linker then writes no DWARF, which only a debugger reads, and links a test binary in about
// two thirds of the time (0.31 s of CPU against 0.47 s for go-grpc-middleware's
// util/backoffutils), the largest part of a small audit. What the tests see does not change:
// stack traces and runtime.Caller read the pclntab, which -w keeps.
func linkFlags(flags []string) []string {
	if slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "-ldflags") || strings.HasPrefix(f, "--ldflags") }) {
		return flags
	}
	return append(flags, "-ldflags=-w")
}

// run makes each job in one process (Options.Batch is the largest count, so the runner splits
// none), processesOf(parallel, jobs) at once, each job's limit stretched by as many times as
// that exceeds parallel, except that what a crash or hang cuts short runs again in new processes, as the
// runner does: their records fall in the same job by their run numbers. Each job's processes
// get a temporary directory of their own in the session's folder (TMPDIR, and TMP and TEMP,
// which Windows reads), removed once the jobs are done: what a test leaves in os.TempDir()
// (a failing suite's data folders, one per run) reaches neither another job nor the machine.
func (e *runnerEngine) run(ctx context.Context, jobs []job) ([]result, error) {
	rjobs := make([]runner.Job, len(jobs))
	batch := 1
	procs := processesOf(e.parallel, jobs)
	tmps := make([]string, 0, len(jobs))
	defer func() {
		for _, d := range tmps {
			removeAll(d)
		}
	}()
	for i, j := range jobs {
		tmp, err := os.MkdirTemp(e.outDir, "tmp-")
		if err != nil {
			return nil, err
		}
		tmps = append(tmps, tmp)
		env := append(slices.Clip(j.env), "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp)
		rjobs[i] = runner.Job{Package: j.pkg, Run: j.run, Count: max(j.count, 1), Phase: resultsfile.Main,
			Filter: j.filter, Env: env, CPU: j.cpu, Timeout: stretched(j.timeout, procs, e.parallel)}
		batch = max(batch, j.count)
	}
	execute := e.execute
	if execute == nil {
		execute = runner.Execute
	}
	recs, err := execute(ctx, rjobs, runner.Options{Parallel: procs, Seed: e.seed,
		Skip: e.skip, TestFlags: e.testFlags, Batch: batch})
	owner := owners(rjobs)
	res := make([]result, 0, len(recs))
	for _, r := range recs {
		if i := owner(r); i >= 0 {
			res = append(res, result{job: i, first: r.Run, tests: r.Tests, elapsed: time.Duration(r.Seconds * float64(time.Second)),
				cpu: time.Duration(r.CPUSeconds * float64(time.Second))})
		}
	}
	return res, err
}

// removeAll removes a folder that tests wrote into, including what they left without write
// permission (a module cache's read-only folders), which os.RemoveAll alone cannot remove.
func removeAll(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}

// owners returns a lookup of the job that a process belongs to, from its package, its -cpu
// value, its environment and the number of its first run. The environment tells apart the
// jobs of one call that share the rest: the processes of one mutant in each group of its site
// make the same run numbers (their filters differ, but a restart narrows a filter to the tests
// a crash cut short), and each job's environment holds its own temporary directory, which
// the runner copies to every record of the job, restarted processes' included.
func owners(jobs []runner.Job) func(resultsfile.Record) int {
	byKey := map[string][]int{}
	key := func(pkg, cpu string, env []string) string {
		return pkg + "\x00" + cpu + "\x00" + strings.Join(env, "\x00")
	}
	for i, j := range jobs {
		k := key(j.Package.ImportPath, j.CPU, j.Env)
		byKey[k] = append(byKey[k], i)
	}
	return func(r resultsfile.Record) int {
		for _, i := range byKey[key(r.ImportPath, r.CPU, r.Env)] {
			if j := jobs[i]; r.Run >= j.Run && r.Run < j.Run+max(j.Count, 1) {
				return i
			}
		}
		return -1
	}
}

func (e *runnerEngine) list(ctx context.Context, p testbin.Package) ([]string, error) {
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

func (e *runnerEngine) compiled(ctx context.Context, pkgs []string, flags ...string) (map[string]string, error) {
	// go list takes go test's build flags but -vet, which only go test knows.
	args := append([]string{"list", "-export", "-test", "-deps", "-f", "{{.ImportPath}}\t{{.BuildID}}"},
		slices.DeleteFunc(append(slices.Clone(e.buildFlags), flags...), isVet)...)
	cmd := exec.CommandContext(ctx, "go", append(append(args, "--"), pkgs...)...)
	cmd.Dir, cmd.Env = e.dir, testbin.GoEnv()
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, id, ok := strings.Cut(l, "\t")
		if !ok {
			return nil, fmt.Errorf("audit: go list -export printed %q, not a package and its build ID", l)
		}
		// A build ID is the action ID, which hashes the inputs, a slash, and the content ID;
		// a package with no compiled code (unsafe) has none.
		ids[path] = id[strings.LastIndex(id, "/")+1:]
	}
	return ids, nil
}
