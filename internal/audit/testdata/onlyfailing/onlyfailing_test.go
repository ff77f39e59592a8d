package onlyfailing

import (
	"testing"
	"time"
)

// TestBroken fails every run, whatever the code does.
func TestBroken(t *testing.T) {
	_ = Jitter(10)
	t.Error("always fails")
}

var calls int

// TestFlaky fails three of every four runs in a process (runs 1, 2, 3 and 5 of a process of
// five), whatever the code does, and checks Spread's range.
func TestFlaky(t *testing.T) {
	calls++
	if calls%4 != 0 {
		t.Error("fails by itself")
	}
	for range 100 {
		if d := Spread(time.Second); d < 0 || d >= time.Second {
			t.Fatalf("Spread(1s) = %v", d)
		}
	}
}
