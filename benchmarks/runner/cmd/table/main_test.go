package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// TestREADMETable pins the docs' table: this command's output on the recorded run
// (go test ./cmd/table -update rewrites it; go test ./internal/readme -update in the main
// module copies it into the docs).
func TestREADMETable(t *testing.T) {
	in, err := os.ReadFile("../../RESULTS.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := table(t, string(in))
	golden.Check(t, "../../testdata/table.md", got)
}

// TestRatiosWithinIterations checks figures that can be worked out by hand: over three
// iterations spreadcheck's wall times are 2, 4 and 9 s against stress's 4, 2 and 3 s, so the
// ratios within each are 0.5, 2 and 3 (median 2), while the ratio of the medians would be
// 4/3; the wall-time medians are 4 s and 3 s.
func TestRatiosWithinIterations(t *testing.T) {
	in := "BenchmarkSlowSuite-2 1 1 ns/op 2 spreadcheck-s 4 stress-s\n" +
		"BenchmarkSlowSuite-2 1 1 ns/op 4 spreadcheck-s 2 stress-s\n" +
		"BenchmarkSlowSuite-2 1 1 ns/op 9 spreadcheck-s 3 stress-s\n"
	got := table(t, in)
	for _, want := range []string{
		"(medians of 3)",
		"| stress on a precompiled binary (a process per run, no per-test view) | 3.00 s |  |",
		"| **spreadcheck** (build included; runs per process chosen from measured times) | 4.00 s |  |",
		"| spreadcheck / stress | 2.00 | |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table is missing %q:\n%s", want, got)
		}
	}
}

func table(t *testing.T, in string) string {
	t.Helper()
	lines, err := read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	write(&out, lines)
	return out.String()
}
