package bidder

import (
	"testing"
	"time"
)

// The story's test: ten delays into a set, then only "not negative".
func TestCalculateDelay(t *testing.T) {
	cfg := Config{BaseDelay: 100 * time.Millisecond, MaxDelay: 10 * time.Second}
	delays := make(map[time.Duration]bool)
	for i := 0; i < 10; i++ {
		delays[calculateDelay(cfg, 0)] = true // want `blind test: TestCalculateDelay draws calculateDelay 10 times and checks only their bounds \(delay < 0\), so a constant or a collapsed range passes it; check the spread: xs := spread.Draw\(1000, func\(\) time.Duration \{ return calculateDelay\(cfg, 0\) \}\); spread.Check\(t, xs, spread.Uniform\(lo, hi\)\)`
	}

	// Should have some variation (may not always be true due to randomness)
	// Just check it doesn't panic and returns reasonable values
	for delay := range delays {
		if delay < 0 {
			t.Errorf("delay should not be negative, got %v", delay)
		}
	}
}

// A test that draws and asserts nothing at all.
func TestCalculateDelayRuns(t *testing.T) {
	var xs []time.Duration
	for range 100 {
		xs = append(xs, calculateDelay(Config{BaseDelay: time.Second, MaxDelay: time.Minute}, 1)) // want `blind test: TestCalculateDelayRuns draws calculateDelay 100 times and asserts nothing about them`
	}
}

// One draw per attempt is no sample of one distribution, and it is compared exactly: not
// flagged.
func TestCalculateDelayExact(t *testing.T) {
	for i := 0; i < 3; i++ {
		if d := calculateDelay(Config{}, i); d != 0 {
			t.Errorf("zero config: %v", d)
		}
	}
}
