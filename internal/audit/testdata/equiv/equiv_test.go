package equiv

import (
	"testing"
	"time"
)

func TestSpaced(t *testing.T) {
	if d := Spaced(time.Second); d < 0 || d >= time.Second {
		t.Errorf("Spaced(1s) = %v", d)
	}
}

func TestLive(t *testing.T) {
	if d := Live(time.Second); d < 0 || d >= time.Second {
		t.Errorf("Live(1s) = %v", d)
	}
}

// TestFloor calls Floor 50 times, so that a broken Floor fails it every run.
func TestFloor(t *testing.T) {
	for range 50 {
		if f := Floor(); f != 0 {
			t.Fatalf("Floor() = %d", f)
		}
	}
}

func TestBroken(t *testing.T) {
	if d := Broken(time.Second); d < 0 {
		t.Errorf("Broken(1s) = %v", d)
	}
}
