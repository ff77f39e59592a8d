package jitter

import "math/rand/v2"

// Next is a delay in [0, b.Max).
func (b *Backoff) Next() int64 {
	return int64(rand.N(b.Max))
}

// Pick is a delay in [0, b.Max), from the Backoff's pick.
func (b *Backoff) Pick() int64 {
	return int64(b.pick(b.Max))
}
