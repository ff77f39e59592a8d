package testreport

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// The JUnit XML that CI systems read, in Maven Surefire's dialect (its
// surefire-test-report-3.0.xsd, which Jenkins, GitLab, Buildkite and the GitHub test-report
// actions accept): one testsuite per package, one testcase per test. A test that failed some
// runs but stays within -max-flake passes, with a flakyFailure element for each failing run,
// as Surefire marks a test that passed on a rerun; a test the report counts against the run
// has a failure element, and a rerunFailure (every run failed) or a flakyFailure (some runs
// passed) for each further failing run.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string          `xml:"name,attr"`
		Tests      int             `xml:"tests,attr"`
		Failures   int             `xml:"failures,attr"`
		Errors     int             `xml:"errors,attr"`
		Skipped    int             `xml:"skipped,attr"`
		Time       string          `xml:"time,attr"`
		Properties []junitProperty `xml:"properties>property,omitempty"`
		Cases      []junitCase     `xml:"testcase"`
	}
	// junitCase's fields are in the order the schema's sequence wants them.
	junitCase struct {
		Classname string        `xml:"classname,attr"`
		Name      string        `xml:"name,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitMessage `xml:"failure,omitempty"`
		Reruns    []junitRun    `xml:"rerunFailure"`
		Flaky     []junitRun    `xml:"flakyFailure"`
		Skipped   *junitMessage `xml:"skipped,omitempty"`
		Error     *junitMessage `xml:"error,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	// junitRun is one failing run of a test: Surefire's rerunFailure and flakyFailure.
	junitRun struct {
		Message    string `xml:"message,attr"`
		Type       string `xml:"type,attr"`
		StackTrace string `xml:"stackTrace"`
		SystemOut  string `xml:"system-out,omitempty"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitMessage struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr,omitempty"`
		Text    string `xml:",chardata"`
	}
)

// WriteJUnit writes the report as JUnit XML: one testcase per test, whose system-out gives its
// runs, failures, rate, interval and time. A test the report lists as FLAKY or FAILING gets a
// failure element holding its replay commands and first failure; each failing run of a test
// gets its own element with the run's replay command (flakyFailure where the test passed
// other runs, rerunFailure where it failed all), so that a CI system that reads Surefire's
// flaky markers shows a flaky test as one; a package that did not build gets an error.
func (r *Report) WriteJUnit(w io.Writer) error {
	doc := junitSuites{Name: "spreadcheck", Time: junitTime(r.Seconds)}
	bad := map[string]string{}
	for _, n := range r.Flaky {
		bad[n] = "flaky"
	}
	for _, n := range r.Failing {
		bad[n] = "failing"
	}
	for _, p := range r.Packages {
		s := junitSuiteOf(&p, bad)
		doc.Tests, doc.Failures, doc.Errors = doc.Tests+s.Tests, doc.Failures+s.Failures, doc.Errors+s.Errors
		doc.Suites = append(doc.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func junitSuiteOf(p *PackageSummary, bad map[string]string) junitSuite {
	s := junitSuite{Name: p.ImportPath, Time: "0",
		Properties: []junitProperty{{"runs", strconv.Itoa(p.Runs)}, {"processes", strconv.Itoa(p.Processes)}}}
	if p.BuildError != "" {
		s.Tests, s.Errors = 1, 1
		s.Cases = []junitCase{{Classname: p.ImportPath, Name: "build", Time: "0",
			Error: &junitMessage{Message: "package " + testbin.BuildVerb(p.Stage), Type: string(p.Stage), Text: p.BuildError}}}
		return s
	}
	var total float64
	for _, t := range p.Tests {
		if t.Name == testout.PackageTest && t.Bad() == 0 {
			continue
		}
		c := junitCaseOf(p.ImportPath, &t, bad[p.ImportPath+"."+t.Name])
		total += t.Duration.Total
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
	}
	s.Time = junitTime(total)
	return s
}

// junitTime formats seconds as the schema's time: digits, a point and at most three decimals.
func junitTime(secs float64) string {
	if !(secs > 0) || math.IsInf(secs, 0) {
		return "0"
	}
	return strconv.FormatFloat(secs, 'f', 3, 64)
}

func junitCaseOf(pkg string, t *TestSummary, bad string) junitCase {
	c := junitCase{Classname: pkg, Name: t.Name, Time: junitTime(t.Duration.Total)}
	what := fmt.Sprintf("%d of %d runs failed (rate %s, 95%% interval %s)", t.Bad(), t.Runs, FormatRate(t.Rate.Rate), formatInterval(t.Rate, t.Runs))
	var text strings.Builder
	writeTestDetail(&text, t)
	c.SystemOut = junitStats(t, what)
	runs := junitRuns(t)
	switch {
	case bad != "":
		c.Failure = &junitMessage{Message: what, Type: bad, Text: text.String()}
		if len(runs) > 0 {
			runs = runs[1:] // the failure element stands for the first
		}
		if t.EveryRun() {
			c.Reruns = runs
		} else {
			c.Flaky = runs
		}
	case t.Runs == 0 && t.Skips > 0:
		c.Skipped = &junitMessage{Message: fmt.Sprintf("skipped in all %d runs", t.Skips)}
	case t.Bad() > 0:
		c.Flaky = runs
		c.SystemOut += "within -max-flake\n" + text.String()
	}
	return c
}

// junitRuns returns an element for each failing run of the main pass: its outcome, seed and
// replay command, and the output of the first.
func junitRuns(t *TestSummary) []junitRun {
	runs := make([]junitRun, 0, len(t.Failing))
	for i, f := range t.Failing {
		r := junitRun{Message: fmt.Sprintf("run %d: %s, seed %d", f.Run, f.Outcome, f.Seed), Type: string(f.Outcome),
			StackTrace: "replay: " + f.Replay + "\n"}
		if f.Log != "" {
			r.StackTrace += "log: " + f.Log + "\n"
		}
		if i == 0 {
			r.SystemOut = t.Output
		}
		runs = append(runs, r)
	}
	return runs
}

// junitStats is the first line of a testcase's system-out: what a testcase element has no
// attribute for (the schema allows no properties on a testcase).
func junitStats(t *TestSummary, what string) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	line := fmt.Sprintf("%s; %d crashed, %d hung, %d skipped; median %s s, p99 %s s", what, t.Crashes, t.Hangs, t.Skips,
		f(t.Duration.Median), f(t.Duration.P99))
	var seeds []string
	for _, fl := range t.Failing {
		if s := strconv.FormatUint(fl.Seed, 10); !slices.Contains(seeds, s) {
			seeds = append(seeds, s)
		}
	}
	if len(seeds) > 0 {
		line += "; failing seeds " + strings.Join(seeds, ",")
	}
	return line + "\n"
}
