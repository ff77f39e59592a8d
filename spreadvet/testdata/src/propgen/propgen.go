// Package propgen is shaped like gopter, a property-testing library: a generator is a func
// type, and its Sample method hands back what the generator makes, boxed as any.
package propgen

import (
	"math/rand"
	"time"
)

// GenParameters hold the source the generators draw from.
type GenParameters struct {
	MaxSize int
	Rng     *rand.Rand
}

// NextBool draws a bool.
func (p *GenParameters) NextBool() bool { return p.Rng.Int63()&1 == 0 } // want NextBool:"random\\(rand.Int63\\)"

// NextUint64 draws a uint64.
func (p *GenParameters) NextUint64() uint64 { return uint64(p.Rng.Int63())<<1 ^ uint64(p.Rng.Int63()) } // want NextUint64:"random\\(rand.Int63\\)"

// DefaultGenParameters makes parameters with a source of its own.
func DefaultGenParameters() *GenParameters {
	return &GenParameters{MaxSize: 100, Rng: rand.New(rand.NewSource(time.Now().UnixNano()))}
}

// GenResult holds what a generator made, boxed.
type GenResult struct {
	Result any
}

// Retrieve hands back the value and whether there is one.
func (r *GenResult) Retrieve() (any, bool) { return r.Result, r.Result != nil }

// Gen makes a value from the parameters' source.
type Gen func(*GenParameters) *GenResult

// Sample makes one value with parameters of its own: a draw, when g draws.
func (g Gen) Sample() (any, bool) { // want Sample:"sampler"
	return g(DefaultGenParameters()).Retrieve()
}

// WithLabel makes another generator, no value.
func (g Gen) WithLabel(label string) Gen {
	return func(p *GenParameters) *GenResult { return g(p) }
}
