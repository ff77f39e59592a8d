package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"syscall"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/audit"
	"github.com/spreadcheck/spreadcheck/internal/runner"
)

const auditUsage = `usage: spreadcheck audit [flags] [packages]
       spreadcheck audit merge [-json] [-summary file] report.json...

Finds where randomness enters the packages (default ./...), rewrites each site into the four
broken classes (constant, sign-flip, clock-derived, collapsed-range) through go test -overlay,
never writing the tree, runs the tests that reach each site R times at baseline and under each
mutant, and reports per site and class: killed, survived, equivalent, not covered or not viable.
Exit status: 0 all killed or nothing found, 1 a mutant survived or was not covered, 2 usage or
build error, 3 interrupted.

`

// auditFlags is a parsed audit command line.
type auditFlags struct {
	cfg      audit.Config
	json     bool
	summary  string
	progress bool
}

func parseAuditFlags(args []string, stderr io.Writer) (*auditFlags, error) {
	fs := flag.NewFlagSet("spreadcheck audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, auditUsage)
		fs.PrintDefaults()
	}
	var (
		f     auditFlags
		c     = &f.cfg
		shard = fs.String("shard", "", "audit only shard `k/n` of the mutants; merge the shards' -json reports with spreadcheck audit merge")
		race  = fs.Bool("race", false, "build with the race detector")
		tags  = fs.String("tags", "", "build `tags`, as for go test")
		short = fs.Bool("short", false, "run the tests with -test.short")
	)
	fs.StringVar(&c.Vet, "vet", "off", "go vet's checks before the tests, as go test -vet: a comma-separated `list`, all, or off (tests of code you did not write often fail vet)")
	fs.IntVar(&c.Runs, "runs", audit.DefaultRuns, "run the tests `n` times at baseline and at most n times under each mutant")
	fs.Float64Var(&c.Alpha, "alpha", audit.DefaultAlpha, "false-kill `rate` of the whole audit: the chance that any mutant is called killed by chance")
	fs.StringVar(&c.Run, "run", "", "audit with only the tests matching `regexp`, as go test -run")
	fs.StringVar(&c.Skip, "skip", "", "skip the tests matching `regexp`, as go test -skip")
	fs.IntVar(&c.Parallel, "p", runtime.GOMAXPROCS(0), "run `n` test processes and builds at once")
	fs.DurationVar(&c.Timeout, "timeout", 0, "stop a run after `d` and count it as a hang (0: 10 times the slowest baseline run, at least 10s)")
	fs.BoolVar(&c.AllRuns, "all-runs", false, "run every mutant -runs times, without stopping once it is killed or certain to survive")
	fs.Uint64Var(&c.Seed, "seed", 0, "base `seed`; every run gets its own seed from it (0: a fresh one, printed in the report)")
	fs.BoolVar(&c.PerMutant, "per-mutant", false, "build one test binary per mutant instead of one mutant schema per package (slower; see the README)")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.StringVar(&f.summary, "summary", "", "also write a Markdown summary to `file` (such as $GITHUB_STEP_SUMMARY)")
	fs.BoolVar(&f.progress, "progress", true, "report progress on stderr")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if c.Runs < 2 || c.Parallel < 1 || c.Timeout < 0 || !(c.Alpha > 0 && c.Alpha < 1) {
		return nil, errors.New("-runs must be at least 2, -p positive, -timeout not negative, -alpha in (0, 1)")
	}
	for _, re := range []string{c.Run, c.Skip} {
		if _, err := regexp.Compile(re); err != nil {
			return nil, fmt.Errorf("bad -run or -skip pattern: %v", err)
		}
	}
	if *shard != "" {
		s, err := runner.ParseShard(*shard)
		if err != nil {
			return nil, err
		}
		c.Shard = s
	}
	if c.Seed == 0 {
		c.Seed = freshSeed()
	}
	c.Patterns = fs.Args()
	if *race {
		c.BuildFlags = append(c.BuildFlags, "-race")
	}
	if *tags != "" {
		c.BuildFlags = append(c.BuildFlags, "-tags="+*tags)
	}
	if *short {
		c.TestFlags = append(c.TestFlags, "-short")
	}
	return &f, nil
}

// runAudit implements spreadcheck audit.
func runAudit(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return mergeAudit(args[1:], stdout, stderr)
	}
	f, err := parseAuditFlags(args, stderr)
	if err != nil {
		return usage(err, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills the audit outright; the deferred clean-up of a first one has run
	}()
	if f.progress {
		start := time.Now()
		f.cfg.Log = func(format string, args ...any) {
			fmt.Fprintf(stderr, "%s [%s]\n", fmt.Sprintf(format, args...), time.Since(start).Round(time.Second))
		}
	}
	rep, err := audit.Run(ctx, f.cfg)
	var be *audit.BuildError
	switch {
	case errors.As(err, &be):
		fmt.Fprintf(stderr, "spreadcheck audit: the code does not build:\n%s\n", be.Msg)
		return audit.ExitError
	case err != nil:
		fmt.Fprintf(stderr, "spreadcheck audit: %v\n", err)
		return audit.ExitError
	}
	if err := writeAudit(rep, f.json, f.summary, stdout); err != nil {
		fmt.Fprintf(stderr, "spreadcheck audit: %v\n", err)
		return audit.ExitError
	}
	return rep.ExitCode()
}

// writeAudit prints the report, and appends its Markdown summary to a file when asked.
func writeAudit(rep *audit.Report, asJSON bool, summary string, stdout io.Writer) error {
	if summary != "" {
		f, err := os.OpenFile(summary, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
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
	if asJSON {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteText(stdout)
}

// mergeAudit implements spreadcheck audit merge: one report from the -json reports of shards.
func mergeAudit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spreadcheck audit merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, auditUsage)
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print the merged report as JSON")
	summary := fs.String("summary", "", "also write a Markdown summary to `file`")
	if err := fs.Parse(args); err != nil {
		return usage(err, stderr)
	}
	if fs.NArg() == 0 {
		return usage(errors.New("audit merge: name the reports to merge"), stderr)
	}
	var reps []*audit.Report
	for _, p := range fs.Args() {
		r, err := audit.ReadJSON(p)
		if err != nil {
			return usage(err, stderr)
		}
		reps = append(reps, r)
	}
	rep, err := audit.Merge(reps...)
	if err != nil {
		return usage(err, stderr)
	}
	if err := writeAudit(rep, *asJSON, *summary, stdout); err != nil {
		fmt.Fprintf(stderr, "spreadcheck audit: %v\n", err)
		return audit.ExitError
	}
	return rep.ExitCode()
}
