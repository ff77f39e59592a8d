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

// Pool holds the lifetime and jitter its connections are given.
type Pool struct{ lifetime, jitter time.Duration }

// NewPool returns a Pool.
func NewPool(lifetime, jitter time.Duration) *Pool { return &Pool{lifetime, jitter} }

// expiresAt is unexported: the external tests reach it through export_test.go. With no
// jitter it draws nothing.
func (p *Pool) expiresAt() time.Time { // want expiresAt:"random\\(rand.Int64N\\)"
	if p.jitter <= 0 {
		return time.Now().Add(p.lifetime)
	}
	return time.Now().Add(p.lifetime + time.Duration(rand.Int64N(int64(2*p.jitter))) - p.jitter)
}
