package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/benchmarks/audit/internal/cmdtest"
)

func testdata(name string) string { return filepath.Join("testdata", name) }

// TestGolden pins the table for two modules and two lists: a site both find, one the last
// list misses, a near-miss it reports, a site it reports that no label lists, and a draw
// whose white space differs from its label's.
func TestGolden(t *testing.T) {
	cmdtest.Golden(t, run, testdata("table.golden"),
		testdata("labels.tsv"), "before="+testdata("before.tsv"), "after="+testdata("after.tsv"))
}

// TestBadInput: every malformed input is an error with exit status 2 and no table.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return cmdtest.Write(t, dir, name, text) }
	row := "example.com/a\ta.go\t3\trand.Intn(n)\tyes\twhy\n"
	labels, found := testdata("labels.tsv"), "after="+testdata("after.tsv")
	cmdtest.BadInput(t, run, map[string]cmdtest.Case{
		"too few arguments":  {Args: []string{labels}, Want: "usage"},
		"no such labels":     {Args: []string{filepath.Join(dir, "none.tsv"), found}, Want: "no such file"},
		"no label":           {Args: []string{write("e.tsv", "# nothing\n"), found}, Want: "no label"},
		"missing field":      {Args: []string{write("f.tsv", "example.com/a\ta.go\t3\n"), found}, Want: "3 fields, want 6"},
		"neither yes nor no": {Args: []string{write("y.tsv", strings.Replace(row, "yes", "maybe", 1)), found}, Want: `site "maybe"`},
		"listed twice":       {Args: []string{write("d.tsv", row+row), found}, Want: "listed twice"},
		"list without name":  {Args: []string{labels, testdata("after.tsv")}, Want: "want NAME=FILE"},
		"empty name":         {Args: []string{labels, "=" + testdata("after.tsv")}, Want: "want NAME=FILE"},
		"no such list":       {Args: []string{labels, "after=" + filepath.Join(dir, "none.tsv")}, Want: "no such file"},
		"list field short":   {Args: []string{labels, "after=" + write("s.tsv", "example.com/a\ta.go\n")}, Want: "2 fields, want 6"},
	})
}
