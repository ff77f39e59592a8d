// Package randiface draws through interfaces of its own, as lestrrat-go/backoff's jitter does
// through its Random: Random's methods are all draws of a *rand.Rand (and Seed), so its calls
// are sites; Clocked has a method that is no draw and Wide a Float64 of another signature, so
// theirs are not.
package randiface

import (
	"math/rand"
	"time"
)

// Random is what a *rand.Rand offers that Jitter needs: a test may pass a fake.
type Random interface {
	Float64() float64
	Intn(n int) int
	Seed(seed int64)
}

// Clocked draws and tells the time: an interface with a method that is no draw.
type Clocked interface {
	Float64() float64
	Now() time.Time
}

// Wide has the name of a draw with another signature.
type Wide interface {
	Float64(scale float64) float64
}

// Jitter spreads durations with a Random.
type Jitter struct {
	rng Random
}

// NewJitter returns a Jitter drawing from rng, or from a source seeded from the clock when
// rng is nil.
func NewJitter(rng Random) *Jitter {
	if rng == nil {
		rng = rand.New(rand.NewSource(time.Now().UnixNano()))
	}
	return &Jitter{rng: rng}
}

// Apply returns a value uniform in [d/2, 3d/2).
func (j *Jitter) Apply(d float64) float64 {
	return d/2 + j.rng.Float64()*d
}

// Pick returns an index uniform in [0, n).
func (j *Jitter) Pick(n int) int {
	return j.rng.Intn(n)
}

// Stamp reads a Clocked: no site.
func Stamp(c Clocked) float64 {
	return c.Float64() + float64(c.Now().Unix())
}

// Scaled reads a Wide: no site.
func Scaled(w Wide) float64 {
	return w.Float64(2)
}
