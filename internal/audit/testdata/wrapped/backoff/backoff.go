// Package backoff draws through the module's randutil: a field whose default is a wrapper,
// a wrapper called directly, and a function of randutil that is no wrapper; and through a
// variable whose default is a wrapper of its own package, whose draw is the site.
package backoff

import (
	"math/rand"
	"time"

	"example.com/wrapped/randutil"
)

// Backoff is full jitter over Base.
type Backoff struct {
	Base time.Duration
	rand func() float64
}

// New returns a Backoff that draws from randutil.
func New(base time.Duration) *Backoff {
	return &Backoff{Base: base, rand: randutil.Jitter}
}

// Next is a delay in [0, Base).
func (b *Backoff) Next() time.Duration {
	return time.Duration(b.rand() * float64(b.Base))
}

// Spread is a delay in [0, d).
func Spread(d time.Duration) time.Duration {
	return time.Duration(randutil.Int63n(int64(d)))
}

// Double is in [0, 2).
func Double() float64 {
	return randutil.Scaled()
}

func coin() float64 {
	return rand.Float64()
}

var flip = coin

// Heads is a fair coin.
func Heads() bool {
	return flip() < 0.5
}
