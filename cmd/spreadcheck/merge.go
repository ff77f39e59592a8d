package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/audit"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// merge implements "spreadcheck merge": one report from the files of a session's shards,
// results files of spreadcheck or -json reports of spreadcheck audit (the kind read from the
// first file). Files of different sessions are refused; missing shards make the report
// incomplete (exit 3).
func merge(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("spreadcheck merge", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprintf(stderr, "usage: spreadcheck merge [flags] results.jsonl...\n"+
			"       spreadcheck merge [flags] audit-report.json...\n\n")
		fset.PrintDefaults()
	}
	var out output
	var base baselineFlags
	out.register(fset)
	out.registerVerdict(fset)
	base.register(fset)
	if err := fset.Parse(args); err != nil {
		return usage(err, stderr)
	}
	if fset.NArg() == 0 {
		return usage(errors.New("merge: name the files to merge"), stderr)
	}
	if err := out.check(); err != nil {
		return usage(err, stderr)
	}
	isAudit, err := auditReport(fset.Arg(0))
	if err != nil {
		return fileError(err, stderr)
	}
	if isAudit {
		var verdictFlags []string
		fset.Visit(func(f *flag.Flag) {
			if f.Name == "max-flake" || f.Name == "detect" {
				verdictFlags = append(verdictFlags, "-"+f.Name)
			}
		})
		if len(verdictFlags) > 0 {
			return usage(fmt.Errorf("merge: %s applies to results files, not to audit reports", verdictFlags[0]), stderr)
		}
	} else if base != (baselineFlags{}) {
		return usage(errors.New("merge: -baseline, -write-baseline, -stryker and -html apply to audit reports, not to results files"), stderr)
	}
	defer out.close()
	if isAudit {
		return mergeAudit(fset.Args(), &out, &base, stdout, stderr)
	}
	m, err := resultsfile.MergeResults(fset.Args()...)
	if err != nil {
		return fileError(err, stderr)
	}
	rep := testreport.Summarize(m.Records, out.options())
	rep.Seed, rep.Runs, rep.Seconds = m.Headers[0].Seed, m.Headers[0].Runs, m.Seconds
	for _, h := range m.Headers {
		if h.Shard != "" {
			rep.Shards = append(rep.Shards, h.Shard)
		}
	}
	rep.Interrupted = m.Incomplete
	rep.MissingShards = m.Missing
	return out.write(rep, stdout, stderr)
}

// auditReport reports whether the file at path is a -json report of spreadcheck audit (one
// JSON object with the audit's fields) rather than a results file (one JSON value a line).
func auditReport(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return false, nil // several lines, or not JSON: the results file's reader says which
	}
	_, sites := fields["sites"]
	return sites, nil
}

// mergeAudit merges the -json reports of an audit's shards.
func mergeAudit(paths []string, out *output, base *baselineFlags, stdout, stderr io.Writer) int {
	var reps []*audit.Report
	for _, p := range paths {
		r, err := audit.ReadJSON(p)
		if err != nil {
			return fileError(err, stderr)
		}
		reps = append(reps, r)
	}
	rep, err := audit.Merge(reps...)
	if err != nil {
		return usage(err, stderr)
	}
	if err := base.apply(rep, "."); err != nil {
		return fileError(err, stderr)
	}
	return out.write(rep, stdout, stderr)
}

// fileError reports an error of reading the files a command was given: a file that cannot
// be read exits 4, one that is not what the command reads is a usage error (2).
func fileError(err error, stderr io.Writer) int {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.As(err, new(*fs.PathError)) {
		fmt.Fprintf(stderr, "spreadcheck: cannot read %v\n", err)
		return testreport.ExitUnreadable
	}
	return usage(err, stderr)
}

// compare implements "spreadcheck compare before.jsonl after.jsonl": for each test that failed
// in either session, whether its failure rate changed. It exits 1 when a test fails more often.
func compare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spreadcheck compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: spreadcheck compare [flags] before.jsonl after.jsonl\n\n"+
			"Each file may be one results file or several shards' joined by commas.\n\n")
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print the comparison as JSON")
	if err := fs.Parse(args); err != nil {
		return usage(err, stderr)
	}
	if fs.NArg() != 2 {
		return usage(fmt.Errorf("compare: want two results files (before and after), got %d", fs.NArg()), stderr)
	}
	var sides [2][]resultsfile.Record
	for i, arg := range fs.Args() {
		m, err := resultsfile.MergeResults(strings.Split(arg, ",")...)
		if err != nil {
			return fileError(err, stderr)
		}
		sides[i] = m.Records
	}
	changes := testreport.Compare(sides[0], sides[1])
	if err := writeChanges(stdout, changes, *asJSON); err != nil {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		return testreport.ExitBuild
	}
	for _, c := range changes {
		if c.Verdict == testreport.Worse {
			return testreport.ExitFlaky
		}
	}
	return testreport.ExitClean
}
