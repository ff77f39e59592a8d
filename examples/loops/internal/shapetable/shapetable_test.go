package shapetable

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

var update = flag.Bool("update", false, "rewrite testdata/shapes.md")

// TestTable pins the README's table (go test -update rewrites it; the fleetplot command writes
// the same file, with the pictures). Its fleets take seconds, which the repeated runs of the
// examples (spreadcheck -runs 200 ./examples/...) need not spend on a table that depends on
// its seed alone: it is a long validation, which CI runs.
func TestTable(t *testing.T) {
	longtest.Skip(t)
	var rows []Row
	for _, s := range Shapes() {
		r, err := Measure(s, Seed)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	got := Markdown(rows)
	path := filepath.Join("testdata", "shapes.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, d)
	}
}
