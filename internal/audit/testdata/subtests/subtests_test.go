package subtests

import (
	"testing"
	"time"
)

func TestJitter(t *testing.T) {
	// Bounds passes a constant draw: only the bounds are checked.
	t.Run("Bounds", func(t *testing.T) {
		for range 100 {
			if d := Jitter(time.Second); d < time.Second/2 || d >= time.Second {
				t.Fatalf("Jitter(1s) = %v, want within [500ms, 1s)", d)
			}
		}
	})
	// Distinct fails a constant draw: 100 equal delays out of 100 draws.
	t.Run("Distinct", func(t *testing.T) {
		seen := map[time.Duration]bool{}
		for range 100 {
			seen[Jitter(time.Second)] = true
		}
		if len(seen) < 50 {
			t.Fatalf("100 delays took %d values, want at least 50", len(seen))
		}
	})
}
