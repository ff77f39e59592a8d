// Package jitter draws with math/rand/v2's generic N in a module whose go.mod says go 1.18:
// Go before 1.21 infers no type arguments of a generic function passed as a value, so the
// audit's rewrite must instantiate N explicitly, with a type argument the file does not
// always import (Backoff.Next's file names no time.Duration).
package jitter

import (
	"math/rand/v2"
	"time"
)

// Full is a delay in [0, d).
func Full(d time.Duration) time.Duration {
	return rand.N(d)
}

// Equal is a delay in [d/2, d), of any integer type.
func Equal[D ~int64](d D) D {
	return d/2 + rand.N(d/2)
}

// Backoff holds the longest delay.
type Backoff struct {
	Max  time.Duration
	pick func(time.Duration) time.Duration
}

// New returns a Backoff that picks with rand.N.
func New(max time.Duration) *Backoff {
	return &Backoff{Max: max, pick: rand.N[time.Duration]}
}
