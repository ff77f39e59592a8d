// Package backoff holds the jitters the tests of the fixtures draw.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Full is full jitter: a wait anywhere in [0, d).
func Full(r *rand.Rand, d time.Duration) time.Duration { // want Full:"random\\(rand.Float64, Uniform\\[0, 1\\*\\$1\\)\\)"
	return time.Duration(r.Float64() * float64(d))
}

// Equal keeps half of d as a floor and jitters the other half.
func Equal(d time.Duration) time.Duration { // want Equal:"random\\(rand.N, Uniform\\[0.5\\*\\$0, 1\\*\\$0\\), quiet when \\$0 <= 0\\)"
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2)
}

// Fraction is a float in [0, 1).
func Fraction() float64 { // want Fraction:"random\\(rand.Float64, Uniform\\[0, 1\\)\\)"
	return rand.Float64()
}

// Next calls Full: random, with no distribution read from its body.
func Next(attempt int) time.Duration { // want Next:"random\\(calls Full\\)"
	return Full(rand.New(rand.NewPCG(1, uint64(attempt))), time.Second<<attempt)
}

// Exponential is a stateful backoff: each NextBackOff jitters the current interval by up to
// a tenth either way, then doubles it.
type Exponential struct{ interval time.Duration }

func (b *Exponential) NextBackOff() time.Duration { // want NextBackOff:"random\\(rand.Float64\\)"
	d := b.interval + time.Duration((2*rand.Float64()-1)*0.1*float64(b.interval))
	b.interval *= 2
	return d
}
