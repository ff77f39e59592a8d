// Package jitterapi hides its jitter behind func values and an interface, as real retry
// libraries do.
package jitterapi

import (
	"math/rand/v2"
	"time"
)

// jitterRand is the source of Jitter's fractions, a variable so that tests can replace it.
var jitterRand = rand.Float64

// Jitter returns d plus up to f*d.
func Jitter(d time.Duration, f float64) time.Duration { // want Jitter:"random\\(rand.Float64, Uniform\\[1\\*\\$0, 1\\*\\$0\\+1\\*\\$0\\*\\$1\\)\\)"
	return d + time.Duration(jitterRand()*f*float64(d))
}

// A Backoff says how long to wait before an attempt.
type Backoff interface {
	Next(attempt int) time.Duration
}

type jittered struct{ base time.Duration }

func (j jittered) Next(attempt int) time.Duration { // want Next:"random\\(rand.N\\)"
	return rand.N(j.base << attempt)
}

// New is the full-jitter backoff.
func New(base time.Duration) Backoff { return jittered{base} } // want New:"constructs\\(Next random\\)"

// JitterFunc returns a func that adds up to frac of its argument.
func JitterFunc(frac float64) func(time.Duration) time.Duration { // want JitterFunc:"random\\(rand.Float64\\)"
	return func(d time.Duration) time.Duration {
		return d + time.Duration(rand.Float64()*frac*float64(d))
	}
}

// A Policy waits Base, jittered by the option that set its jitter.
type Policy struct {
	Base   time.Duration
	jitter func(time.Duration) time.Duration
}

// An Option configures a Policy.
type Option func(*Policy)

// WithJitter makes the policy wait between half its base and its base.
func WithJitter() Option { // want WithJitter:"random\\(rand.N\\)"
	return func(p *Policy) {
		p.jitter = func(d time.Duration) time.Duration { return d/2 + rand.N(d/2) }
	}
}

// NewPolicy applies the options.
func NewPolicy(base time.Duration, opts ...Option) *Policy {
	p := &Policy{Base: base}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Delay is the policy's wait.
func (p *Policy) Delay() time.Duration { // want Delay:"random\\(calls jitter\\)"
	if p.jitter == nil {
		return p.Base
	}
	return p.jitter(p.Base)
}

// A Sampler draws through its Rand field, which defaults to rand.Float64.
type Sampler struct{ Rand func() float64 }

// NewSampler is a sampler of the global source.
func NewSampler() *Sampler { return &Sampler{Rand: rand.Float64} }

// Sample is a wait in [0, d).
func (s *Sampler) Sample(d time.Duration) time.Duration { // want Sample:"random\\(rand.Float64, Uniform\\[0, 1\\*\\$0\\)\\)"
	return time.Duration(s.Rand() * float64(d))
}

// Not random: a func field that only ever holds a fixed function, and an interface whose
// implementation does not draw.

type Fixed struct{ wait func() time.Duration }

func NewFixed() *Fixed { return &Fixed{wait: func() time.Duration { return time.Second }} }

func (f *Fixed) Wait() time.Duration { return f.wait() }

type Clock interface{ Since(time.Time) time.Duration }

type real struct{}

func (real) Since(t time.Time) time.Duration { return time.Since(t) }

func NewClock() Clock { return real{} }

// A Stepper says the next wait and whether to stop.
type Stepper interface{ Next() (time.Duration, bool) }

// StepFunc is a Stepper.
type StepFunc func() (time.Duration, bool)

func (f StepFunc) Next() (time.Duration, bool) { return f() } // want Next:"sampler"

// WithSpread wraps next with up to j either way, in a func behind the StepFunc's method.
func WithSpread(j time.Duration, next Stepper) Stepper { // want WithSpread:"random\\(rand.N\\)"
	return StepFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		return d - j + rand.N(2*j), stop
	})
}

// A Digest is an io.Writer that draws (a salted hash): a call of io.Writer's Write elsewhere
// is not a call of it.
type Digest struct{ salt int } // want salt:"stored\\(Digest.salt\\)"

func (d *Digest) Write(p []byte) (int, error) { // want Write:"random\\(rand.IntN\\)"
	d.salt += rand.IntN(10)
	return len(p), nil
}

// A Random is what a Spreader draws from: a *rand.Rand, or a test's fake.
type Random interface{ Float64() float64 }

// A Spreader jitters by up to a tenth either way, from its injected source.
type Spreader struct{ rng Random }

func NewSpreader(rng Random) *Spreader { return &Spreader{rng: rng} }

func (s *Spreader) Apply(d time.Duration) time.Duration { // want Apply:"random\\(rand.Float64, Uniform\\[0.9\\*\\$0, 1.1\\*\\$0\\)\\)"
	return d*9/10 + time.Duration(s.rng.Float64()*float64(d)/5)
}
