package runner

import (
	"testing"
	"time"
)

// TestBatchFor: the start-up costs at most 5% of a process's work, from one run when
// starting costs nothing to 1,000 when a run costs nothing; a run too short for package
// testing to time (under 10 ms) is taken as 100µs.
func TestBatchFor(t *testing.T) {
	for _, c := range []struct {
		startup, perRun time.Duration
		want            int
	}{
		{0, time.Millisecond, 1},
		{-time.Second, time.Millisecond, 1},
		{10 * time.Millisecond, time.Millisecond, 201},
		{15 * time.Millisecond, 200 * time.Millisecond, 2},
		{time.Second, 0, 1000},
		{time.Millisecond, 0, 201},
		{1 << 62, time.Nanosecond, 1000},
	} {
		if got := BatchFor(c.startup, c.perRun); got != c.want {
			t.Errorf("BatchFor(%v, %v) = %d, want %d", c.startup, c.perRun, got, c.want)
		}
	}
}
