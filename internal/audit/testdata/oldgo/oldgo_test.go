package oldgo

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	for i := 0; i < 100; i++ {
		if d := Backoff(time.Second); d < time.Second || d >= 2*time.Second {
			t.Fatalf("Backoff(1s) = %v", d)
		}
	}
}

func TestScale(t *testing.T) {
	for i := 0; i < 100; i++ {
		if d := Scale(time.Second); d < 0 || d >= time.Second {
			t.Fatalf("Scale(1s) = %v", d)
		}
	}
}

func TestToken(t *testing.T) {
	if len(Token()) != 8 {
		t.Fatal("not 8 bytes")
	}
}

func TestTicket(t *testing.T) {
	for i := 0; i < 100; i++ {
		if n := Ticket(); n < 0 || n >= 1000 {
			t.Fatalf("Ticket() = %d", n)
		}
	}
}

func TestOrder(t *testing.T) {
	out, perm := Order([]int{1, 2, 3})
	if len(out) != 3 || len(perm) != 3 {
		t.Fatalf("Order = %v, %v", out, perm)
	}
}

func TestSlot(t *testing.T) {
	for i := 0; i < 100; i++ {
		if s := Slot(10); s < 0 || s >= 10 {
			t.Fatalf("Slot(10) = %d", s)
		}
	}
}

// TestPhase reaches its site and checks nothing: what the clock reads decides no verdict.
func TestPhase(t *testing.T) {
	Phase(10)
}

func TestNoise(t *testing.T) {
	_, e, x := Noise()
	if e < 0 || x < 0 {
		t.Fatalf("Noise: exp %v, int63 %v", e, x)
	}
}
