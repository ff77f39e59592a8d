package runner

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// The JUnit XML that CI systems read (the Ant schema that Jenkins, GitLab, Buildkite and the
// GitHub test-report actions accept): one testsuite per package, one testcase per test.
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
		Properties []junitProperty `xml:"properties>property,omitempty"`
		Cases      []junitCase     `xml:"testcase"`
	}
	junitCase struct {
		Classname  string          `xml:"classname,attr"`
		Name       string          `xml:"name,attr"`
		Time       string          `xml:"time,attr"`
		Properties []junitProperty `xml:"properties>property,omitempty"`
		Failure    *junitMessage   `xml:"failure,omitempty"`
		Error      *junitMessage   `xml:"error,omitempty"`
		Skipped    *junitMessage   `xml:"skipped,omitempty"`
		SystemOut  string          `xml:"system-out,omitempty"`
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

// WriteJUnit writes the report as JUnit XML: one testcase per test, with its runs, failures,
// rate, interval and failing seeds as properties. A test the report lists as FLAKY or FAILING
// gets a failure element holding its replay commands and first failure; a package that did
// not build gets an error.
func (r *Report) WriteJUnit(w io.Writer) error {
	doc := junitSuites{Name: "spreadcheck", Time: strconv.FormatFloat(r.Seconds, 'f', 3, 64)}
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
	s := junitSuite{Name: p.ImportPath, Properties: []junitProperty{{"runs", strconv.Itoa(p.Runs)}, {"processes", strconv.Itoa(p.Processes)}}}
	if p.BuildError != "" {
		s.Tests, s.Errors = 1, 1
		s.Cases = []junitCase{{Classname: p.ImportPath, Name: "build", Time: "0",
			Error: &junitMessage{Message: "package " + buildVerb(p.Stage), Type: string(p.Stage), Text: p.BuildError}}}
		return s
	}
	for _, t := range p.Tests {
		if t.Name == PackageTest && t.Bad() == 0 {
			continue
		}
		c := junitCaseOf(p.ImportPath, &t, bad[p.ImportPath+"."+t.Name])
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}

func junitCaseOf(pkg string, t *TestSummary, bad string) junitCase {
	c := junitCase{Classname: pkg, Name: t.Name, Time: strconv.FormatFloat(t.Duration.Total, 'f', 3, 64),
		Properties: junitProperties(t)}
	what := fmt.Sprintf("%d of %d runs failed (rate %s, 95%% interval %s)", t.Bad(), t.Runs, FormatRate(t.Rate.Rate), formatInterval(t.Rate, t.Runs))
	var text strings.Builder
	writeTestDetail(&text, t)
	switch {
	case bad != "":
		c.Failure = &junitMessage{Message: what, Type: bad, Text: text.String()}
	case t.Runs == 0 && t.Skips > 0:
		c.Skipped = &junitMessage{Message: fmt.Sprintf("skipped in all %d runs", t.Skips)}
	case t.Bad() > 0:
		c.SystemOut = what + ", within -max-flake\n" + text.String()
	}
	return c
}

func junitProperties(t *TestSummary) []junitProperty {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	props := []junitProperty{
		{"runs", strconv.Itoa(t.Runs)}, {"failures", strconv.Itoa(t.Failures)}, {"crashes", strconv.Itoa(t.Crashes)},
		{"hangs", strconv.Itoa(t.Hangs)}, {"skips", strconv.Itoa(t.Skips)},
		{"rate", f(t.Rate.Rate)}, {"lower", f(t.Lower)}, {"upper", f(t.Upper)},
		{"median_seconds", f(t.Duration.Median)}, {"p99_seconds", f(t.Duration.P99)},
	}
	var seeds []string
	for _, fl := range t.Failing {
		if s := strconv.FormatUint(fl.Seed, 10); !slices.Contains(seeds, s) {
			seeds = append(seeds, s)
		}
	}
	if len(seeds) > 0 {
		props = append(props, junitProperty{"failing_seeds", strings.Join(seeds, ",")})
	}
	return props
}
