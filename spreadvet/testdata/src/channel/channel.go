// Package channel draws waits that its tests take from goroutines over channels, as
// Temporal's concurrent retrier test does.
package channel

import (
	"math/rand/v2"
	"time"
)

// A Retrier waits longer after each failure, with jitter.
type Retrier struct {
	failures int
}

// Failed counts a failure.
func (r *Retrier) Failed() { r.failures++ }

// Wait is the wait after the failures so far: base times 2^failures, jittered by up to a fifth.
func (r *Retrier) Wait() time.Duration { // want Wait:"random\\(rand.Float64\\)"
	if r.failures == 0 {
		return 0
	}
	d := time.Duration(1<<r.failures) * time.Millisecond
	return d + time.Duration(rand.Float64()*0.2*float64(d))
}
