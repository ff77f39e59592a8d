package backoff

import (
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

// TestWeak is the weak test: it collects ten delays into a set and never checks its size.
func TestWeak(t *testing.T) {
	delays := map[time.Duration]bool{}
	for i := 0; i < 10; i++ {
		delays[Weak(time.Second)] = true
		delays[Shipped(time.Second)] = true
	}
	// Should have some variation (may not always be true due to randomness)
	for d := range delays {
		if d < 0 {
			t.Errorf("delay should not be negative, got %v", d)
		}
	}
}

// TestFixed is the fixed test: bounds, at least half distinct of 1,000, mean within 5%.
func TestFixed(t *testing.T) {
	base := time.Second
	seen := map[time.Duration]bool{}
	var sum time.Duration
	for range 1000 {
		d := Fixed(base)
		if d < 0 || d >= base {
			t.Fatalf("delay %v outside [0, %v)", d, base)
		}
		seen[d] = true
		sum += d
	}
	if len(seen) < 500 {
		t.Errorf("%d distinct delays of 1000", len(seen))
	}
	if mean := sum / 1000; mean < base/2-base/20 || mean > base/2+base/20 {
		t.Errorf("mean %v, want within 5%% of %v", mean, base/2)
	}
}

// TestChecked declares the distribution and lets spread size the checks.
func TestChecked(t *testing.T) {
	r := spread.Rand(t)
	xs := spread.Draw(1000, func() time.Duration { return Checked(r, time.Second) })
	spread.Check(t, xs, spread.Uniform(0, time.Second))
}
