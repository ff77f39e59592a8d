package tempfiles

import (
	"os"
	"testing"
)

var runs int

// TestElection leaves a data folder behind in os.TempDir() every run, and fails when its
// process starts with anything in os.TempDir(): a process must have a temporary directory of
// its own.
func TestElection(t *testing.T) {
	if runs == 0 {
		if left, _ := os.ReadDir(os.TempDir()); len(left) > 0 {
			t.Errorf("os.TempDir() %s holds %d entries when the process starts", os.TempDir(), len(left))
		}
	}
	runs++
	if _, err := os.MkdirTemp("", "raft-data-"); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if e := Election(); e < 150 || e >= 300 {
			t.Fatalf("Election() = %d", e)
		}
	}
}
