package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/runner"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

func ptr(x float64) *float64 { return &x }

// sample is a report with every verdict, a hang, a flake hidden by a mutant, a draw that
// never reaches the code and a warning.
func sample() *Report {
	r := &Report{Module: "example.com/m", Runs: 20, Alpha: 0.01, Family: 12, Seed: 7, Mode: Schemata, Mutants: 8,
		Warnings: []string{"example.com/m TestFlaky fails 9 of 20 baseline runs: a mutant kills only by failing it significantly more often"},
		Sites: []SiteReport{{
			File: "jitter.go", Line: 12, Expr: "rand.Float64()", Package: "example.com/m", Func: "Full", Kind: "unit",
			Mutants: []MutantReport{
				{Class: "constant", Verdict: Survived, Test: "TestFull", Runs: 10, BaselineRuns: 20, PValue: ptr(1), Check: "distinct"},
				{Class: "sign-flip", Verdict: Killed, Test: "TestFull", Runs: 5, Failures: 5, BaselineRuns: 20, PValue: ptr(1.9e-5)},
				{Class: "clock-derived", Verdict: Killed, Test: "TestLoop", Runs: 5, Failures: 5, BaselineRuns: 20, PValue: ptr(1.9e-5), Timeout: true},
				{Class: "collapsed-range", Verdict: Survived, Test: "TestFlaky", Runs: 20, Failures: 0, BaselineRuns: 20, BaselineFailures: 9,
					PValue: ptr(1), Check: "coverage", Fewer: []Fewer{{Test: "TestFlaky", Runs: 20, BaselineRuns: 20, BaselineFailures: 9, PValue: 2.3e-4}}},
			},
			Suggest: "spread.Check(t, spread.Draw(1000, func() float64 { return Full() }), spread.Uniform(lo, hi))",
		}, {
			File: "jitter.go", Line: 20, Expr: "rand.IntN(1)", Package: "example.com/m", Func: "One", Kind: "bounded",
			Mutants: []MutantReport{{Class: "constant", Verdict: Equivalent, Reason: "the range holds one value at most (n = 1): nothing to change"}},
		}, {
			File: "other.go", Line: 3, Expr: "rand.N(d)", Package: "example.com/m/other", Func: "Typed", Kind: "bounded",
			Mutants: []MutantReport{{Class: "constant", Verdict: NotViable, Reason: "the draw's type is a type parameter"},
				{Class: "sign-flip", Verdict: NotCovered, Reason: "no test reaches the site"}},
		}, {
			File: "other.go", Line: 9, Expr: "rand.Float64()", Package: "example.com/m/other", Func: "Broken", Kind: "unit",
			Dead:    "the conversion to time.Duration makes every value of rand.Float64() 0",
			Mutants: []MutantReport{{Class: "constant", Verdict: Equivalent, Reason: "the conversion to time.Duration makes every value of the draw, and of this mutant, 0"}},
			Suggest: "spread.Check(t, spread.Draw(1000, func() time.Duration { return Broken(d) }), spread.Uniform(0, d))",
		}},
	}
	r.score()
	return r
}

// TestReportFormats pins the text, Markdown and JSON forms of a report with every verdict in
// golden files (go test -update rewrites them).
func TestReportFormats(t *testing.T) {
	r := sample()
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer) error
	}{
		{"report.txt", func(b *bytes.Buffer) error { return r.WriteText(b) }},
		{"report.md", func(b *bytes.Buffer) error { return r.WriteMarkdown(b) }},
		{"report.json", func(b *bytes.Buffer) error { return r.WriteJSON(b) }},
	} {
		var b bytes.Buffer
		if err := f.write(&b); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", f.name), b.String())
	}
	if r.ExitCode() != testreport.ExitFlaky {
		t.Errorf("exit %d with survivors, want %d", r.ExitCode(), testreport.ExitFlaky)
	}
}

// TestJSONContract checks the stable field names and the verdict strings that tools read.
func TestJSONContract(t *testing.T) {
	var b bytes.Buffer
	sample().WriteJSON(&b)
	var raw struct {
		Sites []map[string]json.RawMessage `json:"sites"`
	}
	if err := json.Unmarshal(b.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]bool{}
	for _, s := range raw.Sites {
		for _, k := range []string{"file", "line", "expr", "mutants"} {
			if s[k] == nil {
				t.Errorf("a site lacks %q", k)
			}
		}
		var ms []map[string]any
		json.Unmarshal(s["mutants"], &ms)
		for _, m := range ms {
			verdicts[m["verdict"].(string)] = true
			if m["class"] == nil {
				t.Errorf("a mutant lacks its class: %v", m)
			}
		}
	}
	want := map[string]bool{"killed": true, "survived": true, "equivalent": true, "not covered": true, "not viable": true}
	if diff := cmp.Diff(want, verdicts); diff != "" {
		t.Errorf("verdict strings (-want +got):\n%s", diff)
	}
}

func TestExitCodes(t *testing.T) {
	r := &Report{}
	if r.ExitCode() != testreport.ExitClean {
		t.Error("nothing found: want exit 0")
	}
	r.Sites = []SiteReport{{Mutants: []MutantReport{{Verdict: Killed}, {Verdict: Equivalent}, {Verdict: NotViable}}}}
	if r.ExitCode() != testreport.ExitClean {
		t.Error("all killed, equivalent or not viable: want exit 0")
	}
	r.Sites[0].Dead = "the conversion to int64 makes every value of rand.Float64() 0"
	if r.ExitCode() != testreport.ExitFlaky {
		t.Error("a draw that never reaches the code, its mutants all equivalent: want exit 1")
	}
	r.Sites[0].Dead = ""
	r.Sites[0].Mutants = append(r.Sites[0].Mutants, MutantReport{Verdict: NotCovered})
	if r.ExitCode() != testreport.ExitFlaky {
		t.Error("a mutant not covered: want exit 1")
	}
	r.Interrupted = true
	if r.ExitCode() != testreport.ExitInterrupted {
		t.Error("interrupted: want exit 3")
	}
}

// TestMergeShards splits the sample's mutants into shards in every way a rapid draw picks,
// and checks that merging the shards gives back the whole report.
func TestMergeShards(t *testing.T) {
	whole := sample()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "shards")
		shards := make([]*Report, n)
		for i := range shards {
			c := *whole
			c.Sites = nil
			for _, s := range whole.Sites {
				s.Mutants = nil
				c.Sites = append(c.Sites, s)
			}
			shards[i] = &c
		}
		for i, s := range whole.Sites {
			for _, m := range s.Mutants {
				k := rapid.IntRange(0, n-1).Draw(t, "shard")
				shards[k].Sites[i].Mutants = append(shards[k].Sites[i].Mutants, m)
			}
		}
		got, err := Merge(shards...)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(whole.Sites, got.Sites); diff != "" {
			t.Fatalf("merged sites (-whole +merged):\n%s", diff)
		}
		if diff := cmp.Diff(whole.Packages, got.Packages); diff != "" {
			t.Fatalf("merged scores (-whole +merged):\n%s", diff)
		}
	})
}

func TestMergeRejects(t *testing.T) {
	a, b := sample(), sample()
	if _, err := Merge(a, b); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("merging a report with itself: %v, want an error about overlapping shards", err)
	}
	b.Seed = 8
	if _, err := Merge(a, b); err == nil {
		t.Error("merging reports of two audits (different seeds): no error")
	}
	if _, err := Merge(); err == nil {
		t.Error("merging nothing: no error")
	}
}

// FuzzReadMerge: whatever a report file holds, reading and merging it gives an error or a
// report, never a panic.
func FuzzReadMerge(f *testing.F) {
	var b bytes.Buffer
	sample().WriteJSON(&b)
	f.Add(b.Bytes())
	f.Add([]byte(`{"sites":[{"mutants":[{"class":"x"},{"class":"x"}]}]}`))
	f.Add([]byte(`{"sites":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.json")
		os.WriteFile(path, data, 0o644)
		r, err := ReadJSON(path)
		if err != nil {
			return
		}
		if m, err := Merge(r, r); err == nil {
			var out bytes.Buffer
			m.WriteText(&out)
			m.WriteMarkdown(&out)
			m.ExitCode()
		}
	})
}

// TestConfigRefusesSessionOptions: Config shares runner.Options with a session; the fields
// that only a session follows are refused, never silently ignored.
func TestConfigRefusesSessionOptions(t *testing.T) {
	for name, o := range map[string]runner.Options{
		"FailFast":  {FailFast: true},
		"Until":     {Until: time.Minute},
		"Precision": {Precision: 0.01},
		"LogDir":    {LogDir: t.TempDir()},
	} {
		if _, err := Run(context.Background(), Config{Options: o}); err == nil || !strings.Contains(err.Error(), "does not follow") {
			t.Errorf("%s: error %v, want one saying an audit does not follow it", name, err)
		}
	}
}

// TestJSONArraysNeverNull: every array of a report's JSON is an array, empty when there is
// nothing in it, never null: a report of no site, one whose site has no finished mutant, a
// merge, and a report read back from a JSON file that said null.
func TestJSONArraysNeverNull(t *testing.T) {
	merged, err := Merge(&Report{}, &Report{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "null.json")
	if err := os.WriteFile(path, []byte(`{"sites": [{"file": "a.go", "mutants": null}], "packages": null}`), 0o644); err != nil {
		t.Fatal(err)
	}
	read, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*Report{
		"no site":       {Module: "example.com/m"},
		"no mutant":     {Sites: []SiteReport{{File: "a.go"}}},
		"merged":        merged,
		"read":          read,
		"every verdict": sample(),
	} {
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if where := findNull(v, "report"); where != "" {
			t.Errorf("%s: %s is null:\n%s", name, where, b.String())
		}
	}
}

// findNull returns the path of the first null in a decoded JSON value, or "".
func findNull(v any, at string) string {
	switch x := v.(type) {
	case nil:
		return at
	case map[string]any:
		for k, e := range x {
			if w := findNull(e, at+"."+k); w != "" {
				return w
			}
		}
	case []any:
		for i, e := range x {
			if w := findNull(e, fmt.Sprintf("%s[%d]", at, i)); w != "" {
				return w
			}
		}
	}
	return ""
}

// TestReadJSONRefusesUnknownMode: a report's mode is one of two; a report that says another
// (a typo, a newer version's) is refused, where before any string was read as its mode.
func TestReadJSONRefusesUnknownMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	for mode, ok := range map[string]bool{"schemata": true, "per-mutant": true, "schema": false, "per mutant": false} {
		if err := os.WriteFile(path, []byte(`{"module": "m", "mode": "`+mode+`", "sites": []}`), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := ReadJSON(path)
		if (err == nil) != ok || ok && string(r.Mode) != mode {
			t.Errorf("mode %q: %v, %v; want accepted %v", mode, r, err, ok)
		}
	}
}

// TestProcessesAlone: the report's head says how runs share processes, and that some tests
// had one a run when a group ran alone.
func TestProcessesAlone(t *testing.T) {
	for _, c := range []struct {
		r    Report
		want string
	}{
		{Report{Batch: 0}, ""},
		{Report{Batch: 1}, " (a process each)"},
		{Report{Batch: 2, Baseline: []TestBaseline{{Test: "TestA"}}}, " (2 to a process)"},
		{Report{Batch: 2, Baseline: []TestBaseline{{Test: "TestA"}, {Test: "TestPeers", Alone: true}}},
			" (2 to a process; one for the tests that fail in later runs of a process, see the warning)"},
	} {
		if got := c.r.processes(); got != c.want {
			t.Errorf("batch %d, baseline %+v: %q, want %q", c.r.Batch, c.r.Baseline, got, c.want)
		}
	}
}
