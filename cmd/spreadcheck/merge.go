package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/runner"
)

// merge implements "spreadcheck merge": one report from the results files of a session's
// shards. Files of different sessions are refused; missing shards make the report incomplete
// (exit 3).
func merge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spreadcheck merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: spreadcheck merge [flags] results.jsonl...\n\n")
		fs.PrintDefaults()
	}
	var out output
	out.register(fs)
	out.registerVerdict(fs)
	if err := fs.Parse(args); err != nil {
		return usage(err, stderr)
	}
	if err := out.check(); err != nil {
		return usage(err, stderr)
	}
	defer out.close()
	m, err := runner.MergeResults(fs.Args()...)
	if err != nil {
		return usage(err, stderr)
	}
	rep := runner.Summarize(m.Records, out.options())
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
	var sides [2][]runner.Record
	for i, arg := range fs.Args() {
		m, err := runner.MergeResults(strings.Split(arg, ",")...)
		if err != nil {
			return usage(err, stderr)
		}
		sides[i] = m.Records
	}
	changes := runner.Compare(sides[0], sides[1])
	if err := writeChanges(stdout, changes, *asJSON); err != nil {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		return runner.ExitBuild
	}
	for _, c := range changes {
		if c.Verdict == runner.Worse {
			return runner.ExitFlaky
		}
	}
	return runner.ExitClean
}
