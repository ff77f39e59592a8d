package jitter

import (
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

// TestEqual checks only the bounds of the waits: blind.
func TestEqual(t *testing.T) {
	r := spread.Rand(t)
	var waits []time.Duration
	for range 1000 {
		waits = append(waits, Equal(r, time.Second))
	}
	for _, w := range waits {
		if w < time.Second/2 || w >= time.Second {
			t.Errorf("wait %v outside [0.5s, 1s)", w)
		}
	}
}
