package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// TestGolden pins the table printed for testdata/bench.txt: go test -bench output with the
// load before and after, two benchmarks run three times and twice. Each line is one
// benchmark's metric: its median (the middle of three; the mean of the middle two) and how
// many runs it has; ns/op, the headers, the load and the summary lines are left out.
func TestGolden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(strings.NewReader(string(in)), &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "medians.golden"), out.String())
}

// TestNoBenchmarks: input without a benchmark line is an error, not an empty table.
func TestNoBenchmarks(t *testing.T) {
	var out strings.Builder
	err := run(strings.NewReader("goos: linux\nPASS\nok  \tx\t0.1s\n"), &out)
	if err == nil || out.Len() != 0 {
		t.Errorf("no benchmark lines: err %v, output %q; want an error and no output", err, out.String())
	}
}
