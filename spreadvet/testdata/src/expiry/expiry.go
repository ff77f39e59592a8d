// Package expiry gives connections a jittered lifetime: a time.Time a random span from now (the
// shape of go-redis's connection expiry). A test that checks only that the time falls between
// two others passes a constant span.
package expiry

import (
	"math/rand/v2"
	"time"
)

// ExpiresAt is now plus lifetime, moved by up to jitter either way.
func ExpiresAt(lifetime, jitter time.Duration) time.Time { // want ExpiresAt:"random\\(rand.Int64N\\)"
	return time.Now().Add(lifetime + time.Duration(rand.Int64N(int64(2*jitter))) - jitter)
}
