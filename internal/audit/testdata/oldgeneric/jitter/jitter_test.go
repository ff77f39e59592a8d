package jitter

import (
	"testing"
	"time"
)

// distinct fails unless 100 delays take at least 50 values, and each lies in [lo, hi).
func distinct(t *testing.T, lo, hi int64, draw func() int64) {
	t.Helper()
	seen := map[int64]bool{}
	for i := 0; i < 100; i++ {
		v := draw()
		if v < lo || v >= hi {
			t.Fatalf("%d outside [%d, %d)", v, lo, hi)
		}
		seen[v] = true
	}
	if len(seen) < 50 {
		t.Errorf("%d distinct delays of 100", len(seen))
	}
}

func TestFull(t *testing.T) {
	distinct(t, 0, int64(time.Second), func() int64 { return int64(Full(time.Second)) })
}

func TestEqual(t *testing.T) {
	distinct(t, int64(time.Second/2), int64(time.Second), func() int64 { return int64(Equal(time.Second)) })
}

func TestNext(t *testing.T) {
	b := New(time.Second)
	distinct(t, 0, int64(time.Second), b.Next)
}

func TestPick(t *testing.T) {
	b := New(time.Second)
	for i := 0; i < 100; i++ {
		if d := b.Pick(); d < 0 || d >= int64(time.Second) {
			t.Fatalf("Pick() = %d", d)
		}
	}
}
