package clockseed

import (
	"math/rand"
	"testing"
)

// TestNewRandDiffers: two sources seeded at different times start differently.
func TestNewRandDiffers(t *testing.T) {
	if a, b := NewRand().Int63(), NewRand().Int63(); a == b {
		t.Errorf("two sources gave the same first draw %d", a)
	}
}

// TestReseed reseeds twice: the sequences must differ.
func TestReseed(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	Reseed(r)
	a := r.Int63()
	Reseed(r)
	if b := r.Int63(); a == b {
		t.Errorf("two reseeds gave the same first draw %d", a)
	}
}

// TestSlot checks the range only.
func TestSlot(t *testing.T) {
	if s := Slot(10); s < 0 || s >= 10 {
		t.Errorf("Slot(10) = %d", s)
	}
}
