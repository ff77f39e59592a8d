package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// Options says how to run the tests.
type Options struct {
	Runs     int               // runs of each package, numbered 1 to Runs
	Run      string            // run only the tests matching this regexp, as go test -run
	Skip     string            // skip the tests matching this regexp, as go test -skip
	Parallel int               // test processes at once; < 1 means GOMAXPROCS
	Timeout  time.Duration     // per process: it is stopped with a goroutine dump after it. 0 means 10m
	Seed     uint64            // the base seed: the process whose first run is r gets RunSeed(Seed, r)
	Shard    resultsfile.Shard // make only this shard's share of the runs; the zero Shard makes all of them
	// Batch is how many runs one process makes in turn (-test.count): 1 gives every run a
	// process of its own; 0 chooses from the measured start-up and test times.
	Batch int
	// CPU lists -test.cpu values; each run is made once with each (as go test -cpu).
	CPU []string
	// TestFlags are go test's test flags for every run, spelled as for go test ("-short",
	// "-parallel=4", "-shuffle=on"); they are repeated in the replay commands.
	TestFlags []string
	Args      []string // arguments for the test binary, as after go test's -args
	LogDir    string   // when set, the whole output of each failing process is written here

	// Stopping rules. Until is a time budget: no process starts after it and batches are
	// sized to end within it. FailFast stops at the first failing run, killing the running
	// processes (the tests that had ended are kept). Precision stops running a top-level test
	// once its and its subtests' 95% intervals are narrower than it; Runs stays the most.
	Until     time.Duration
	FailFast  bool
	Precision float64

	// OnRecord, when set, is called with each record as its process finishes, from one
	// goroutine at a time, so that results can be saved as they arrive.
	OnRecord func(resultsfile.Record)
	// OnProgress, when set, is called after each process, from the same goroutine as OnRecord.
	OnProgress func(Progress)
}

// Processes returns how many test processes run at once: Parallel, or GOMAXPROCS when
// Parallel < 1.
func (o Options) Processes() int {
	if o.Parallel < 1 {
		return runtime.GOMAXPROCS(0)
	}
	return o.Parallel
}

func (o *Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 10 * time.Minute
	}
	return o.Timeout
}

// timeout returns the limit on one process of the job: its own, or the options'.
func (j *Job) timeout(o *Options) time.Duration {
	if j.Timeout > 0 {
		return j.Timeout
	}
	return o.timeout()
}

// Progress tells how far a call to Execute has come.
type Progress struct {
	Phase       resultsfile.Phase // the phase of its jobs: main, rerun or replay
	Done, Total int               // runs finished and planned
	Failed      int               // processes with at least one failure so far
	Elapsed     time.Duration     // since Execute started
	// Left is the time the runs left should take, from the pace measured for each package:
	// its processes' wall time per run so far, at Parallel processes at once. It is 0 while
	// a package with runs left has no finished process, whose pace is then unknown: the
	// packages' paces differ by orders of magnitude, so a pace over all of them says little.
	Left time.Duration
}

// Job is a share of one package's runs: Count runs numbered Run, Run+Stride, ..., which
// Execute makes in one process or several (Options.Batch).
type Job struct {
	Package testbin.Package
	Run     int
	Count   int // < 1 means 1
	Stride  int // < 1 means 1
	// Seed, when set, is the SPREADCHECK_SEED of the job's process, which then makes all its
	// runs (a replay; a caller's own numbering of seeds); otherwise the process whose first
	// run is r gets RunSeed(Options.Seed, r).
	Seed   uint64
	Phase  resultsfile.Phase
	Filter string   // a -test.run pattern that replaces Options.Run when set
	CPU    string   // the -test.cpu value, if any
	Env    []string // extra environment variables of this job's processes, as "KEY=value"
	// Timeout, when set, replaces Options.Timeout for this job's processes: a caller that
	// knows what each job's tests take (spreadcheck audit) gives each its own limit.
	Timeout time.Duration

	flight int // the scheduler's number for a running process of the job
}

// MainJobs returns the jobs of the main pass: runs 1 to opts.Runs of every package that
// built, limited to opts.Shard, once per -cpu value.
func MainJobs(pkgs []testbin.Package, opts Options) []Job {
	first, stride := 1, 1
	if opts.Shard.N > 1 {
		first, stride = opts.Shard.K, opts.Shard.N
	}
	count := (opts.Runs - first + stride) / stride
	var jobs []Job
	for _, p := range pkgs {
		for _, cpu := range cpus(opts.CPU) {
			if p.Binary != "" && count > 0 {
				jobs = append(jobs, Job{Package: p, Run: first, Count: count, Stride: stride, Phase: resultsfile.Main, CPU: cpu})
			}
		}
	}
	return jobs
}

func cpus(list []string) []string {
	if len(list) == 0 {
		return []string{""}
	}
	return list
}

// binaryArgs returns the test binary's flags for one process.
func binaryArgs(j *Job, opts *Options) []string {
	args := []string{"-test.v=test2json", "-test.paniconexit0", "-test.count=" + strconv.Itoa(max(j.Count, 1)),
		"-test.timeout=" + j.timeout(opts).String()}
	filter := opts.Run
	if j.Filter != "" {
		filter = j.Filter
	}
	if filter != "" {
		args = append(args, "-test.run="+filter)
	}
	if opts.Skip != "" {
		args = append(args, "-test.skip="+opts.Skip)
	}
	if j.CPU != "" {
		args = append(args, "-test.cpu="+j.CPU)
	}
	for _, f := range opts.TestFlags {
		args = append(args, "-test."+f[1:])
	}
	return append(args, opts.Args...)
}

// runEnv returns the environment of one process: the runner's own, the job's, and the seed
// and the number of its first run, which the printed replay commands set as well.
func runEnv(j *Job, seed uint64) []string {
	env := append(append(os.Environ(), j.Env...), SeedEnv+"="+strconv.FormatUint(seed, 10))
	return append(env, RunEnv+"="+strconv.Itoa(j.Run))
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// logName returns the file name of a failing process's log: readable, and distinct for
// distinct processes (a/b and a_b differ by the hash of the import path).
func logName(r *resultsfile.Record) string {
	name := fmt.Sprintf("%s-%s.run%d", unsafeChars.ReplaceAllString(filepath.Base(r.ImportPath), "_"),
		shortHash(r.ImportPath), r.Run)
	if r.CPU != "" {
		name += ".cpu" + unsafeChars.ReplaceAllString(r.CPU, "_")
	}
	if r.Phase != resultsfile.Main {
		name += "." + string(r.Phase)
	}
	if r.Filter != "" {
		name += "." + shortHash(r.Filter+"\x00"+strconv.FormatUint(r.Seed, 10))
	}
	return name + ".log"
}

// seedOf returns the SPREADCHECK_SEED of a job's process whose first run is run.
func seedOf(j *Job, base uint64, run int) uint64 {
	if j.Seed != 0 {
		return j.Seed
	}
	return RunSeed(base, run)
}
