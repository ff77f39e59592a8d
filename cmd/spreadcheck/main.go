// Command spreadcheck runs a Go test suite many times and reports, per test, how often it
// fails, with a 95% confidence interval, and the command that replays each failing run.
//
// Usage:
//
//	spreadcheck [flags] [packages]
//	spreadcheck merge [flags] results.jsonl...
//
// Each package is built once with go test -c; every run of its binary gets its own seed in
// SPREADCHECK_SEED (which spread.Rand reads) and its number in SPREADCHECK_RUN. A test that
// crashes the process or hangs past -timeout is reported as such, never lost. Tests that use
// spread's checks record the false-failure rate they were sized for, and the report says
// whether their failures are more than that sizing explains.
//
// The exit status is 0 when no test fails more often than -max-flake at 95% confidence, 1 when
// one does, 2 for a usage or build error, 3 when interrupted. The work is in package
// internal/runner; this command only parses flags and prints.
package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/runner"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// output holds the flags that say where the report goes.
type output struct {
	json     bool
	summary  string
	maxFlake float64
	detect   float64
}

func (o *output) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print the report as JSON instead of a table")
	fs.StringVar(&o.summary, "summary", "", "also write a Markdown summary to `file` (such as $GITHUB_STEP_SUMMARY)")
	fs.Float64Var(&o.maxFlake, "max-flake", 0, "exit 1 when a test's flake `rate` is above this at 95% confidence")
	fs.Float64Var(&o.detect, "detect", 0.001, "state the runs needed to detect a flake of this `rate`")
}

func (o *output) check() error {
	if o.maxFlake < 0 || o.maxFlake >= 1 || o.maxFlake != o.maxFlake {
		return fmt.Errorf("-max-flake %v: want a rate in [0, 1)", o.maxFlake)
	}
	if o.detect <= 0 || o.detect >= 1 || o.detect != o.detect {
		return fmt.Errorf("-detect %v: want a rate in (0, 1)", o.detect)
	}
	return nil
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return merge(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "audit" {
		return runAudit(args[1:], stdout, stderr)
	}
	f, err := parseFlags(args, stderr)
	if err != nil {
		return usage(err, stderr)
	}
	rf, err := openResults(f.results, f.cfg.Options.LogDir, runner.Header{Seed: f.cfg.Options.Seed,
		Runs: f.cfg.Options.Runs, Shard: f.cfg.Options.Shard.String(), Patterns: f.cfg.Build.Patterns,
		Started: time.Now().UTC()})
	if err != nil {
		return usage(err, stderr)
	}
	f.cfg.Results = rf

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills the runner outright
	}()
	pr := newProgress(stderr)
	if f.progress {
		f.cfg.Options.OnProgress = pr.update
	}
	rep, err := runner.RunSession(ctx, f.cfg)
	pr.end()
	if err != nil {
		rf.Close(runner.End{Interrupted: true})
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		return runner.ExitBuild
	}
	cerr := rf.Close(runner.End{Seconds: rep.Seconds, Interrupted: rep.Interrupted})
	if err := f.out.write(rep, stdout); err != nil {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		return runner.ExitBuild
	}
	if cerr != nil {
		fmt.Fprintf(stderr, "spreadcheck: results file: %v\n", cerr)
	} else if f.results == "" && f.cfg.Options.LogDir == "" {
		fmt.Fprintf(stderr, "spreadcheck: results saved in %s\n", rf.Name())
	}
	return rep.ExitCode()
}

// flags is a parsed command line.
type flags struct {
	cfg      runner.Config
	out      output
	results  string // the -results file, if given
	progress bool
}

// parseFlags parses the command line of a session into the runner's configuration.
func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	fs := flag.NewFlagSet("spreadcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: spreadcheck [flags] [packages]\n       spreadcheck merge [flags] results.jsonl...\n\n")
		fs.PrintDefaults()
	}
	var (
		f     flags
		o     = &f.cfg.Options
		shard = fs.String("shard", "", "make only shard `k/n` of the runs; merge the shards' -results files")
		race  = fs.Bool("race", false, "build with the race detector")
		tags  = fs.String("tags", "", "build `tags`, as for go test")
		cache = fs.Bool("cache", true, "keep test binaries in the user cache directory, so that an unchanged package is not linked again")
	)
	fs.IntVar(&o.Runs, "runs", 100, "run each package's tests `n` times")
	fs.StringVar(&o.Run, "run", "", "run only the tests matching `regexp`, as go test -run")
	fs.StringVar(&o.Skip, "skip", "", "skip the tests matching `regexp`, as go test -skip")
	fs.IntVar(&o.Parallel, "p", runtime.GOMAXPROCS(0), "run `n` test processes at once")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Minute, "stop a run after `d` with a goroutine dump, and count it as a hang")
	fs.Uint64Var(&o.Seed, "seed", 0, "base `seed`; run i gets its own seed from it (0: a fresh one, printed in the report)")
	fs.StringVar(&o.LogDir, "o", "", "write each failing run's whole output, and the results file, to `dir`")
	fs.StringVar(&f.results, "results", "", "append every run's result to `file` as it finishes (default: in -o, else a temporary file)")
	fs.IntVar(&f.cfg.Rerun, "rerun", 0, "after the main pass, run each failed test `n` more times to narrow its interval")
	fs.IntVar(&f.cfg.ReplayLimit, "replay", 20, "replay up to `n` failing tests once with their failing seed, to check that it reproduces")
	fs.BoolVar(&f.progress, "progress", true, "report progress on stderr")
	f.out.register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if err := f.out.check(); err != nil {
		return nil, err
	}
	if o.Runs < 1 || o.Parallel < 1 || o.Timeout <= 0 || f.cfg.Rerun < 0 || f.cfg.ReplayLimit < 0 {
		return nil, errors.New("-runs, -p and -timeout must be positive, -rerun and -replay not negative")
	}
	if *shard != "" {
		s, err := runner.ParseShard(*shard)
		if err != nil {
			return nil, err
		}
		o.Shard = s
	}
	if o.Seed == 0 {
		o.Seed = freshSeed()
	}
	if o.LogDir != "" {
		if err := os.MkdirAll(o.LogDir, 0o755); err != nil {
			return nil, err
		}
	}
	b := &f.cfg.Build
	b.Patterns, b.CacheDir = fs.Args(), cacheDir(*cache)
	if *race {
		b.BuildFlags = append(b.BuildFlags, "-race")
	}
	if *tags != "" {
		b.BuildFlags = append(b.BuildFlags, "-tags="+*tags)
	}
	f.cfg.Summary = runner.SummaryOptions{MaxFlake: f.out.maxFlake, Detect: f.out.detect}
	return &f, nil
}

// merge implements "spreadcheck merge": one report from the results files of several shards.
func merge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spreadcheck merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: spreadcheck merge [flags] results.jsonl...\n\n")
		fs.PrintDefaults()
	}
	var out output
	out.register(fs)
	if err := fs.Parse(args); err != nil {
		return usage(err, stderr)
	}
	if err := out.check(); err != nil {
		return usage(err, stderr)
	}
	m, err := runner.MergeResults(fs.Args()...)
	if err != nil {
		return usage(err, stderr)
	}
	rep := runner.Summarize(m.Records, runner.SummaryOptions{MaxFlake: out.maxFlake, Detect: out.detect})
	rep.Seed, rep.Runs, rep.Seconds = m.Headers[0].Seed, m.Headers[0].Runs, m.Seconds
	for _, h := range m.Headers {
		if h.Shard != "" {
			rep.Shards = append(rep.Shards, h.Shard)
		}
	}
	rep.Interrupted = m.Incomplete
	if err := out.write(rep, stdout); err != nil {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		return runner.ExitBuild
	}
	return rep.ExitCode()
}

func (o *output) write(rep *runner.Report, stdout io.Writer) error {
	if o.summary != "" {
		f, err := os.OpenFile(o.summary, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		err = rep.WriteMarkdown(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	if o.json {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteText(stdout)
}

func usage(err error, stderr io.Writer) int {
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
	}
	return runner.ExitBuild
}

// openResults creates the results file: the one asked for, else results.jsonl in the log
// directory, else a temporary file.
func openResults(path, logDir string, h runner.Header) (*runner.ResultsFile, error) {
	if path == "" && logDir != "" {
		path = filepath.Join(logDir, "results.jsonl")
	}
	if path == "" {
		f, err := os.CreateTemp("", "spreadcheck-*.jsonl")
		if err != nil {
			return nil, err
		}
		path = f.Name()
		f.Close()
	}
	return runner.CreateResults(path, h)
}

// cacheDir returns where test binaries are kept between sessions, or "" for nowhere.
func cacheDir(use bool) string {
	dir, err := os.UserCacheDir()
	if !use || err != nil {
		return ""
	}
	return filepath.Join(dir, "spreadcheck", "testbin")
}

// freshSeed returns a random base seed for a session that was not given one.
func freshSeed() uint64 {
	var b [8]byte
	crand.Read(b[:])
	// Keep it to 9 digits: it is printed, copied and typed back in with -seed.
	return binary.LittleEndian.Uint64(b[:])%999_999_999 + 1
}

// progress reports progress on stderr: one line rewritten in place on a terminal, and a plain
// line every tenth of the way in a CI log.
type progress struct {
	w         io.Writer
	tty       bool
	open      bool // a terminal line has been written and not ended
	lastTenth int
}

func newProgress(w io.Writer) *progress { return &progress{w: w, tty: isTerminal(w)} }

func (pr *progress) update(p runner.Progress) {
	if p.Done == 1 {
		pr.lastTenth = 0 // a new phase (the reruns) starts counting again
	}
	line := fmt.Sprintf("spreadcheck: %d/%d runs, %d with failures, %s elapsed",
		p.Done, p.Total, p.Failed, p.Elapsed.Round(time.Second))
	if p.Done < p.Total {
		line += fmt.Sprintf(", ETA %s", p.ETA().Round(time.Second))
	}
	if pr.tty {
		fmt.Fprintf(pr.w, "\r\033[K%s", line)
		pr.open = true
		return
	}
	if tenth := 10 * p.Done / max(p.Total, 1); tenth > pr.lastTenth {
		pr.lastTenth = tenth
		fmt.Fprintln(pr.w, line)
	}
}

// end finishes the terminal line, so that what is printed next starts on a line of its own.
func (pr *progress) end() {
	if pr.open {
		fmt.Fprintln(pr.w)
		pr.open = false
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}
