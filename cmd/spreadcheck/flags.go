package main

import (
	crand "crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// flags is a parsed command line.
type flags struct {
	cfg      runner.Config
	out      output
	results  string // the -results file, if given
	progress bool
	diffRef  string // -diff: run only the tests that the change since this ref touched
}

func (f *flags) closeAll() { f.out.close() }

// testFlags are go test's flags that the runner passes to the test binaries and repeats in
// the replay commands, and the shard to make: spreadcheck and spreadcheck audit share them.
type testFlags struct {
	short            bool
	cpu, shuffle     string
	parallel         int
	race             bool
	tags, vet, shard string
}

// register declares the flags; vetDefault says what no -vet means.
func (t *testFlags) register(fs *flag.FlagSet, vetDefault string) {
	fs.BoolVar(&t.short, "short", false, "tell long-running tests to shorten their run time, as go test -short")
	fs.StringVar(&t.cpu, "cpu", "", "make each run once for each GOMAXPROCS value in the comma-separated `list`, as go test -cpu")
	fs.IntVar(&t.parallel, "parallel", 0, "allow `n` parallel tests within a process, as go test -parallel (0: GOMAXPROCS)")
	fs.StringVar(&t.shuffle, "shuffle", "", "shuffle the order of tests: off, on or a `seed`, as go test -shuffle")
	fs.BoolVar(&t.race, "race", false, "build with the race detector")
	fs.StringVar(&t.tags, "tags", "", "build `tags`, as for go test")
	fs.StringVar(&t.vet, "vet", "", "go vet's checks before the tests, as go test -vet: a comma-separated `list`, or off (default: "+vetDefault+")")
	fs.StringVar(&t.shard, "shard", "", "do only shard `k/n` of the work, or auto: the shard the CI system gives this machine; merge the shards' reports")
}

// registerRuns declares the flags that say which tests run, how often and in how many
// processes, which spreadcheck and spreadcheck audit share; runsUsage says what -runs counts.
func registerRuns(fs *flag.FlagSet, o *runner.Options, progress *bool, runs int, runsUsage string) {
	fs.IntVar(&o.Runs, "runs", runs, runsUsage)
	fs.StringVar(&o.Run, "run", "", "run only the tests matching `regexp`, as go test -run")
	fs.StringVar(&o.Skip, "skip", "", "skip the tests matching `regexp`, as go test -skip")
	fs.IntVar(&o.Parallel, "p", runtime.GOMAXPROCS(0), "run `n` test processes at once")
	fs.IntVar(&o.Batch, "batch", 0, "make `n` runs in each test process, in turn (-test.count): 1 gives each run a process of its own; 0 chooses from the measured start-up and test times")
	fs.Uint64Var(&o.Seed, "seed", 0, "base `seed`; each run gets its own seed from it (0: a fresh one, printed in the report)")
	fs.BoolVar(progress, "progress", true, "report progress on stderr")
}

// checkRuns validates the flags of registerRuns, each error naming its flag.
func checkRuns(o *runner.Options, minRuns int) error {
	for _, c := range []struct {
		bad  bool
		flag string
		want string
		v    any
	}{
		{o.Runs < minRuns, "-runs", fmt.Sprintf("at least %d", minRuns), o.Runs},
		{o.Parallel < 1, "-p", "at least 1", o.Parallel},
		{o.Batch < 0, "-batch", "0 (automatic) or more", o.Batch},
	} {
		if c.bad {
			return fmt.Errorf("%s %v: want %s", c.flag, c.v, c.want)
		}
	}
	if err := runner.CheckPattern("-run", o.Run); err != nil {
		return err
	}
	return runner.CheckPattern("-skip", o.Skip)
}

// apply puts the flags into the session's configuration.
func (t *testFlags) apply(cfg *runner.Config) error {
	b, o := &cfg.Build, &cfg.Options
	if t.race {
		b.BuildFlags = append(b.BuildFlags, "-race")
	}
	if t.tags != "" {
		b.BuildFlags = append(b.BuildFlags, "-tags="+t.tags)
	}
	if t.vet != "" {
		b.BuildFlags = append(b.BuildFlags, "-vet="+t.vet)
	}
	if t.short {
		o.TestFlags = append(o.TestFlags, "-short")
	}
	if t.parallel < 0 {
		return fmt.Errorf("-parallel %d: want n >= 0", t.parallel)
	} else if t.parallel > 0 {
		o.TestFlags = append(o.TestFlags, "-parallel="+strconv.Itoa(t.parallel))
	}
	if err := t.applyShuffle(o); err != nil {
		return err
	}
	if err := t.applyCPU(o); err != nil {
		return err
	}
	return t.applyShard(o)
}

func (t *testFlags) applyShuffle(o *runner.Options) error {
	if t.shuffle == "" || t.shuffle == "off" {
		return nil
	}
	if _, err := strconv.ParseInt(t.shuffle, 10, 64); err != nil && t.shuffle != "on" {
		return fmt.Errorf("-shuffle %q: want off, on or an integer seed", t.shuffle)
	}
	o.TestFlags = append(o.TestFlags, "-shuffle="+t.shuffle)
	return nil
}

func (t *testFlags) applyCPU(o *runner.Options) error {
	if t.cpu == "" {
		return nil
	}
	for _, c := range strings.Split(t.cpu, ",") {
		if n, err := strconv.Atoi(c); err != nil || n < 1 {
			return fmt.Errorf("-cpu %q: want a comma-separated list of positive integers", t.cpu)
		}
		o.CPU = append(o.CPU, c)
	}
	return nil
}

func (t *testFlags) applyShard(o *runner.Options) error {
	var err error
	switch t.shard {
	case "":
	case "auto":
		o.Shard, _, err = resultsfile.ShardFromEnv(os.Getenv)
		if err == nil {
			touchShardStatus()
		}
	default:
		o.Shard, err = resultsfile.ParseShard(t.shard)
	}
	return err
}

// touchShardStatus tells Bazel that the test runner shards (it checks that the file exists).
func touchShardStatus() {
	if path := os.Getenv("TEST_SHARD_STATUS_FILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			f.Close()
		}
	}
}

// parseFlags parses the command line of a session into the runner's configuration. Flags may
// come before and after the packages, as for go test; what follows -args goes to the binaries.
func parseFlags(args []string, stderr io.Writer) (*flags, error) {
	args, binArgs := splitArgs(args)
	var (
		f     flags
		o     = &f.cfg.Options
		tf    testFlags
		fs    = newFlagSet(stderr, &f, &tf)
		until time.Duration
		cache bool
	)
	fs.DurationVar(&until, "until", 0, "stop starting runs after `d` (a time budget) and report what was made")
	fs.BoolVar(&cache, "cache", true, "keep test binaries in the user cache directory, so that an unchanged package is not linked again")
	fs.StringVar(&f.diffRef, "diff", "", "run only what changed since the merge base of `ref` and HEAD (working tree included): all tests of a package whose code changed, the changed tests of one whose tests alone changed")
	patterns, err := parseAll(fs, args)
	if err != nil {
		return nil, err
	}
	o.Until, o.Args = until, binArgs
	if err := f.check(); err != nil {
		return nil, err
	}
	if err := tf.apply(&f.cfg); err != nil {
		return nil, err
	}
	return &f, f.finish(patterns, cache)
}

// newFlagSet declares the session's flags.
func newFlagSet(stderr io.Writer, f *flags, tf *testFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("spreadcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: spreadcheck [flags] [packages] [-args arguments for the tests...]\n"+
			"       spreadcheck merge [flags] results.jsonl...\n       spreadcheck compare [flags] before.jsonl after.jsonl\n"+
			"       spreadcheck audit [flags] [packages]\n\n")
		fs.PrintDefaults()
	}
	o := &f.cfg.Options
	registerRuns(fs, o, &f.progress, 100, "run each package's tests `n` times")
	fs.DurationVar(&o.Timeout, "timeout", 10*time.Minute, "stop a test process after `d` with a goroutine dump, and count its running tests as hung")
	fs.BoolVar(&o.FailFast, "failfast", false, "stop at the first failing run and report it")
	fs.Float64Var(&o.Precision, "precision", 0, "stop running a test once its 95% interval is narrower than `w` (such as 0.01); -runs stays the most")
	fs.StringVar(&o.LogDir, "o", "", "write each failing process's whole output, and the results file, to `dir`")
	fs.StringVar(&f.results, "results", "", "write every run's result to `file` as it finishes (default: in -o, else in the user cache directory)")
	fs.IntVar(&f.cfg.Rerun, "rerun", 0, "after the main pass, run each failed test `n` more times, alone, reported apart")
	fs.IntVar(&f.cfg.ReplayLimit, "replay", 20, "replay the failing seeds of up to `n` failing tests, to tell whether their failures depend on the seed")
	tf.register(fs, "go test's")
	f.out.register(fs)
	f.out.registerVerdict(fs)
	return fs
}

// splitArgs splits off what follows -args.
func splitArgs(args []string) (own, binary []string) {
	for i, a := range args {
		if a == "-args" || a == "--args" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// parseAll parses flags wherever they are among the packages, and returns the packages.
func parseAll(fs *flag.FlagSet, args []string) ([]string, error) {
	var patterns []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			patterns, args = append(patterns, args[0]), args[1:]
		}
		if len(args) == 0 {
			return patterns, nil
		}
	}
}

// check validates the numbers and patterns, each error naming its flag.
func (f *flags) check() error {
	o := &f.cfg.Options
	if err := checkRuns(o, 1); err != nil {
		return err
	}
	for _, c := range []struct {
		bad  bool
		flag string
		want string
		v    any
	}{
		{o.Timeout <= 0, "-timeout", "a positive duration", o.Timeout},
		{o.Until < 0, "-until", "a positive duration", o.Until},
		{!(o.Precision >= 0 && o.Precision < 1), "-precision", "a width in (0, 1)", o.Precision},
		{f.cfg.Rerun < 0, "-rerun", "0 or more", f.cfg.Rerun},
		{f.cfg.ReplayLimit < 0, "-replay", "0 or more", f.cfg.ReplayLimit},
	} {
		if c.bad {
			return fmt.Errorf("%s %v: want %s", c.flag, c.v, c.want)
		}
	}
	return f.out.check()
}

// finish completes the configuration: seed, folders, packages, the results file.
func (f *flags) finish(patterns []string, useCache bool) error {
	o := &f.cfg.Options
	if o.Seed == 0 {
		o.Seed = freshSeed()
	}
	if o.LogDir != "" {
		if err := os.MkdirAll(o.LogDir, 0o755); err != nil {
			return fmt.Errorf("-o: %v", err)
		}
	}
	f.cfg.Build.Patterns = patterns
	f.cfg.Summary = f.out.options()
	if c, err := testbin.UserCache(); err == nil {
		c.Trim(now())
		f.cfg.Cache = c
		if useCache {
			f.cfg.Build.CacheDir = c.Binaries()
		}
	}
	rf, err := openResults(f, f.header())
	if err != nil {
		return fmt.Errorf("-results: %v", err)
	}
	f.cfg.Results = rf
	return nil
}

// header describes the session at the head of its results file.
func (f *flags) header() resultsfile.Header {
	o := &f.cfg.Options
	flags := append(append([]string{}, f.cfg.Build.BuildFlags...), o.TestFlags...)
	for _, kv := range [][2]string{{"-run", o.Run}, {"-skip", o.Skip}, {"-cpu", strings.Join(o.CPU, ",")}} {
		if kv[1] != "" {
			flags = append(flags, kv[0]+"="+kv[1])
		}
	}
	return resultsfile.Header{Seed: o.Seed, Runs: o.Runs, Shard: o.Shard.String(), Patterns: f.cfg.Build.Patterns,
		Flags: flags, Started: now().UTC()}
}

// openResults creates the results file: the one asked for, else results.jsonl in the log
// directory, else one in the user cache directory (the newest 20 are kept there).
func openResults(f *flags, h resultsfile.Header) (*resultsfile.ResultsFile, error) {
	path := f.results
	if path == "" && f.cfg.Options.LogDir != "" {
		path = f.cfg.Options.LogDir + string(os.PathSeparator) + "results.jsonl"
	}
	if path == "" {
		c := f.cfg.Cache
		if c.Dir == "" {
			c.Dir = os.TempDir()
		}
		var err error
		if path, err = c.ResultsPath(h.Started, h.Seed); err != nil {
			return nil, err
		}
	}
	return resultsfile.CreateResults(path, h)
}

// freshSeed returns a random base seed for a session that was not given one.
func freshSeed() uint64 {
	var b [8]byte
	crand.Read(b[:])
	// Keep it to 9 digits: it is printed, copied and typed back in with -seed.
	return binary.LittleEndian.Uint64(b[:])%999_999_999 + 1
}
