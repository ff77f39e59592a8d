// Package gocheck draws jittered backoffs that its gocheck suite tests, as juju/retry does.
package gocheck

import (
	"math/rand/v2"
	"time"
)

// Backoff returns the delay of an attempt: base times 2^attempt, jittered by up to a fifth.
func Backoff(attempt int) time.Duration { // want Backoff:"random\\(rand.Float64.*\\)"
	d := time.Duration(1<<attempt) * 100 * time.Millisecond
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}
