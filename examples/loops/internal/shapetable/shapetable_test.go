package shapetable

import (
	"path/filepath"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// TestTable pins the docs' table (go test -update rewrites it; the fleetplot command writes
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
	golden.Check(t, filepath.Join("testdata", "shapes.md"), got)
}
