package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/benchmarks/audit/internal/cmdtest"
)

func testdata(name string) string { return filepath.Join("testdata", name) }

// TestGolden pins the table for two modules: a cell that agrees, an equivalent the audit
// calls survived (with its cause), a site the audit did not find (no cause given), and a
// mutant the audit found not viable.
func TestGolden(t *testing.T) {
	cmdtest.Golden(t, run, testdata("agreement.golden"),
		testdata("labels.tsv"), testdata("causes.tsv"), testdata("a.json"), testdata("b.json"))
}

// TestBadInput: every malformed input is an error with exit status 2 and no table.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return cmdtest.Write(t, dir, name, text) }
	head := "module\tversion\tsite\tclass\thand\tpackage\trun\tfrom\tto\tmeasured\n"
	row := "example.com/a\tv1\tx.go:3\tconstant\tkilled\t.\t.\ta\tb\tm\n"
	causes, report := testdata("causes.tsv"), testdata("a.json")
	cmdtest.BadInput(t, run, map[string]cmdtest.Case{
		"too few arguments":     {Args: []string{testdata("labels.tsv")}, Want: "usage"},
		"no such labels":        {Args: []string{filepath.Join(dir, "none.tsv"), causes, report}, Want: "no such file"},
		"header only":           {Args: []string{write("h.tsv", head), causes, report}, Want: "no label after the header"},
		"missing field":         {Args: []string{write("f.tsv", head+"example.com/a\tv1\tx.go:3\n"), causes, report}, Want: "3 fields, want 10"},
		"unknown verdict":       {Args: []string{write("v.tsv", head+strings.Replace(row, "killed", "dead", 1)), causes, report}, Want: `hand verdict "dead"`},
		"cell twice":            {Args: []string{write("d.tsv", head+row+row), causes, report}, Want: "labelled twice"},
		"site without line":     {Args: []string{write("s.tsv", head+strings.Replace(row, "x.go:3", "x.go", 1)), causes, report}, Want: `site "x.go"`},
		"report not json":       {Args: []string{write("ok.tsv", head+row), causes, write("r.json", "sites")}, Want: "invalid character"},
		"report of nothing":     {Args: []string{write("ok.tsv", head+row), causes, write("e.json", "{}")}, Want: "no module"},
		"report twice":          {Args: []string{write("ok.tsv", head+row), causes, report, report}, Want: "a second report"},
		"module with no report": {Args: []string{write("ok.tsv", head+row), causes, testdata("b.json")}, Want: "no report of example.com/a"},
	})
}
