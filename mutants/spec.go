package mutants

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
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
	name string
	at   func(base time.Duration) (span, error) // nil in the zero Spec
	err  error
}

// Full returns the Spec of full jitter: a delay in [0, base), anchored at 0, as in
// rand.Float64() * base.
func Full() Spec {
	return Spec{name: "full [0, base)", at: func(b time.Duration) (span, error) {
		return newSpan(0, b, 0)
	}}
}

// Equal returns the Spec of equal jitter: a delay in [base/2, base), anchored at its floor
// base/2, as in base/2 + rand.Float64() * base/2.
func Equal() Spec {
	return Spec{name: "equal [base/2, base)", at: func(b time.Duration) (span, error) {
		return newSpan(b/2, b, b/2)
	}}
}

// Percent returns the Spec of a jitter of plus or minus p of the base, 0 < p <= 1: a delay
// in [base - d, base + d) with d = p * base rounded to the nanosecond (computed exactly),
// anchored at base. An invalid p gives a Spec whose Err says why; a base at which
// base + d passes the largest time.Duration is an error of Range.
func Percent(p float64) Spec {
	s := Spec{name: fmt.Sprintf("percent base*(1 +- %g)", p), at: func(b time.Duration) (span, error) {
		if b < 0 {
			return span{}, fmt.Errorf("mutants: a negative base %v", b)
		}
		d, ok := percentOf(p, b)
		if !ok || b > math.MaxInt64-d {
			return span{}, fmt.Errorf("mutants: Percent(%g) at base %v: base + %v passes the largest time.Duration, %v",
				p, b, d, time.Duration(math.MaxInt64))
		}
		return newSpan(b-d, b+d, b)
	}}
	if math.IsNaN(p) || p <= 0 || p > 1 {
		s.err = fmt.Errorf("mutants: Percent(%v): p must be in (0, 1]", p)
	}
	return s
}

// percentOf returns p * b rounded half up to the nanosecond, for 0 < p <= 1 and b >= 0,
// exactly: p is m * 2^e with a 53-bit integer m, so p * b is the 117-bit product m * b
// shifted right by -e >= 52. It reports false if the result passes the largest Duration.
func percentOf(p float64, b time.Duration) (time.Duration, bool) {
	frac, exp := math.Frexp(p)
	m := uint64(frac * (1 << 53))
	shift := uint(53 - exp) // >= 52 for p <= 1
	if shift >= 128 {
		return 0, true // below a quarter of a nanosecond for any base
	}
	hi, lo := bits.Mul64(m, uint64(b))
	// Add half of the last place kept, then drop the bits below it.
	var carry uint64
	if shift >= 65 {
		hi += 1 << (shift - 65)
	} else {
		lo, carry = bits.Add64(lo, 1<<(shift-1), 0)
		hi += carry
	}
	var q uint64
	if shift >= 64 {
		q = hi >> (shift - 64)
		if shift == 64 {
			q = hi
		}
	} else {
		q = hi<<(64-shift) | lo>>shift
		if hi>>shift != 0 {
			return 0, false
		}
	}
	if q > math.MaxInt64 {
		return 0, false
	}
	return time.Duration(q), true
}

// Custom returns the Spec of any other jitter: name describes it in reports; lo and hi give
// its half-open range and anchor its un-jittered point, each as a function of the base.
// Nil functions give a Spec whose Err says so; a base at which hi < lo is an error of Range,
// and so is a panic of lo, hi or anchor, whose error names the function, the base and the
// value it panicked with (wrapped, if an error).
func Custom(name string, lo, hi, anchor func(base time.Duration) time.Duration) Spec {
	s := Spec{name: name, at: func(b time.Duration) (sp span, err error) {
		var at [3]time.Duration
		for i, f := range [...]func(time.Duration) time.Duration{lo, hi, anchor} {
			if at[i], err = callCustom(name, customRoles[i], f, b); err != nil {
				return span{}, err
			}
		}
		return newSpan(at[0], at[1], at[2])
	}}
	if lo == nil || hi == nil || anchor == nil {
		s.err = fmt.Errorf("mutants: Custom(%q): lo, hi and anchor must all be non-nil", name)
	}
	return s
}

// customRoles names Custom's functions, in the order of its arguments.
var customRoles = [...]string{"lo", "hi", "anchor"}

// callCustom calls f, Custom's function role, at base, and turns its panic into an error that
// names it: a user's function that panics inside a mutant or a suite would otherwise surface
// as a panic of the harness, with nothing to say which of the three it was.
func callCustom(name, role string, f func(time.Duration) time.Duration, base time.Duration) (d time.Duration, err error) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(error); ok {
				err = fmt.Errorf("mutants: Custom(%q): %s(%v) panicked: %w", name, role, base, e)
			} else {
				err = fmt.Errorf("mutants: Custom(%q): %s(%v) panicked: %v", name, role, base, p)
			}
		}
	}()
	return f(base), nil
}

// newSpan checks a range: hi < lo (as at a negative base) is an error, and a range
// narrower than a nanosecond is the single value lo.
func newSpan(lo, hi, anchor time.Duration) (span, error) {
	switch {
	case hi < lo:
		return span{}, fmt.Errorf("mutants: the range [%v, %v) is inverted (a negative base?)", lo, hi)
	case hi == lo && lo == math.MaxInt64:
		return span{}, fmt.Errorf("mutants: the range [%v, %v) has no whole nanosecond below the largest time.Duration", lo, hi)
	case hi == lo:
		hi = lo + 1
	}
	return span{lo: lo, hi: hi, anchor: anchor}, nil
}

// check reports why the Spec is invalid, or nil if it is valid. The zero Spec is invalid.
func (s Spec) check() error {
	if s.err != nil {
		return s.err
	}
	if s.at == nil {
		return errors.New("mutants: zero Spec: use Full, Equal, Percent or Custom")
	}
	return nil
}

// String returns the Spec's name, such as "full [0, base)".
func (s Spec) String() string {
	if s.at == nil {
		return "zero Spec"
	}
	return s.name
}

// Range returns the half-open range [lo, hi) of a correct jitter at base. A range narrower
// than a nanosecond, such as +-1% of 20ns, is the single value lo: hi is then lo + 1ns. The
// error reports an invalid Spec (see Err), a negative base, or a range that does not fit in
// a time.Duration at this base.
func (s Spec) Range(base time.Duration) (lo, hi time.Duration, err error) {
	sp, err := s.span(base)
	return sp.lo, sp.hi, err
}

// anchor returns the un-jittered point of a correct jitter at base, with the errors of Range.
func (s Spec) anchor(base time.Duration) (time.Duration, error) {
	sp, err := s.span(base)
	return sp.anchor, err
}

func (s Spec) span(base time.Duration) (span, error) {
	if err := s.check(); err != nil {
		return span{}, err
	}
	return s.at(base)
}

// span is the range and anchor of a Spec at one base, the values every mutant is built from.
type span struct {
	lo, hi, anchor time.Duration
}

// mustSpan is the span at base for the mutants' Jitters, which have no error to return: a
// base at which the Spec has no range panics with the error (Run reports it as an error).
func (s Spec) mustSpan(base time.Duration) span {
	sp, err := s.span(base)
	if err != nil {
		panic(err)
	}
	return sp
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
