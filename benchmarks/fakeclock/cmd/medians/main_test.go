package main

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/fleet-table.md from fleet-results.txt")

// The README's fleet table is this command's output on the recorded run,
// pinned in testdata/fleet-table.md (go test ./cmd/medians -update rewrites
// it; go test ./internal/readme -update in the main module copies it into
// the README).
func TestFleetTable(t *testing.T) {
	in, err := os.ReadFile("../../fleet-results.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	run(bytes.NewReader(in), &out)
	const golden = "../../testdata/fleet-table.md"
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("medians on fleet-results.txt:\n%s\nwant (%s):\n%s", out.Bytes(), golden, want)
	}
}
