// Command spreadcheck runs a Go test suite many times and reports, per test, how often it
// fails, with a 95% confidence interval, and the command that replays each failing run.
//
// Usage:
//
//	spreadcheck [flags] [packages] [-args test binary arguments...]
//	spreadcheck merge [flags] results.jsonl... (or the -json reports of spreadcheck audit)
//	spreadcheck compare [flags] before.jsonl after.jsonl
//	spreadcheck audit [flags] [packages]
//
// Each package is built once with go test -c; every run gets its own seed (which spread.Rand
// reads from SPREADCHECK_SEED), several runs sharing a process when start-up dominates. A test
// that crashes the process or hangs past -timeout is reported as such, never lost, and what it
// cut short runs again in a new process. Tests that use spread's checks record the
// false-failure rate they were sized for, and the report says whether their failures are more
// than that sizing explains.
//
// The exit status is 0 when no test fails more often than -max-flake at 95% confidence, 1 when
// one does (or fails in every run), 2 for a usage or build error or a -run that matches no
// test, 3 when interrupted or when merged shards are missing, 4 when a file it was given
// cannot be read. The work is in package internal/runner; this command only parses flags
// and prints.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/internal/diff"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	defer withGoTemp()()
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return merge(args[1:], stdout, stderr)
		case "compare":
			return compare(args[1:], stdout, stderr)
		case "audit":
			return runAudit(args[1:], stdout, stderr)
		}
	}
	f, err := parseFlags(args, stderr)
	if err != nil {
		return usage(err, stderr)
	}
	defer f.closeAll()
	ctx, stop := interruptible()
	defer stop()
	return session(ctx, f, stdout, stderr)
}

// withGoTemp points the go commands that this process starts (go list, go test -c) at a
// session folder of the user cache (GOTMPDIR), and returns the function that removes it and
// restores GOTMPDIR. A go command stopped mid-build (Ctrl-C, an interrupted audit) leaves its
// work folder behind: in the temporary directory that would be one more folder per interrupted
// session, in a session folder it goes with the session, or with the next one if this one is
// killed.
func withGoTemp() (restore func()) {
	c, err := testbin.UserCache()
	if err != nil {
		return func() {} // the go command's default, as without spreadcheck
	}
	dir, done, err := c.Session()
	if err != nil {
		return func() {}
	}
	old, had := os.LookupEnv("GOTMPDIR")
	os.Setenv("GOTMPDIR", dir)
	return func() {
		if had {
			os.Setenv("GOTMPDIR", old)
		} else {
			os.Unsetenv("GOTMPDIR")
		}
		done()
	}
}

// interruptible returns a context that Ctrl-C, SIGTERM or SIGHUP cancels: the command then
// stops its test processes, cleans up and reports what finished. A second signal kills it
// outright (the deferred clean-up of the first has run by then; test processes die with it).
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// session runs the session that f describes and prints its report.
func session(ctx context.Context, f *flags, stdout, stderr io.Writer) int {
	if f.diffRef != "" {
		lines, root, err := diff.Git(ctx, ".", f.diffRef)
		if err != nil {
			fmt.Fprintf(stderr, "spreadcheck: -diff %s: %v\n", f.diffRef, err)
			return testreport.ExitBuild
		}
		f.cfg.Diff = &runner.Diff{Lines: lines, Root: root, Since: "since " + f.diffRef}
	}
	pr := newProgress(stderr, fakeclock.Real())
	if f.progress {
		f.cfg.Options.OnProgress, f.cfg.Build.OnListed = pr.update, pr.listed
		pr.begin()
	}
	rep, err := runner.RunSession(ctx, f.cfg)
	pr.end()
	if err != nil {
		f.cfg.Results.Close(resultsfile.End{Interrupted: true})
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		return testreport.ExitBuild
	}
	cerr := f.cfg.Results.Close(resultsfile.End{Seconds: rep.Seconds, Interrupted: rep.Interrupted})
	f.out.base, _ = os.Getwd()
	code := f.out.write(rep, stdout, stderr)
	if cerr != nil {
		fmt.Fprintf(stderr, "spreadcheck: results file: %v\n", cerr)
	} else {
		fmt.Fprintf(stderr, "spreadcheck: results in %s (%.1fs)\n", f.cfg.Results.Name(), rep.Seconds)
	}
	return code
}

func usage(err error, stderr io.Writer) int {
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
	}
	return testreport.ExitBuild
}

// now is the clock of the session's bookkeeping (the results file's name, the cache's trim).
var now = time.Now
