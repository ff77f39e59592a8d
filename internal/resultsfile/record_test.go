package resultsfile

import (
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testout"
)

// TestReplayFlags: -shuffle=on replays with the seed the binary chose, -cpu with the run's
// value, and the job's environment comes with the seed.
func TestReplayFlags(t *testing.T) {
	r := &Record{Package: testbin.Package{ImportPath: "x/p", Target: "./p", Flags: []string{"-race", "-shuffle=on", "-skip=TestSlow"}},
		Run: 7, CPU: "4", Shuffle: "123", Env: []string{"MODE=a b"}}
	got := ReplayCommand(r, &testout.TestResult{Name: "TestA", Seed: 9})
	want := "SPREADCHECK_SEED=9 SPREADCHECK_RUN=7 MODE='a b' go test -race -shuffle=123 -skip=TestSlow -cpu=4 -run '^TestA$' -count=1 ./p"
	if got != want {
		t.Errorf("ReplayCommand\n got %s\nwant %s", got, want)
	}
}
