package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// The docs' fleet table is this command's output on the recorded run,
// pinned in testdata/fleet-table.md (go test ./cmd/medians -update rewrites
// it; go test ./internal/readme -update in the main module copies it into
// the docs).
func TestFleetTable(t *testing.T) {
	checkTable(t, "../../fleet-results.txt", "../../testdata/fleet-table.md")
}

// The docs' tick table: the same command on the recorded run of the
// one-loop and 1,000-loop benchmarks, pinned in testdata/tick-table.md.
func TestTickTable(t *testing.T) {
	checkTable(t, "../../results.txt", "../../testdata/tick-table.md")
}

// The CPU x floor column on a small input whose medians are worked out by
// hand in testdata/cpu-floor.md: each driver's median CPU ns per event over
// the floor's, and "-" for the schedule, which has no goroutine hand-offs to
// compare.
func TestCPUOverFloor(t *testing.T) {
	checkTable(t, "testdata/cpu-floor.txt", "testdata/cpu-floor.md")
}

// checkTable runs the command on the benchmark lines in input and compares
// its output with the golden file (rewritten with -update).
func checkTable(t *testing.T, input, want string) {
	t.Helper()
	in, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, want, out.String())
}
