package mutants

import (
	"fmt"
	"github.com/spreadcheck/spreadcheck/spread"
	"math"
	"math/rand/v2"
	"sync"
	"time"
)

// A Mutant is a plausible wrong version of a jitter: a suite that tests the jitter well
// fails on it.
type Mutant struct {
	Name  string // the class name, with the clock for clock-derived mutants
	Class spread.Suspect
	// Jitter is safe for concurrent use. At a base where the Spec has no range (see
	// Spec.Range) it panics with the Range error, having no other way to say so; Run and
	// Verify report that as an error.
	Jitter Jitter

	equivalent func(base time.Duration) bool
}

// EquivalentAt reports whether, at this base, the mutant returns the same distribution of
// values as a correct jitter, so that no suite can reject it there. For Full, Equal and
// Percent and the four classes, this happens only when the range holds one or two
// nanoseconds: full jitter at base 1ns is always 0, and so is every mutant of it. Quantized
// is equivalent while its step, a tenth of the range, is under 2ns; ignores-base at the
// reference base. It is false at a base where the Spec has no range. (A Custom spec whose
// anchor is its ceiling has no sign-flip mutant at all: every value already lies below the
// anchor.)
func (m Mutant) EquivalentAt(base time.Duration) bool {
	return m.equivalent != nil && m.equivalent(base)
}

// An Option changes the mutants that Of builds or how Verify runs a suite.
type Option func(*config)

type config struct {
	extended     bool
	factor       float64
	seed         uint64
	coarse, fine func() time.Time
	reference    time.Duration
	timeout      time.Duration
	err          error
}

// defaultSeed seeds the healthy random numbers inside the mutants unless withSeed says
// otherwise, so that Of and Verify give the same mutants on every run.
const defaultSeed = 0x5eed_1e55_ca75_0003

func newConfig(opts []Option) (*config, error) {
	c := &config{
		factor:    0.5,
		seed:      defaultSeed,
		reference: 100 * time.Millisecond,
		timeout:   time.Minute,
	}
	for i, o := range opts {
		if o == nil {
			c.fail("option %d of %d is nil", i+1, len(opts))
			continue
		}
		o(c)
	}
	return c, c.err
}

func (c *config) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("mutants: "+format, args...)
	}
}

// Extended adds the extended classes (spread.SuspectOvershoot, SuspectQuantized,
// SuspectIgnoresBase, SuspectTruncated) to the four.
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

// withSeed sets the seed of the healthy random numbers inside the sign-flip, collapsed-range
// and extended mutants (the package's tests vary it). The default is defaultSeed.
func withSeed(s uint64) Option { return func(c *config) { c.seed = s } }

// coarseClock sets the clock of the "clock-derived/coarse" mutant. The default is frozen at
// one instant, like the story's production clock on which every call saw the same value.
func coarseClock(clk func() time.Time) Option {
	return func(c *config) {
		if clk == nil {
			c.fail("coarseClock(nil)")
		}
		c.coarse = clk
	}
}

// fineClock sets the clock of the "clock-derived/fine" mutant. The default advances by
// 211.324865ms per reading, so that the mutant's values step round the whole range.
func fineClock(clk func() time.Time) Option {
	return func(c *config) {
		if clk == nil {
			c.fail("fineClock(nil)")
		}
		c.fine = clk
	}
}

// reference sets the fixed base whose spread the ignores-base mutant returns whatever base
// it is given. The default is 100ms; a suite that only uses the reference cannot reject it.
func reference(base time.Duration) Option {
	return func(c *config) {
		if base <= 0 {
			c.fail("reference(%v): the base must be positive", base)
		}
		c.reference = base
	}
}

// Of returns the mutants of spec: one of each of the four classes, two of clock-derived
// ("clock-derived/coarse" and "clock-derived/fine"), and the extended classes with
// Extended(). The mutants are deterministic: their healthy random numbers come from Seed and
// their clocks step by a fixed amount per reading. Each call returns fresh mutants, starting
// their sequences anew.
func Of(spec Spec, opts ...Option) ([]Mutant, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	coarse, fine := c.coarse, c.fine
	if coarse == nil {
		coarse = (&steppingClock{now: clockEpoch}).Now
	}
	if fine == nil {
		fine = (&steppingClock{now: clockEpoch, step: fineStep}).Now
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
		if _, err := spec.span(c.reference); err != nil {
			return nil, fmt.Errorf("mutants: the reference base of ignores-base: %w", err)
		}
		ms = append(ms, b.overshoot(), b.quantized(), b.ignoresBase(), b.truncated())
	}
	for i, m := range ms {
		ms[i].equivalent = func(base time.Duration) bool {
			_, err := spec.span(base)
			return err == nil && m.equivalent(base)
		}
	}
	return ms, nil
}

// builder makes the mutants of one Spec under one configuration.
type builder struct {
	spec Spec
	cfg  *config
	n    uint64 // mutants built so far: each random one gets its own stream
}

// A shape is a mutant that draws healthy random values: a uniform value x from the span at
// base, then moved by move (nil for no move). Writing the random mutants this way lets their
// tests enumerate a mutant's exact distribution at small bases.
type shape struct {
	span func(base time.Duration) span
	move func(base, x time.Duration) time.Duration
}

// random returns the Jitter of a shape, drawing from its own seeded stream.
func (b *builder) random(s shape) Jitter {
	b.n++
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(b.cfg.seed, b.n))
	return func(base time.Duration) time.Duration {
		mu.Lock()
		u := r.Float64()
		mu.Unlock()
		x := s.span(base).pick(u)
		if s.move == nil {
			return x
		}
		return s.move(base, x)
	}
}

// narrow reports whether the range at base holds a single nanosecond, where a correct jitter
// is a constant and the constant and clock-derived mutants are that same constant.
func (b *builder) narrow(base time.Duration) bool { return b.spec.mustSpan(base).width() <= 1 }

func (b *builder) constant() Mutant {
	return Mutant{Name: string(spread.SuspectConstant), Class: spread.SuspectConstant,
		Jitter:     func(base time.Duration) time.Duration { return b.spec.mustSpan(base).pick(0.5) },
		equivalent: b.narrow,
	}
}

func (b *builder) signFlipShape() shape {
	return shape{span: b.spec.mustSpan, move: func(base, x time.Duration) time.Duration {
		a := b.spec.mustSpan(base).anchor
		if x > a {
			return a - (x - a)
		}
		return x // already on the anchor's lower side: the flip leaves it alone
	}}
}

func (b *builder) signFlip() Mutant {
	return Mutant{Name: string(spread.SuspectSignFlip), Class: spread.SuspectSignFlip, Jitter: b.random(b.signFlipShape()),
		// Identical when no value lies above the anchor.
		equivalent: func(base time.Duration) bool {
			sp := b.spec.mustSpan(base)
			return sp.hi-1 <= sp.anchor
		},
	}
}

func (b *builder) clock(name string, clk func() time.Time) Mutant {
	return Mutant{Name: name, Class: spread.SuspectClockDerived,
		Jitter: func(base time.Duration) time.Duration {
			return b.spec.mustSpan(base).pick(fractionOfSecond(clk()))
		},
		equivalent: b.narrow,
	}
}

// collapsedSpan returns the range shrunk towards the anchor by the factor, at least one
// nanosecond wide.
func (b *builder) collapsedSpan(base time.Duration) span {
	sp := b.spec.mustSpan(base)
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
	return Mutant{Name: string(spread.SuspectCollapsedRange), Class: spread.SuspectCollapsedRange,
		Jitter: b.random(shape{span: b.collapsedSpan}),
		equivalent: func(base time.Duration) bool {
			sp, c := b.spec.mustSpan(base), b.collapsedSpan(base)
			return sp.lo == c.lo && sp.hi == c.hi
		},
	}
}

// overshootSpan returns the range run on past its ceiling by a quarter of its width.
func (b *builder) overshootSpan(base time.Duration) span {
	sp := b.spec.mustSpan(base)
	sp.hi += time.Duration(math.Round(float64(sp.width()) / 4))
	return sp
}

func (b *builder) overshoot() Mutant {
	return Mutant{Name: string(spread.SuspectOvershoot), Class: spread.SuspectOvershoot,
		Jitter: b.random(shape{span: b.overshootSpan}),
		equivalent: func(base time.Duration) bool {
			return b.overshootSpan(base).hi == b.spec.mustSpan(base).hi
		},
	}
}

// quantum returns the quantized mutant's step at base: a tenth of the range.
func (b *builder) quantum(base time.Duration) time.Duration {
	return b.spec.mustSpan(base).width() / 10
}

func (b *builder) quantizedShape() shape {
	return shape{span: b.spec.mustSpan, move: func(base, x time.Duration) time.Duration {
		lo := b.spec.mustSpan(base).lo
		q := max(b.quantum(base), 1)
		return lo + (x-lo)/q*q
	}}
}

func (b *builder) quantized() Mutant {
	return Mutant{Name: string(spread.SuspectQuantized), Class: spread.SuspectQuantized, Jitter: b.random(b.quantizedShape()),
		equivalent: func(base time.Duration) bool { return b.quantum(base) <= 1 },
	}
}

func (b *builder) ignoresBaseShape() shape {
	ref := b.cfg.reference
	return shape{
		span: func(time.Duration) span { return b.spec.mustSpan(ref) },
		move: func(base, x time.Duration) time.Duration {
			return b.spec.mustSpan(base).anchor + x - b.spec.mustSpan(ref).anchor
		},
	}
}

func (b *builder) ignoresBase() Mutant {
	ref := b.cfg.reference
	return Mutant{Name: string(spread.SuspectIgnoresBase), Class: spread.SuspectIgnoresBase, Jitter: b.random(b.ignoresBaseShape()),
		equivalent: func(base time.Duration) bool {
			r, sp := b.spec.mustSpan(ref), b.spec.mustSpan(base)
			return r.lo-r.anchor == sp.lo-sp.anchor && r.hi-r.anchor == sp.hi-sp.anchor
		},
	}
}

func (b *builder) truncated() Mutant {
	return Mutant{Name: string(spread.SuspectTruncated), Class: spread.SuspectTruncated,
		Jitter: func(base time.Duration) time.Duration { return b.spec.mustSpan(base).anchor },
		equivalent: func(base time.Duration) bool {
			sp := b.spec.mustSpan(base)
			return sp.width() <= 1 && sp.anchor == sp.lo
		},
	}
}
