package jitter

import (
	"testing"
	"time"
)

func TestJitter(t *testing.T) {
	for range 10 {
		if d := Jitter(time.Second); d < 0 {
			t.Fatal(d)
		}
	}
}
