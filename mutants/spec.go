package mutants

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Jitter returns a jittered delay for a base delay. It is the shape of the code under test
// and of every mutant.
type Jitter func(base time.Duration) time.Duration

// A Spec describes a correct jitter: the half-open range [lo, hi) of the delays it returns
// for a base delay, and its anchor, the un-jittered point that the random offset is measured
// from. The mutants of a Spec are defined against the range and the anchor, so the same
// classes apply to full, equal and percent jitter alike.
//
// A correct jitter returns every whole nanosecond in [lo, hi) with the same probability.
type Spec struct {
	name           string
	lo, hi, anchor func(base time.Duration) time.Duration
	err            error
}

// Full returns the Spec of full jitter: a delay in [0, base), anchored at 0, as in
// rand.Float64() * base.
func Full() Spec {
	return Spec{
		name:   "full [0, base)",
		lo:     func(time.Duration) time.Duration { return 0 },
		hi:     func(b time.Duration) time.Duration { return b },
		anchor: func(time.Duration) time.Duration { return 0 },
	}
}

// Equal returns the Spec of equal jitter: a delay in [base/2, base), anchored at its floor
// base/2, as in base/2 + rand.Float64() * base/2.
func Equal() Spec {
	return Spec{
		name:   "equal [base/2, base)",
		lo:     func(b time.Duration) time.Duration { return b / 2 },
		hi:     func(b time.Duration) time.Duration { return b },
		anchor: func(b time.Duration) time.Duration { return b / 2 },
	}
}

// Percent returns the Spec of a jitter of plus or minus p of the base, 0 < p <= 1: a delay
// in [base - d, base + d) with d = p * base rounded to the nanosecond, anchored at base.
// An invalid p gives a Spec whose Err says why.
func Percent(p float64) Spec {
	s := Spec{
		name: fmt.Sprintf("percent base*(1 +- %g)", p),
		lo:   func(b time.Duration) time.Duration { return b - percentOf(p, b) },
		hi:   func(b time.Duration) time.Duration { return b + percentOf(p, b) },
		anchor: func(b time.Duration) time.Duration {
			return b
		},
	}
	if math.IsNaN(p) || p <= 0 || p > 1 {
		s.err = fmt.Errorf("mutants: Percent(%v): p must be in (0, 1]", p)
	}
	return s
}

// percentOf returns p * b rounded to the nearest nanosecond.
func percentOf(p float64, b time.Duration) time.Duration {
	return time.Duration(math.Round(p * float64(b)))
}

// Custom returns the Spec of any other jitter: name describes it in reports; lo and hi give
// its half-open range and anchor its un-jittered point, each as a function of the base.
// Nil functions give a Spec whose Err says so.
func Custom(name string, lo, hi, anchor func(base time.Duration) time.Duration) Spec {
	s := Spec{name: name, lo: lo, hi: hi, anchor: anchor}
	if lo == nil || hi == nil || anchor == nil {
		s.err = fmt.Errorf("mutants: Custom(%q): lo, hi and anchor must all be non-nil", name)
	}
	return s
}

// Err reports why the Spec is invalid, or nil if it is valid. The zero Spec is invalid.
func (s Spec) Err() error {
	if s.err != nil {
		return s.err
	}
	if s.lo == nil {
		return errors.New("mutants: zero Spec: use Full, Equal, Percent or Custom")
	}
	return nil
}

// String returns the Spec's name, such as "full [0, base)".
func (s Spec) String() string { return s.name }

// Range returns the half-open range [lo, hi) of a correct jitter at base. A range narrower
// than a nanosecond, such as +-1% of 20ns, is the single value lo: hi is then lo + 1ns.
func (s Spec) Range(base time.Duration) (lo, hi time.Duration) {
	lo, hi = s.lo(base), s.hi(base)
	return lo, max(hi, lo+1)
}

// Anchor returns the un-jittered point of a correct jitter at base.
func (s Spec) Anchor(base time.Duration) time.Duration { return s.anchor(base) }

// span is the range and anchor of a Spec at one base, the values every mutant is built from.
type span struct {
	lo, hi, anchor time.Duration
}

func (s Spec) at(base time.Duration) span {
	lo, hi := s.Range(base)
	return span{lo: lo, hi: hi, anchor: s.Anchor(base)}
}

// width returns the number of whole nanoseconds in the range.
func (sp span) width() time.Duration { return sp.hi - sp.lo }

// pick returns the value at fraction u in [0, 1) of the range: a uniform u gives a correct
// jitter.
func (sp span) pick(u float64) time.Duration {
	w := sp.width()
	if w <= 1 {
		return sp.lo
	}
	return sp.lo + min(time.Duration(u*float64(w)), w-1)
}
