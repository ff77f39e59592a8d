package testreport

import (
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// records makes one record per run of package x/p with the given tests' outcomes.
func records(runs int, phase resultsfile.Phase, outcome func(run int) map[string]testout.Outcome) []resultsfile.Record {
	var recs []resultsfile.Record
	for i := 1; i <= runs; i++ {
		r := resultsfile.Record{Package: testbin.Package{ImportPath: "x/p", Target: "./p"}, Run: i, Seed: uint64(i), Phase: phase}
		for name, o := range outcome(i) {
			r.Tests = append(r.Tests, testout.TestResult{Name: name, Run: i, Seed: uint64(i), Outcome: o})
		}
		recs = append(recs, r)
	}
	return recs
}

// TestRerunReportedApart: a rerun whose interval misses the main pass's is reported apart,
// with the note that the conditions differ; one that agrees gets no note.
func TestRerunReportedApart(t *testing.T) {
	failEvery := func(k int) func(int) map[string]testout.Outcome {
		return func(run int) map[string]testout.Outcome {
			if run%k == 0 {
				return map[string]testout.Outcome{"TestX": testout.Fail}
			}
			return map[string]testout.Outcome{"TestX": testout.Pass}
		}
	}
	main := records(100, resultsfile.Main, failEvery(2))                            // 50%
	alone := records(100, resultsfile.Rerun, func(int) map[string]testout.Outcome { // 100%
		return map[string]testout.Outcome{"TestX": testout.Fail}
	})
	for _, c := range []struct {
		rerun   []resultsfile.Record
		differs bool
	}{{alone, true}, {records(100, resultsfile.Rerun, failEvery(2)), false}} {
		rep := Summarize(append(append([]resultsfile.Record{}, main...), c.rerun...), SummaryOptions{})
		ts := rep.Packages[0].Tests[0]
		if ts.Runs != 100 || ts.Rerun == nil || ts.Rerun.Differs != c.differs {
			t.Errorf("main %+v, rerun %+v; want differs %v", ts.Counts, ts.Rerun, c.differs)
		}
		var b strings.Builder
		rep.WriteText(&b)
		if got := strings.Contains(b.String(), "intervals do not overlap"); got != c.differs {
			t.Errorf("the note on differing conditions: %v, want %v:\n%s", got, c.differs, b.String())
		}
	}
}

// TestMarkdownEscaping: a test name with a pipe or a backtick keeps its table row intact.
func TestMarkdownEscaping(t *testing.T) {
	name := "TestX/a|b`c``"
	recs := records(4, resultsfile.Main, func(run int) map[string]testout.Outcome {
		if run == 2 {
			return map[string]testout.Outcome{name: testout.Fail}
		}
		return map[string]testout.Outcome{name: testout.Pass}
	})
	var b strings.Builder
	Summarize(recs, SummaryOptions{}).WriteMarkdown(&b)
	var row string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.Contains(l, "TestX") {
			row = l
		}
	}
	// A row of 8 cells has 9 pipes that are not escaped.
	if cells := strings.Count(row, "|") - strings.Count(row, `\|`); cells != 9 {
		t.Errorf("row %q has %d cell borders, want 9", row, cells)
	}
	if !strings.Contains(row, "``` x/p.TestX/a\\|b`c`` ```") {
		t.Errorf("row %q does not fence the name with more backticks than it holds", row)
	}
}

func TestCode(t *testing.T) {
	for in, want := range map[string]string{
		"plain":  "`plain`",
		"a|b":    "`a\\|b`",
		"a`b":    "`` a`b ``",
		"`x`":    "`` `x` ``",
		"two\nl": "`two l`",
	} {
		if got := code(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExcerpt: the report quotes a crash from its panic and a failure by its last lines.
func TestExcerpt(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, "log line "+string(rune('a'+i%26)))
	}
	fail := strings.Join(append(lines, "    x_test.go:9: the reason"), "\n")
	if got := excerpt(fail, 5); !strings.HasSuffix(got, "the reason") || !strings.HasPrefix(got, "...") {
		t.Errorf("excerpt of a failure:\n%s", got)
	}
	crash := strings.Join(append(append([]string{}, lines[:3]...), "panic: boom", "goroutine 7 [running]:"), "\n")
	if got := excerpt(crash, 5); !strings.HasPrefix(got, "panic: boom") {
		t.Errorf("excerpt of a crash:\n%s", got)
	}
}

// TestSlowest: the slowest-tests line names the tests of longest median first, ties in report
// order, at most slowestShown of them, and leaves out subtests, the package row and tests
// without a measured time.
func TestSlowest(t *testing.T) {
	test := func(name string, median float64) TestSummary {
		return TestSummary{Name: name, Duration: Durations{Median: median, P99: 2 * median}}
	}
	r := &Report{Packages: []PackageSummary{{Package: testbin.Package{ImportPath: "x/p"}, Tests: []TestSummary{
		test("TestA", 0.5), test("TestB", 2), test("TestB/sub", 9), test(testout.PackageTest, 9), test("TestC", 2),
		test("TestD", 0), test("TestE", 0.25)}}}}
	want := "slowest tests: x/p.TestB (median 2.00s, p99 4.00s), x/p.TestC (median 2.00s, p99 4.00s), x/p.TestA (median 0.50s, p99 1.00s)"
	if got := r.slowest(); got != want {
		t.Errorf("slowest() = %q\nwant        %q", got, want)
	}
}
