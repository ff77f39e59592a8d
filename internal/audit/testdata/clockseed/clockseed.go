// Package clockseed seeds random sources from clock readings held in locals and passed on
// through assignments, and takes one such reading modulo n; Fixed seeds from a constant held
// in a local, which is no clock.
package clockseed

import (
	"math/rand"
	randv2 "math/rand/v2"
	"time"
)

// NewRand seeds a source from a reading held in a local.
func NewRand() *rand.Rand {
	seed := time.Now().UnixNano()
	return rand.New(rand.NewSource(seed))
}

// Reseed passes the reading through a time.Time, two assignments and an operator.
func Reseed(r *rand.Rand) {
	now := time.Now()
	n := now.UnixNano()
	var s int64
	s = n ^ 0x5DEECE66D
	r.Seed(s)
}

// PCG seeds a math/rand/v2 generator from a local, converted.
func PCG() *randv2.Rand {
	t := time.Now().UnixNano()
	return randv2.New(randv2.NewPCG(uint64(t), 1))
}

// Slot takes a reading held in a local modulo n.
func Slot(n int64) int64 {
	now := time.Now().UnixNano()
	return now % n
}

// Fixed seeds from a constant held in a local: no clock reaches the seed.
func Fixed() *rand.Rand {
	seed := int64(7)
	return rand.New(rand.NewSource(seed))
}
