package failing

import "testing"

// TestBroken fails every run, whatever the code does.
func TestBroken(t *testing.T) {
	_ = Jitter(10)
	t.Error("always fails")
}

// TestBounds checks the range only.
func TestBounds(t *testing.T) {
	for range 100 {
		if x := Jitter(10); x < 0 || x >= 10 {
			t.Fatalf("Jitter(10) = %d", x)
		}
	}
}
