package mutants

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"time"
)

// A Mutant is a plausible wrong version of a jitter: a suite that tests the jitter well
// fails on it.
type Mutant struct {
	Name   string // the class name, with the clock for clock-derived mutants
	Class  Class
	Jitter Jitter // safe for concurrent use

	equivalent func(base time.Duration) bool
}

// EquivalentAt reports whether, at this base, the mutant returns the same distribution of
// values as a correct jitter, so that no suite can reject it there. This happens only when
// the range holds very few nanoseconds: full jitter at base 1ns is always 0, and every
// mutant of it is too.
func (m Mutant) EquivalentAt(base time.Duration) bool { return m.equivalent(base) }

// An Option changes the mutants that Of builds or how Verify runs a suite.
type Option func(*config)

type config struct {
	extended     bool
	factor       float64
	seed         uint64
	coarse, fine Clock
	reference    time.Duration
	timeout      time.Duration
	err          error
}

// DefaultSeed seeds the healthy random numbers inside the mutants unless Seed says
// otherwise, so that Of and Verify give the same mutants on every run.
const DefaultSeed = 0x5eed_1e55_ca75_0003

func newConfig(opts []Option) (*config, error) {
	c := &config{
		factor:    0.5,
		seed:      DefaultSeed,
		reference: 100 * time.Millisecond,
		timeout:   time.Minute,
	}
	for _, o := range opts {
		o(c)
	}
	return c, c.err
}

func (c *config) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("mutants: "+format, args...)
	}
}

// Extended adds the extended classes (Overshoot, Quantized, IgnoresBase, Truncated) to the
// four.
func Extended() Option { return func(c *config) { c.extended = true } }

// Collapse sets the factor, in (0, 1), by which the collapsed-range mutant shrinks the range
// towards the anchor: 0.1 turns a jitter of +-25% into one of +-2.5%. The default is 0.5.
func Collapse(factor float64) Option {
	return func(c *config) {
		if math.IsNaN(factor) || factor <= 0 || factor >= 1 {
			c.fail("Collapse(%v): the factor must be in (0, 1)", factor)
		}
		c.factor = factor
	}
}

// Seed sets the seed of the healthy random numbers inside the sign-flip, collapsed-range and
// extended mutants. The default is DefaultSeed.
func Seed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// CoarseClock sets the clock of the "clock-derived/coarse" mutant. The default is frozen at
// one instant, like the story's production clock on which every call saw the same value.
func CoarseClock(clk Clock) Option {
	return func(c *config) {
		if clk == nil {
			c.fail("CoarseClock(nil)")
		}
		c.coarse = clk
	}
}

// FineClock sets the clock of the "clock-derived/fine" mutant. The default advances by
// 211.324865ms per reading, so that the mutant's values step round the whole range.
func FineClock(clk Clock) Option {
	return func(c *config) {
		if clk == nil {
			c.fail("FineClock(nil)")
		}
		c.fine = clk
	}
}

// Reference sets the fixed base whose spread the ignores-base mutant returns whatever base
// it is given. The default is 100ms; a suite that only uses the reference cannot reject it.
func Reference(base time.Duration) Option {
	return func(c *config) {
		if base <= 0 {
			c.fail("Reference(%v): the base must be positive", base)
		}
		c.reference = base
	}
}

// Of returns the mutants of spec: one of each of the four classes, two of ClockDerived
// ("clock-derived/coarse" and "clock-derived/fine"), and the extended classes with
// Extended(). The mutants are deterministic: their healthy random numbers come from Seed and
// their clocks from CoarseClock and FineClock. Each call returns fresh mutants, starting
// their sequences anew.
func Of(spec Spec, opts ...Option) ([]Mutant, error) {
	if err := spec.Err(); err != nil {
		return nil, err
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	coarse, fine := c.coarse, c.fine
	if coarse == nil {
		coarse = &steppingClock{now: clockEpoch}
	}
	if fine == nil {
		fine = &steppingClock{now: clockEpoch, step: fineStep}
	}
	b := builder{spec: spec, cfg: c}
	ms := []Mutant{
		b.constant(),
		b.signFlip(),
		b.clock("clock-derived/coarse", coarse),
		b.clock("clock-derived/fine", fine),
		b.collapsed(),
	}
	if c.extended {
		ms = append(ms, b.overshoot(), b.quantized(), b.ignoresBase(), b.truncated())
	}
	return ms, nil
}

// builder makes the mutants of one Spec under one configuration.
type builder struct {
	spec Spec
	cfg  *config
	n    uint64 // mutants built so far: each random one gets its own stream
}

// uniform returns a goroutine-safe source of healthy uniform numbers in [0, 1), seeded so
// that each mutant's stream does not depend on the calls made to the others.
func (b *builder) uniform() func() float64 {
	b.n++
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(b.cfg.seed, b.n))
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return r.Float64()
	}
}

// narrow reports whether the range at base holds at most one nanosecond, where a correct
// jitter is a constant and most mutants are that same constant.
func (b *builder) narrow(base time.Duration) bool { return b.spec.at(base).width() <= 1 }

func (b *builder) constant() Mutant {
	return Mutant{Name: Constant.Name, Class: Constant,
		Jitter:     func(base time.Duration) time.Duration { return b.spec.at(base).pick(0.5) },
		equivalent: b.narrow,
	}
}

func (b *builder) signFlip() Mutant {
	u := b.uniform()
	return Mutant{Name: SignFlip.Name, Class: SignFlip,
		Jitter: func(base time.Duration) time.Duration {
			sp := b.spec.at(base)
			x := sp.pick(u())
			if x > sp.anchor {
				return sp.anchor - (x - sp.anchor)
			}
			return x // already on the anchor's lower side: the flip leaves it alone
		},
		// Identical when no value lies above the anchor.
		equivalent: func(base time.Duration) bool {
			sp := b.spec.at(base)
			return sp.width() <= 1 || sp.hi-1 <= sp.anchor
		},
	}
}

func (b *builder) clock(name string, clk Clock) Mutant {
	return Mutant{Name: name, Class: ClockDerived,
		Jitter: func(base time.Duration) time.Duration {
			return b.spec.at(base).pick(fractionOfSecond(clk.Now()))
		},
		equivalent: b.narrow,
	}
}

// collapsedSpan returns the range shrunk towards the anchor by the factor, at least one
// nanosecond wide.
func (b *builder) collapsedSpan(base time.Duration) span {
	sp := b.spec.at(base)
	f := b.cfg.factor
	shrink := func(x time.Duration) time.Duration {
		return sp.anchor + time.Duration(math.Round(float64(x-sp.anchor)*f))
	}
	c := span{lo: shrink(sp.lo), hi: shrink(sp.hi), anchor: sp.anchor}
	if c.hi <= c.lo {
		c.hi = c.lo + 1
	}
	return c
}

func (b *builder) collapsed() Mutant {
	u := b.uniform()
	return Mutant{Name: CollapsedRange.Name, Class: CollapsedRange,
		Jitter: func(base time.Duration) time.Duration { return b.collapsedSpan(base).pick(u()) },
		equivalent: func(base time.Duration) bool {
			sp, c := b.spec.at(base), b.collapsedSpan(base)
			return sp.width() <= 1 || sp.lo == c.lo && sp.hi == c.hi
		},
	}
}

// overshootBy returns how far past the ceiling the overshoot mutant reaches at base.
func (b *builder) overshootBy(base time.Duration) time.Duration {
	return time.Duration(math.Round(float64(b.spec.at(base).width()) / 4))
}

func (b *builder) overshoot() Mutant {
	u := b.uniform()
	return Mutant{Name: Overshoot.Name, Class: Overshoot,
		Jitter: func(base time.Duration) time.Duration {
			sp := b.spec.at(base)
			sp.hi += b.overshootBy(base)
			return sp.pick(u())
		},
		equivalent: func(base time.Duration) bool { return b.overshootBy(base) == 0 },
	}
}

// quantum returns the quantized mutant's step at base: a tenth of the range.
func (b *builder) quantum(base time.Duration) time.Duration {
	return b.spec.at(base).width() / 10
}

func (b *builder) quantized() Mutant {
	u := b.uniform()
	return Mutant{Name: Quantized.Name, Class: Quantized,
		Jitter: func(base time.Duration) time.Duration {
			sp := b.spec.at(base)
			x, q := sp.pick(u()), b.quantum(base)
			if q <= 1 {
				return x
			}
			return sp.lo + (x-sp.lo)/q*q
		},
		equivalent: func(base time.Duration) bool { return b.quantum(base) <= 1 },
	}
}

func (b *builder) ignoresBase() Mutant {
	u := b.uniform()
	ref := b.cfg.reference
	return Mutant{Name: IgnoresBase.Name, Class: IgnoresBase,
		Jitter: func(base time.Duration) time.Duration {
			r := b.spec.at(ref)
			return b.spec.Anchor(base) + r.pick(u()) - r.anchor
		},
		equivalent: func(base time.Duration) bool {
			r, sp := b.spec.at(ref), b.spec.at(base)
			return r.lo-r.anchor == sp.lo-sp.anchor && r.hi-r.anchor == sp.hi-sp.anchor
		},
	}
}

func (b *builder) truncated() Mutant {
	return Mutant{Name: Truncated.Name, Class: Truncated,
		Jitter: func(base time.Duration) time.Duration { return b.spec.Anchor(base) },
		equivalent: func(base time.Duration) bool {
			sp := b.spec.at(base)
			return sp.width() <= 1 && sp.anchor == sp.lo
		},
	}
}
