// Package deadseam takes a random source and ignores it.
package deadseam

import (
	"math/rand/v2"
	"time"
)

type options struct {
	rng  *rand.Rand // want `dead seam: field rng holds an injectable random source that nothing reads, while rand.Float64 \(line 30\) draws from the global source`
	base time.Duration
}

type Option func(*options)

// WithRand is meant to make the jitter replayable.
func WithRand(r *rand.Rand) Option { return func(o *options) { o.rng = r } }

type Backoff struct{ opts options }

func New(opts ...Option) *Backoff {
	b := &Backoff{opts: options{base: time.Second}}
	for _, o := range opts {
		o(&b.opts)
	}
	return b
}

func (b *Backoff) Next() time.Duration { // want Next:"random\\(rand.Float64\\)"
	return time.Duration(rand.Float64() * float64(b.opts.base))
}

// Jitter takes a source and draws from the global one.
func Jitter(r *rand.Rand, d time.Duration) time.Duration { // want `dead seam: parameter r holds an injectable random source` Jitter:"random\\(rand.N, Uniform\\[0, 1\\*\\$1\\)\\)"
	return rand.N(d)
}

// Not flagged: a source that is read.
type Reader struct {
	Src rand.Source
}

func (r Reader) Draw() uint64 { return r.Src.Uint64() } // want Draw:"random\\(rand.Uint64\\)"

// Not flagged: an unread *rand.Rand beside a source that is read (a leftover, not a dead
// seam), as in gonum's distmv.Normal.
type Normal struct {
	src rand.Source
	rnd *rand.Rand
}

func NewNormal(src rand.Source) *Normal { return &Normal{src: src, rnd: rand.New(src)} }

func (n *Normal) Draw() float64 { // want Draw:"random\\(rand.NormFloat64\\)"
	if n.src == nil {
		return rand.NormFloat64()
	}
	return rand.New(n.src).NormFloat64()
}
