package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/spreadcheck/spreadcheck/internal/annotate"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// output holds the flags that say where the report goes. The files are opened while the flags
// are parsed, so that an unwritable path is a usage error before anything runs.
type output struct {
	json      bool
	format    string // "", text or github: see register
	summary   string
	junitfile string
	maxFlake  float64
	detect    float64
	verdict   bool // registerVerdict declared junitfile, maxFlake and detect

	summaryFile, junitFile *os.File
	// base is what the report's annotations are relative to: the session's directory, or the
	// audited module's root relative to it.
	base string
}

// register declares the flags of every report: -json and -summary.
func (o *output) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print the report as JSON instead of text (the schema is in docs/runner.md)")
	fs.StringVar(&o.summary, "summary", "", "also append a Markdown summary to `file` (such as $GITHUB_STEP_SUMMARY)")
	fs.StringVar(&o.format, "format", "", "text, or github: also print GitHub Actions annotations at the lines of flaky tests and weak sites (default: github when GITHUB_ACTIONS=true)")
}

// annotating reports whether the report is followed by GitHub Actions annotations.
func (o *output) annotating() bool {
	return o.format == "github" || (o.format == "" && annotate.InActions(os.Getenv))
}

// registerVerdict declares the flags of a flake report: JUnit, and what fails it.
func (o *output) registerVerdict(fs *flag.FlagSet) {
	o.verdict = true
	fs.StringVar(&o.junitfile, "junitfile", "", "also write the report as JUnit XML to `file`, one testcase per test")
	fs.Float64Var(&o.maxFlake, "max-flake", 0, "exit 1 when a test's flake `rate` is above this at 95% confidence")
	fs.Float64Var(&o.detect, "detect", 0.001, "state the runs needed to detect a flake of this `rate`")
}

// check validates the flags and opens the report files.
func (o *output) check() error {
	if o.verdict && !(o.maxFlake >= 0 && o.maxFlake < 1) {
		return fmt.Errorf("-max-flake %v: want a rate in [0, 1)", o.maxFlake)
	}
	if o.verdict && !(o.detect > 0 && o.detect < 1) {
		return fmt.Errorf("-detect %v: want a rate in (0, 1)", o.detect)
	}
	if o.format != "" && o.format != "text" && o.format != "github" {
		return fmt.Errorf("-format %q: want text or github", o.format)
	}
	var err error
	if o.summary != "" {
		if o.summaryFile, err = os.OpenFile(o.summary, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
			return fmt.Errorf("-summary: %v", err)
		}
	}
	if o.junitfile != "" {
		if o.junitFile, err = os.Create(o.junitfile); err != nil {
			return fmt.Errorf("-junitfile: %v", err)
		}
	}
	return nil
}

func (o *output) options() testreport.SummaryOptions {
	return testreport.SummaryOptions{MaxFlake: o.maxFlake, Detect: o.detect}
}

// report is what the commands print: a session's (testreport.Report) or an audit's (audit.Report).
type report interface {
	WriteText(io.Writer) error
	WriteJSON(io.Writer) error
	WriteMarkdown(io.Writer) error
	Annotations(base string) []annotate.Annotation
	ExitCode() int
}

// reportFile is one file a report is also written to, and the flag that named it.
type reportFile struct {
	flag  string
	file  *os.File
	write func(io.Writer) error
}

// write prints the report and writes the report files, and returns the exit status: the
// report's, or 2 (a usage or build error, for either command) when it could not be printed.
// A report file that cannot be written is an error on stderr; the report is printed all the
// same.
func (o *output) write(rep report, stdout, stderr io.Writer) int {
	var err error
	if o.json {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	code := rep.ExitCode()
	if err != nil {
		fmt.Fprintf(stderr, "spreadcheck: %v\n", err)
		code = testreport.ExitBuild
	}
	if o.annotating() {
		// The Actions runner reads workflow commands from both streams; JSON keeps stdout.
		w := stdout
		if o.json {
			w = stderr
		}
		if err := annotate.Write(w, rep.Annotations(o.base)); err != nil {
			fmt.Fprintf(stderr, "spreadcheck: annotations: %v\n", err)
		}
	}
	files := []reportFile{{"-summary", o.summaryFile, rep.WriteMarkdown}}
	if j, ok := rep.(interface{ WriteJUnit(io.Writer) error }); ok {
		files = append(files, reportFile{"-junitfile", o.junitFile, j.WriteJUnit})
	}
	for _, f := range files {
		if f.file == nil {
			continue
		}
		if err := f.write(f.file); err != nil {
			fmt.Fprintf(stderr, "spreadcheck: %s: %v\n", f.flag, err)
			code = max(code, testreport.ExitBuild)
		}
	}
	return code
}

func (o *output) close() {
	for _, f := range []*os.File{o.summaryFile, o.junitFile} {
		if f != nil {
			f.Close()
		}
	}
}

func writeChanges(w io.Writer, changes []testreport.Change, asJSON bool) error {
	if !asJSON {
		return testreport.WriteComparison(w, changes)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(changes)
}
