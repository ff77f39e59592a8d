package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Phase says why a run was made.
type Phase string

// The phases of a session: the main pass, reruns of the tests that failed it, and replays that
// check whether a failing run's seed reproduces its failure.
const (
	Main   Phase = "main"
	Rerun  Phase = "rerun"
	Replay Phase = "replay"
)

// Record is the result of running one package's test binary once.
type Record struct {
	Package
	Run     int          `json:"run"`
	Seed    uint64       `json:"seed,string"`
	Phase   Phase        `json:"phase"`
	Filter  string       `json:"filter,omitempty"` // the -test.run pattern, if the run had one
	Exit    int          `json:"exit"`             // the exit status; -1 when a signal ended the process
	Killed  bool         `json:"killed,omitempty"` // the runner's watchdog stopped the run
	Seconds float64      `json:"seconds"`
	Tests   []TestResult `json:"tests,omitempty"`
	Log     string       `json:"log,omitempty"` // the file holding the run's whole output
}

// Failed reports whether any test failed, crashed or hung in the run.
func (r *Record) Failed() bool {
	for _, t := range r.Tests {
		if t.Outcome.Failed() {
			return true
		}
	}
	return false
}

// Options says how to run the tests.
type Options struct {
	Runs     int           // runs of each package, numbered 1 to Runs
	Run      string        // run only the tests matching this regexp, as go test -run
	Skip     string        // skip the tests matching this regexp, as go test -skip
	Parallel int           // test processes at once; < 1 means GOMAXPROCS
	Timeout  time.Duration // per run; the run is stopped with a goroutine dump after it. 0 means 10m
	Seed     uint64        // the base seed: run i gets RunSeed(Seed, i)
	Shard    Shard         // run only this shard's share of the runs; the zero Shard is all of them
	LogDir   string        // when set, the whole output of each failing run is written here
	Args     []string      // extra flags for the test binary, such as -test.short

	// OnRecord, when set, is called with each record as its run finishes, from one goroutine
	// at a time, so that results can be saved as they arrive.
	OnRecord func(Record)
	// OnProgress, when set, is called after each run, from the same goroutine as OnRecord.
	OnProgress func(Progress)
}

func (o *Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 10 * time.Minute
	}
	return o.Timeout
}

// Progress tells how far a call to Execute has come.
type Progress struct {
	Done, Total int           // runs finished and planned
	Failed      int           // runs with at least one failure so far
	Elapsed     time.Duration // since Execute started
}

// ETA estimates the time left from the pace so far.
func (p Progress) ETA() time.Duration {
	if p.Done == 0 {
		return 0
	}
	return time.Duration(float64(p.Elapsed) / float64(p.Done) * float64(p.Total-p.Done))
}

// Shard is a share of the runs: shard K of N (1 <= K <= N) makes the runs whose number i has
// (i-1) mod N == K-1. The zero Shard makes every run.
type Shard struct{ K, N int }

// ParseShard parses "k/n".
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("runner: shard %q: want k/n with 1 <= k <= n, such as 2/4", s)
	}
	return Shard{k, n}, nil
}

// Has reports whether run number i belongs to the shard.
func (s Shard) Has(i int) bool { return s.N <= 1 || (i-1)%s.N == s.K-1 }

// String returns "k/n", or "" for the zero Shard.
func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Job is one run of one package's test binary.
type Job struct {
	Package Package
	Run     int
	Seed    uint64
	Phase   Phase
	Filter  string   // a -test.run pattern that replaces Options.Run when set
	Env     []string // extra environment variables of this run only, as "KEY=value"
}

// MainJobs returns the jobs of the main pass: runs 1 to opts.Runs of every package that
// built, limited to opts.Shard, in run order so that an interrupted pass has covered every
// package about equally.
func MainJobs(pkgs []Package, opts Options) []Job {
	var jobs []Job
	for i := 1; i <= opts.Runs; i++ {
		if !opts.Shard.Has(i) {
			continue
		}
		for _, p := range pkgs {
			if p.Binary != "" {
				jobs = append(jobs, Job{Package: p, Run: i, Seed: RunSeed(opts.Seed, i), Phase: Main})
			}
		}
	}
	return jobs
}

// Execute runs the jobs, opts.Parallel at a time, and returns the records of the runs that
// finished, in the order they finished. When ctx is cancelled it starts no more runs, kills
// the running ones (their records are dropped: they did not finish) and returns what finished
// with ctx's error.
func Execute(ctx context.Context, jobs []Job, opts Options) ([]Record, error) {
	start := time.Now()
	par := opts.Parallel
	if par < 1 {
		par = runtime.GOMAXPROCS(0)
	}
	todo := make(chan Job)
	done := make(chan Record)
	var wg sync.WaitGroup
	for range min(par, max(len(jobs), 1)) {
		wg.Go(func() {
			for j := range todo {
				if r, ok := runOne(ctx, j, &opts); ok {
					done <- r
				}
			}
		})
	}
	go func() {
		defer close(todo)
		for _, j := range jobs {
			select {
			case todo <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(done) }()

	var recs []Record
	failed := 0
	for r := range done {
		recs = append(recs, r)
		if r.Failed() {
			failed++
		}
		if opts.OnRecord != nil {
			opts.OnRecord(r)
		}
		if opts.OnProgress != nil {
			opts.OnProgress(Progress{Done: len(recs), Total: len(jobs), Failed: failed, Elapsed: time.Since(start)})
		}
	}
	return recs, ctx.Err()
}

// watchdogGrace is how long after -test.timeout the runner waits for the binary's own timeout
// panic before it sends SIGQUIT itself (a goroutine dump) and, killGrace later, SIGKILL. They
// are variables so that the tests can shorten them.
var (
	watchdogGrace = 5 * time.Second
	killGrace     = 5 * time.Second
)

// runOne runs one job. It returns false when ctx was cancelled before the run finished.
func runOne(ctx context.Context, j Job, opts *Options) (Record, bool) {
	timeout := opts.timeout()
	runCtx, cancel := context.WithTimeout(ctx, timeout+watchdogGrace)
	defer cancel()
	cmd := exec.CommandContext(runCtx, j.Package.Binary, binaryArgs(j, opts, timeout)...)
	cmd.Dir = j.Package.Dir
	cmd.Env = runEnv(j)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out // one pipe: the interleaving is the real one
	var killed atomic.Bool
	cmd.Cancel = func() error {
		if ctx.Err() != nil {
			return cmd.Process.Kill()
		}
		killed.Store(true)
		return quit(cmd.Process)
	}
	cmd.WaitDelay = killGrace
	detach(cmd)

	t0 := time.Now()
	err := cmd.Run()
	secs := time.Since(t0).Seconds()
	if ctx.Err() != nil {
		return Record{}, false
	}
	exit := -1
	if cmd.ProcessState != nil {
		exit = cmd.ProcessState.ExitCode()
	} else if err != nil {
		out.WriteString(err.Error()) // the binary did not start: blame the package
	}
	r := Record{
		Package: j.Package, Run: j.Run, Seed: j.Seed, Phase: j.Phase, Filter: j.Filter,
		Exit: exit, Killed: killed.Load(), Seconds: secs,
		Tests: parseRun(out.Bytes(), exit, killed.Load()),
	}
	if r.Failed() && opts.LogDir != "" {
		r.Log = writeLog(opts.LogDir, &r, out.Bytes())
	}
	return r, true
}

// binaryArgs returns the test binary's flags for one run.
func binaryArgs(j Job, opts *Options, timeout time.Duration) []string {
	args := []string{"-test.v=test2json", "-test.paniconexit0", "-test.count=1",
		"-test.timeout=" + timeout.String()}
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
	return append(args, opts.Args...)
}

// runEnv returns the environment of one run: the runner's own, plus the run's seed and number.
func runEnv(j Job) []string {
	env := append(append(os.Environ(), j.Env...), SeedEnv+"="+strconv.FormatUint(j.Seed, 10))
	if j.Phase == Replay {
		// A replay sets only what the printed replay command sets, so that it checks that command.
		return append(env, RunEnv+"=")
	}
	return append(env, RunEnv+"="+strconv.Itoa(j.Run))
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// writeLog saves a failing run's output and returns the file name, or "" if it could not.
func writeLog(dir string, r *Record, out []byte) string {
	name := fmt.Sprintf("%s.run%d", unsafeChars.ReplaceAllString(r.ImportPath, "_"), r.Run)
	if r.Phase != Main {
		name += "." + string(r.Phase)
	}
	path := filepath.Join(dir, name+".log")
	head := fmt.Sprintf("# %s run %d (%s), %s=%d\n", r.ImportPath, r.Run, r.Phase, SeedEnv, r.Seed)
	if err := os.WriteFile(path, append([]byte(head), out...), 0o644); err != nil {
		return ""
	}
	return path
}
