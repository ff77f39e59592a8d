package testreport

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// junitReport summarizes 100 runs of package x/p, whose tests fail at known rates: TestWithin
// in 1 run (within -max-flake 0.05), TestFlaky in every other run, TestFailing in all, TestGone
// skips itself, TestFine never fails; and package x/broken, which does not build.
func junitReport() *Report {
	recs := records(100, resultsfile.Main, func(run int) map[string]testout.Outcome {
		o := map[string]testout.Outcome{"TestWithin": testout.Pass, "TestFlaky": testout.Pass, "TestFailing": testout.Fail, "TestGone": testout.Skip, "TestFine": testout.Pass}
		if run == 7 {
			o["TestWithin"] = testout.Fail
		}
		if run%2 == 0 {
			o["TestFlaky"] = testout.Fail
		}
		return o
	})
	for i := range recs {
		for j := range recs[i].Tests {
			if recs[i].Tests[j].Outcome == testout.Fail {
				recs[i].Tests[j].Output = "    x_test.go:9: unlucky <draw> & more\n"
			}
		}
	}
	recs = append(recs, resultsfile.Record{Package: testbin.Package{ImportPath: "x/broken", Target: "./broken", BuildError: "x.go:1:1: expected 'package'", Stage: "build"}, Run: 1})
	return Summarize(recs, SummaryOptions{MaxFlake: 0.05})
}

// surefireCase holds what a Surefire reader takes from a testcase.
type surefireCase struct {
	Name    string     `xml:"name,attr"`
	Failure *struct{}  `xml:"failure"`
	Error   *struct{}  `xml:"error"`
	Skipped *struct{}  `xml:"skipped"`
	Reruns  []struct{} `xml:"rerunFailure"`
	Flaky   []struct {
		Message    string `xml:"message,attr"`
		StackTrace string `xml:"stackTrace"`
		SystemOut  string `xml:"system-out"`
	} `xml:"flakyFailure"`
}

// TestJUnitFlakyMarkers: a test within -max-flake passes with a flakyFailure for its failing
// run, as Surefire marks a test that passed when rerun; a flaky test past -max-flake fails,
// with a flakyFailure for each further failing run; one that failed every run fails with a
// rerunFailure for each further run.
func TestJUnitFlakyMarkers(t *testing.T) {
	var b bytes.Buffer
	if err := junitReport().WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Name  string         `xml:"name,attr"`
			Cases []surefireCase `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	cases := map[string]surefireCase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases[s.Name+"."+c.Name] = c
		}
	}
	within := cases["x/p.TestWithin"]
	if within.Failure != nil || len(within.Flaky) != 1 || !strings.Contains(within.Flaky[0].Message, "run 7") ||
		!strings.Contains(within.Flaky[0].StackTrace, "go test") || !strings.Contains(within.Flaky[0].SystemOut, "unlucky <draw>") {
		t.Errorf("TestWithin, 1 failing run within -max-flake: %+v", within)
	}
	if f := cases["x/p.TestFlaky"]; f.Failure == nil || len(f.Flaky) != 49 || len(f.Reruns) != 0 {
		t.Errorf("TestFlaky, 50 of 100 runs: failure %v, %d flakyFailure, %d rerunFailure; want a failure and 49 flaky", f.Failure != nil, len(f.Flaky), len(f.Reruns))
	}
	if f := cases["x/p.TestFailing"]; f.Failure == nil || len(f.Reruns) != 99 || len(f.Flaky) != 0 {
		t.Errorf("TestFailing, every run: failure %v, %d rerunFailure, %d flakyFailure; want a failure and 99 reruns", f.Failure != nil, len(f.Reruns), len(f.Flaky))
	}
	if f := cases["x/p.TestFine"]; f.Failure != nil || len(f.Flaky)+len(f.Reruns) != 0 {
		t.Errorf("TestFine never failed: %+v", f)
	}
	if f := cases["x/p.TestGone"]; f.Skipped == nil {
		t.Errorf("TestGone skipped every run: %+v", f)
	}
	if f := cases["x/broken.build"]; f.Error == nil {
		t.Errorf("the build failure: %+v", f)
	}
}

// TestJUnitSurefireSchema validates each testsuite the runner writes against Maven Surefire's
// own schema (testdata/surefire), with xmllint. CI installs xmllint (Debian's libxml2-utils);
// elsewhere the test is skipped.
func TestJUnitSurefireSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must install xmllint (libxml2-utils)")
		}
		t.Skip("no xmllint")
	}
	var b bytes.Buffer
	if err := junitReport().WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Inner []byte     `xml:",innerxml"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 2 {
		t.Fatalf("%d testsuites, want 2", len(doc.Suites))
	}
	schema := filepath.Join("testdata", "surefire", "surefire-test-report-3.0.xsd")
	for i, s := range doc.Suites {
		// Surefire writes one testsuite to a file: validate each as a document of its own.
		var one bytes.Buffer
		one.WriteString(xml.Header + "<testsuite")
		for _, a := range s.Attrs {
			one.WriteString(" " + a.Name.Local + `="`)
			xml.EscapeText(&one, []byte(a.Value))
			one.WriteString(`"`)
		}
		one.WriteString(">")
		one.Write(s.Inner)
		one.WriteString("</testsuite>\n")
		path := filepath.Join(t.TempDir(), "suite.xml")
		if err := os.WriteFile(path, one.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(xmllint, "--noout", "--schema", schema, path).CombinedOutput(); err != nil {
			t.Errorf("testsuite %d does not validate: %v\n%s", i, err, out)
		}
	}
}
