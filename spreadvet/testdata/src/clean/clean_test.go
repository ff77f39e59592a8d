package clean

import (
	mrand "math/rand/v2"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

// A seeded source, and values pinned exactly.
func TestJitterSeeded(t *testing.T) {
	a := mrand.New(mrand.NewPCG(1, 2))
	b := mrand.New(mrand.NewPCG(1, 2))
	for range 100 {
		if x, y := Jitter(a, time.Second), Jitter(b, time.Second); x != y {
			t.Fatalf("same seed, %v and %v", x, y)
		}
	}
}

// The spread-based test.
func TestJitterSpread(t *testing.T) {
	r := spread.Rand(t)
	var xs []time.Duration
	for range 1000 {
		xs = append(xs, Jitter(r, time.Second))
	}
	spread.Check(t, xs, spread.Uniform(800*time.Millisecond, 1200*time.Millisecond))
}
