package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/benchmarks/audit/internal/cmdtest"
	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// fixture is the audit's funcarg fixture module: draws passed as arguments and near-misses.
var fixture = filepath.Join("..", "..", "..", "..", "internal", "audit", "testdata", "funcarg")

// TestGolden pins the list of the funcarg fixture, every package and one alone (whose
// wrapper of the other package is still followed).
func TestGolden(t *testing.T) {
	var out, errs strings.Builder
	for _, args := range [][]string{{fixture}, {fixture, "./pick"}} {
		patterns := "(none: ./...)"
		if len(args) > 1 {
			patterns = strings.Join(args[1:], " ")
		}
		out.WriteString(patterns + ":\n")
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errs.String())
		}
	}
	golden.Check(t, filepath.Join("testdata", "funcarg.golden"), out.String())
}

// TestBadInput: no directory, or a package that does not exist, is an error with exit status
// 2 and no list.
func TestBadInput(t *testing.T) {
	cmdtest.BadInput(t, run, map[string]cmdtest.Case{
		"no directory":    {Args: nil, Want: "usage"},
		"no such package": {Args: []string{fixture, "./nosuch"}, Want: "no such package"},
	})
}
