package backoff

import (
	"testing"
	"time"
)

// TestNextFake checks the arithmetic with a fake draw: it says nothing of the randomness.
func TestNextFake(t *testing.T) {
	b := New(time.Second)
	b.rand = func() float64 { return 0.25 }
	if got := b.Next(); got != 250*time.Millisecond {
		t.Errorf("Next() = %v with the draw at 0.25, want 250ms", got)
	}
}

// TestNextRange checks the range of 100 delays.
func TestNextRange(t *testing.T) {
	b := New(time.Second)
	for range 100 {
		if d := b.Next(); d < 0 || d >= time.Second {
			t.Fatalf("Next() = %v", d)
		}
	}
}

// TestSpreadVaries sees at least 50 distinct delays in 100.
func TestSpreadVaries(t *testing.T) {
	seen := map[time.Duration]bool{}
	for range 100 {
		seen[Spread(time.Second)] = true
	}
	if len(seen) < 50 {
		t.Errorf("%d distinct delays of 100", len(seen))
	}
}

func TestHeads(t *testing.T) {
	_ = Heads()
	_ = Double()
}
