// Package clean holds code spreadvet must not flag.
package clean

import (
	"context"
	mrand "math/rand/v2"
	"time"
)

// Fetch has a timeout and a deadline, both from the clock.
func Fetch(ctx context.Context, do func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	deadline := time.Now().Add(2 * time.Second)
	if time.Until(deadline) < 0 {
		return context.DeadlineExceeded
	}
	return do(ctx)
}

// Jitter is symmetric ±20% jitter, drawn from an injected source.
func Jitter(r *mrand.Rand, d time.Duration) time.Duration { // want Jitter:"random\\(rand.Float64, Uniform\\[0.8\\*\\$1, 1.2\\*\\$1\\)\\)"
	return time.Duration(float64(d) * (1 + 0.2*(2*r.Float64()-1)))
}
