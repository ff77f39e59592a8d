package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/audit"
	"github.com/spreadcheck/spreadcheck/internal/diff"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

const auditUsage = `usage: spreadcheck audit [flags] [packages]

Finds where randomness enters the packages (default ./...), rewrites each site into the four
broken classes (constant, sign-flip, clock-derived, collapsed-range) through go test -overlay,
never writing the tree, runs the tests that reach each site R times at baseline and under each
mutant, and reports per site and class: killed, survived, equivalent, not covered or not viable.
Exit status: 0 all killed or nothing found, 1 a mutant survived or was not covered or a draw
never reaches the code, 2 usage or build error, 3 interrupted, 4 a file that cannot be read.
The -json reports of shards merge into one with spreadcheck merge.

`

// auditFlags is a parsed audit command line.
type auditFlags struct {
	cfg      audit.Config
	out      output
	progress bool
	diffRef  string // -diff: audit the sites on lines changed since the merge base with this ref
	diffFile string // -diff-file: the same, from a unified diff
	baseline baselineFlags
}

// baselineFlags are the files of an audit report beside the report itself, which an audit and
// a merge of audits take: -baseline and -write-baseline, and the report in shared formats.
type baselineFlags struct{ read, write, stryker, html string }

func (b *baselineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.html, "html", "", "also write the report to `file` as one self-contained page: each audited file's source with its sites marked, their verdicts and evidence")
	fs.StringVar(&b.stryker, "stryker", "", "also write the report to `file` in the mutation-testing-report-schema that Stryker's viewer and dashboard read")
	fs.StringVar(&b.read, "baseline", "", "accept the survivors that the baseline `file` records, each with its reason: only new ones fail the audit, and entries that match none are reported as stale")
	fs.StringVar(&b.write, "write-baseline", "", "write a baseline `file` that accepts every survivor and not covered mutant of this report (keeping the reasons -baseline gave)")
}

// apply applies the -baseline file to the report, then writes the -write-baseline file and the
// report files; root is the audited module's root, where the report's paths start.
func (b *baselineFlags) apply(rep *audit.Report, root string) error {
	if err := b.baseline(rep); err != nil {
		return err
	}
	if b.stryker != "" {
		if err := writeFile("-stryker", b.stryker, func(w io.Writer) error { return rep.WriteStryker(w, root) }); err != nil {
			return err
		}
	}
	if b.html != "" {
		return writeFile("-html", b.html, func(w io.Writer) error { return rep.WriteHTML(w, root) })
	}
	return nil
}

// writeFile writes a report file, its errors naming the flag.
func writeFile(flag, path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	return nil
}

// baseline applies the -baseline file to the report, then writes the -write-baseline file.
func (b *baselineFlags) baseline(rep *audit.Report) error {
	if b.read != "" {
		base, err := audit.ReadBaselineFile(b.read)
		if err != nil {
			return fmt.Errorf("-baseline: %w", err)
		}
		rep.ApplyBaseline(base)
	}
	if b.write == "" {
		return nil
	}
	reason := "not reviewed yet: accepted as it was when the baseline was written on " + time.Now().Format(time.DateOnly)
	return writeFile("-write-baseline", b.write, rep.NewBaseline(reason).WriteJSON)
}

// parseAuditFlags parses an audit command line. The flags that say which tests run and how
// (-runs, -run, -skip, -p, -batch, -seed, -short, -cpu, -parallel, -shuffle, -race, -tags,
// -vet, -shard) are the session's, declared and checked by the same code.
func parseAuditFlags(args []string, stderr io.Writer) (*auditFlags, error) {
	var (
		f  auditFlags
		rc runner.Config
		tf testFlags
		c  = &f.cfg
		fs = flag.NewFlagSet("spreadcheck audit", flag.ContinueOnError)
	)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, auditUsage)
		fs.PrintDefaults()
	}
	registerRuns(fs, &rc.Options, &f.progress, audit.DefaultRuns, "run the tests `n` times at baseline and at most n times under each mutant")
	tf.register(fs, "off, since tests of code you did not write often fail vet")
	f.out.register(fs)
	fs.Float64Var(&c.Alpha, "alpha", audit.DefaultAlpha, "false-kill `rate` of the whole audit: the chance that any mutant is called killed by chance")
	fs.DurationVar(&rc.Options.Timeout, "timeout", 0, "stop a test process after `d` and count the test it ran as hung (0: a minute for a test's one run in the trace, then 10 times what the tests it runs took when measured, at least 2s)")
	fs.BoolVar(&c.AllRuns, "all-runs", false, "run every mutant -runs times, without stopping once it is killed or certain to survive")
	f.baseline.register(fs)
	fs.StringVar(&f.diffRef, "diff", "", "audit only the sites on lines added or changed since the merge base of `ref` and HEAD (working tree included)")
	fs.StringVar(&f.diffFile, "diff-file", "", "audit only the sites on lines the unified diff in `file` adds, its paths relative to this directory (- for stdin)")
	fs.BoolVar(&c.PerMutant, "per-mutant", false, "build one test binary per mutant instead of one mutant schema per package (slower; see docs/audit.md)")
	cache := fs.Bool("cache", true, "keep the mutant schema's test binaries in the user cache directory, so that an audit of unchanged code does not link them again")
	patterns, err := parseAll(fs, args)
	if err != nil {
		return nil, err
	}
	if err := checkAudit(&rc, c, &tf); err != nil {
		return nil, err
	}
	if f.diffRef != "" && f.diffFile != "" {
		return nil, errors.New("-diff and -diff-file: give one")
	}
	o := &rc.Options
	if o.Seed == 0 {
		o.Seed = freshSeed()
	}
	c.Patterns, c.BuildFlags, c.Options = patterns, rc.Build.BuildFlags, *o
	if uc, err := testbin.UserCache(); err == nil && *cache {
		uc.Trim(now())
		c.CacheDir = uc.Binaries()
	}
	return &f, f.out.check()
}

// checkAudit validates the flags and puts the shared ones into rc.
func checkAudit(rc *runner.Config, c *audit.Config, tf *testFlags) error {
	if err := checkRuns(&rc.Options, 2); err != nil {
		return err
	}
	if rc.Options.Timeout < 0 {
		return fmt.Errorf("-timeout %v: want 0 (derived) or a positive duration", rc.Options.Timeout)
	}
	if !(c.Alpha > 0 && c.Alpha < 1) {
		return fmt.Errorf("-alpha %v: want a rate in (0, 1)", c.Alpha)
	}
	return tf.apply(rc)
}

// runAudit implements spreadcheck audit.
func runAudit(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "merge" {
		return usage(errors.New("audit merge: the reports of an audit's shards merge with spreadcheck merge"), stderr)
	}
	f, err := parseAuditFlags(args, stderr)
	if err != nil {
		return usage(err, stderr)
	}
	defer f.out.close()
	ctx, stop := interruptible()
	defer stop()
	if f.progress {
		start := time.Now()
		f.cfg.Log = func(format string, args ...any) {
			fmt.Fprintf(stderr, "%s [%s]\n", fmt.Sprintf(format, args...), time.Since(start).Round(time.Second))
		}
	}
	if f.cfg.Change, err = f.change(ctx, os.Stdin); err != nil {
		fmt.Fprintf(stderr, "spreadcheck audit: %v\n", err)
		return testreport.ExitBuild
	}
	rep, err := audit.Run(ctx, f.cfg)
	if err != nil {
		fmt.Fprintf(stderr, "spreadcheck audit: %v\n", err)
		return testreport.ExitBuild
	}
	f.out.base = moduleRoot(f.cfg.Dir)
	if err := f.baseline.apply(rep, filepath.FromSlash(f.out.base)); err != nil {
		return fileError(err, stderr)
	}
	return f.out.write(rep, stdout, stderr)
}

// change reads the change that -diff or -diff-file names, with paths relative to the audited
// module's root; nil when neither was given.
func (f *auditFlags) change(ctx context.Context, stdin io.Reader) (*audit.Change, error) {
	root := moduleRoot(f.cfg.Dir)
	switch {
	case f.diffRef != "":
		abs, err := filepath.Abs(filepath.FromSlash(root))
		if err != nil {
			return nil, err
		}
		lines, top, err := diff.Git(ctx, abs, f.diffRef)
		if err == nil {
			root, err = diff.Below(top, abs)
		}
		if err != nil {
			return nil, fmt.Errorf("-diff %s: %v", f.diffRef, err)
		}
		return &audit.Change{Lines: lines.Under(root), Since: "since " + f.diffRef}, nil
	case f.diffFile != "":
		r := stdin
		if f.diffFile != "-" {
			file, err := os.Open(f.diffFile)
			if err != nil {
				return nil, fmt.Errorf("-diff-file: %v", err)
			}
			defer file.Close()
			r = file
		}
		lines, err := diff.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("-diff-file %s: %v", f.diffFile, err)
		}
		return &audit.Change{Lines: lines.Under(root), Since: "in " + f.diffFile}, nil
	}
	return nil, nil
}

// moduleRoot returns the root of the module that holds dir ("" for the working directory),
// relative to the working directory and slash-separated: where the paths of an audit report,
// relative to that root, are in the repository that a CI step runs in.
func moduleRoot(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	abs := filepath.Join(wd, dir)
	if filepath.IsAbs(dir) {
		abs = dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			rel, err := filepath.Rel(wd, d)
			if err != nil || rel == "." {
				return ""
			}
			return filepath.ToSlash(rel)
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
