// Package golden pins what a test produces in a file under testdata: Check compares the two
// and shows the difference, and go test -update writes what the test produced into the file
// instead. The tables and reports of README.md and docs/ are such files (internal/readme copies
// them into the pages), so that no figure there is typed by hand.
package golden

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files from what the tests produce")

// Updating reports whether the tests run under -update: for a test that compares its golden
// file another way than as text (a report decoded from JSON, say), and so writes it itself.
func Updating() bool { return *update }

// Check compares got with the file at path. Under -update it writes got to the file instead,
// so that one run rewrites every golden file its tests check.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}
