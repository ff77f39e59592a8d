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

// TestSlot checks the range of 50 slots: a negated slot fails it in every run, whatever the
// clock reads (all 50 readings would have to be multiples of 10).
func TestSlot(t *testing.T) {
	for range 50 {
		if s := Slot(10); s < 0 || s >= 10 {
			t.Fatalf("Slot(10) = %d", s)
		}
	}
}
