package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

func testdata(name string) string { return filepath.Join("testdata", name) }

// TestGolden pins the table for two modules: a cell that agrees, an equivalent the audit
// calls survived (with its cause), a site the audit did not find (no cause given), and a
// mutant the audit found not viable.
func TestGolden(t *testing.T) {
	var out, errs strings.Builder
	args := []string{testdata("labels.tsv"), testdata("causes.tsv"), testdata("a.json"), testdata("b.json")}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	golden.Check(t, testdata("agreement.golden"), out.String())
}

// TestBadInput: every malformed input is an error with exit status 2 and no table.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	head := "module\tversion\tsite\tclass\thand\tpackage\trun\tfrom\tto\tmeasured\n"
	row := "example.com/a\tv1\tx.go:3\tconstant\tkilled\t.\t.\ta\tb\tm\n"
	causes, report := testdata("causes.tsv"), testdata("a.json")
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"too few arguments":     {[]string{testdata("labels.tsv")}, "usage"},
		"no such labels":        {[]string{filepath.Join(dir, "none.tsv"), causes, report}, "no such file"},
		"header only":           {[]string{write("h.tsv", head), causes, report}, "no label after the header"},
		"missing field":         {[]string{write("f.tsv", head+"example.com/a\tv1\tx.go:3\n"), causes, report}, "3 fields, want 10"},
		"unknown verdict":       {[]string{write("v.tsv", head+strings.Replace(row, "killed", "dead", 1)), causes, report}, `hand verdict "dead"`},
		"cell twice":            {[]string{write("d.tsv", head+row+row), causes, report}, "labelled twice"},
		"site without line":     {[]string{write("s.tsv", head+strings.Replace(row, "x.go:3", "x.go", 1)), causes, report}, `site "x.go"`},
		"report not json":       {[]string{write("ok.tsv", head+row), causes, write("r.json", "sites")}, "invalid character"},
		"report of nothing":     {[]string{write("ok.tsv", head+row), causes, write("e.json", "{}")}, "no module"},
		"report twice":          {[]string{write("ok.tsv", head+row), causes, report, report}, "a second report"},
		"module with no report": {[]string{write("ok.tsv", head+row), causes, testdata("b.json")}, "no report of example.com/a"},
	} {
		t.Run(name, func(t *testing.T) {
			var out, errs strings.Builder
			if code := run(c.args, &out, &errs); code != 2 || out.Len() != 0 || !strings.Contains(errs.String(), c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, no output, an error with %q", code, out.String(), errs.String(), c.want)
			}
		})
	}
}
