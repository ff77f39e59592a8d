package spread

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// A law is a declared distribution known exactly by its CDF on the values of the sample's
// type: Discrete's, and those that build on a declaration (Clamp, TowardZero) or list their
// values (OneOf). The checks read a value as a coordinate, a float64: an integer's offset from
// the law's base (exact while the law spans at most 2^53 values), a float itself. Each value
// stands for a stretch [P(X < c), P(X <= c)] of the probability scale, which a continuous
// uniform position U falls in: the checks that read positions read those stretches, and are
// exact or conservative whatever the atoms.
type law struct {
	integer bool
	signed  bool    // an integer law of a signed type
	base    uint64  // integer laws: the key of coordinate 0
	res     float64 // the resolution of a float law's positions, added to each stretch

	cdf  func(c float64) (below, atOrBelow float64) // P(X < c), P(X <= c)
	in   func(c float64) bool                       // whether X takes the value c
	atom func(c float64) bool                       // a value of large probability, left out of the distinct count (nil: none)

	lo, hi         float64 // the least and greatest value, as coordinates
	mean, variance float64 // of a coordinate; NaN where the law declares none
	// w: every value other than the atoms has probability at most 1/w, which sizes the
	// distinct check (0: no check).
	w    float64
	fine bool // positions fine enough for the order-statistic tails

	text func(c float64) string // prints a coordinate as a value
}

// coord returns the coordinate of a value of the sample's type, given its key.
func (l *law) coord(s *sample, key uint64) float64 {
	switch {
	case !l.integer:
		return s.keyValue(key)
	case key >= l.base:
		return float64(key - l.base)
	}
	return -float64(l.base - key)
}

// stretch returns the stretch of the probability scale a value stands for, widened by the
// resolution of a float law.
func (l *law) stretch(c float64) (lo, hi float64) {
	below, at := l.cdf(c)
	return clamp01(below - l.res), clamp01(at + l.res)
}

// Clamp declares the values of d clamped to [lo, hi]: min(max(x, lo), hi) for x drawn from d,
// as the jitter of a retry library with a cap (min(cap, jitter), 40% of draws on the cap in
// one of them) or a floor. d must be a Uniform or UniformClosed declaration, lo below hi; a lo
// or hi beyond d's range clamps nothing at that end. The clamped ends are atoms, values of
// large probability: distinct counts the repeats of the other values only, and every other
// check reads the clamped distribution exactly.
func (d Dist[T]) Clamp(lo, hi T) Dist[T] {
	u := d.d
	name := fmt.Sprintf("%s.Clamp(%v, %v)", u.name, lo, hi)
	switch {
	case u.err != nil:
		return d
	case !u.uniform || u.step.set:
		return Dist[T]{dist{kind: u.kind, name: name, err: fmt.Errorf("spread: %s: Clamp applies to a Uniform or UniformClosed declaration without a Step", name)}}
	}
	l, err := clampLaw(u, lo, hi)
	out := dist{kind: u.kind, name: name, law: l, err: err}
	if err != nil {
		out.err = fmt.Errorf("spread: %s: %w", name, err)
	}
	return Dist[T]{out}
}

// clampLaw builds the law of a clamped uniform.
func clampLaw[T Number](u dist, lo, hi T) (*law, error) {
	k := u.kind
	if k.integer {
		w := u.lastKey - u.loKey + 1 // the uniform's values, lo to last
		if u.lastKey-u.loKey >= 1<<53 {
			return nil, errors.New("a clamped range of more than 2^53 values is beyond exact coordinates")
		}
		a, b := intKey(lo, k.signed), intKey(hi, k.signed)
		if a >= b {
			return nil, errors.New("lo must be below hi")
		}
		a, b = max(a, u.loKey)-u.loKey, min(b, u.lastKey)-u.loKey // offsets, inside the range
		if a >= b {
			return nil, errors.New("the clamp leaves one value of the range")
		}
		return clampIntLaw(k, u.loKey, float64(a), float64(b), float64(w)), nil
	}
	a, b := math.Max(float64(lo), u.lo), math.Min(float64(hi), u.hi)
	if math.IsNaN(a) || math.IsNaN(b) || !(a < b) {
		return nil, errors.New("lo must be below hi, and the clamp must leave a stretch of the range")
	}
	return clampFloatLaw(k, u.lo, u.hi, a, b), nil
}

// clampIntLaw is the law of min(max(X, a), b), X uniform on the offsets 0..w-1 from base.
func clampIntLaw(k numKind, base uint64, a, b, w float64) *law {
	l := &law{integer: true, signed: k.signed, base: base, lo: a, hi: b, w: w, fine: w >= 1/tailsMaxResolution}
	l.cdf = func(c float64) (float64, float64) {
		at := func(c float64) float64 { // P(X <= c) on the integers
			switch {
			case c < a:
				return 0
			case c >= b:
				return 1
			}
			return (math.Floor(c) + 1) / w
		}
		return at(math.Ceil(c) - 1), at(c)
	}
	l.in = func(c float64) bool { return c >= a && c <= b && c == math.Trunc(c) }
	l.atom = func(c float64) bool { return c == a && a > 0 || c == b && b < w-1 }
	// Moments of the positions c/w: the atoms' masses (a+1)/w and (w-b)/w, and the values
	// between, each 1/w.
	m1 := (a*(a+1) + sumRange(a+1, b-1, 1) + b*(w-b)) / w
	m2 := (a*a*(a+1) + sumRange(a+1, b-1, 2) + b*b*(w-b)) / w
	l.mean, l.variance = m1, math.Max(0, m2-m1*m1)
	l.text = func(c float64) string { return k.formatApprox(keyFloat(base, k.signed) + c) }
	return l
}

// sumRange returns the sum of c^p over the integers c in [from, to] (p = 1 or 2).
func sumRange(from, to float64, p int) float64 {
	if to < from {
		return 0
	}
	s := func(n float64) float64 { // sum of c^p for c in 0..n
		if p == 1 {
			return n * (n + 1) / 2
		}
		return n * (n + 1) * (2*n + 1) / 6
	}
	return s(to) - s(from-1)
}

// clampFloatLaw is the law of min(max(X, a), b), X continuous uniform on [lo, hi).
func clampFloatLaw(k numKind, lo, hi, a, b float64) *law {
	w := hi - lo
	res := floatResolution(lo, hi, k.float32)
	l := &law{res: res, lo: a, hi: b, w: 1 / res, fine: res <= tailsMaxResolution}
	l.cdf = func(c float64) (float64, float64) {
		switch {
		case c < a:
			return 0, 0
		case c == a:
			return 0, (a - lo) / w
		case c < b:
			return (c - lo) / w, (c - lo) / w
		case c == b:
			return (b - lo) / w, 1
		}
		return 1, 1
	}
	l.in = func(c float64) bool { return c >= a && c <= b }
	l.atom = func(c float64) bool { return c == a && a > lo || c == b && b < hi }
	pa, pb := (a-lo)/w, (hi-b)/w // the atoms' masses
	m1 := pa*a + (b*b-a*a)/(2*w) + pb*b
	m2 := pa*a*a + (b*b*b-a*a*a)/(3*w) + pb*b*b
	l.mean, l.variance = m1, math.Max(0, m2-m1*m1)
	l.text = func(c float64) string { return k.formatApprox(c) }
	return l
}

// keyFloat returns the value of an integer key as a float64, for printing.
func keyFloat(key uint64, signed bool) float64 {
	if signed {
		return float64(int64(key ^ 1<<63))
	}
	return float64(key)
}

// Step declares the grid of a Uniform or UniformClosed sample: the values are lo, lo+s,
// lo+2s, ... up to hi, each equally likely, and a value off the grid fails the bounds check.
// The step has the sample's type, so that a step of another type (a time.Duration against a
// float sample) does not compile.
//
// For an integer sample the step is a whole number of its unit, for example
// Uniform(0, time.Second).Step(time.Millisecond) for durations rounded to milliseconds;
// without it every integer in [lo, hi) is a possible value. For a float sample it is the
// sample's resolution, for example Step(0.001) for seconds with millisecond precision or
// Step(0x1p-24) for rand.Float32, and the values count as on the grid within an eighth of a
// step; the checks then treat the sample as discrete, exactly. Without it a float sample is
// continuous, and the checks allow for the resolution of the common sources (see the package
// documentation).
func (d Dist[T]) Step(s T) Dist[T] {
	u := d.d
	st, err := newStep(s)
	switch {
	case u.err != nil:
		return d
	case err != nil:
		u.err = err
	case !u.uniform || u.law != nil || u.step.set:
		u.err = fmt.Errorf("spread: %s.Step(%s): Step applies once, to a Uniform or UniformClosed declaration", u.name, st.text)
	default:
		u.step = st
	}
	return Dist[T]{u}
}

// TowardZero declares the values of a continuous uniform over d's range converted to d's
// integer type, which truncates toward zero: time.Duration(f) for a float64 f drawn over
// [lo, hi), as in time.Duration((2*r.Float64() - 1) * float64(j)), a jitter of +-j. Over a range
// that crosses zero, 0 is twice as likely as any other value and lo all but never reached (a
// float source of 2^24 or more values reaches it one time in 2^24 at most, which the checks
// allow for); over a range of values >= 0 it is d itself (the conversion floors). d must be a
// Uniform declaration of an integer type whose bounds lie within 2^53 of zero, and neither
// [-1, 1) nor one value wide, where every draw but lo converts to one value.
func (d Dist[T]) TowardZero() Dist[T] {
	u := d.d
	name := u.name + ".TowardZero()"
	switch {
	case u.err != nil:
		return d
	case !u.uniform || u.closed || !u.kind.integer:
		return Dist[T]{dist{kind: u.kind, name: name, err: fmt.Errorf("spread: %s: TowardZero applies to a Uniform declaration of an integer type", name)}}
	case u.lo >= 0:
		return d // the conversion floors, as Uniform's values are
	case math.Abs(u.lo) > 1<<53 || math.Abs(u.hi) > 1<<53:
		return Dist[T]{dist{kind: u.kind, name: name, err: fmt.Errorf("spread: %s: bounds beyond 2^53 of zero are beyond exact coordinates", name)}}
	case u.hi-u.lo == 1 || u.lo == -1 && u.hi == 1: // every draw in (lo, hi) converts to one value
		return Dist[T]{dist{kind: u.kind, name: name, err: fmt.Errorf("spread: %s: every value converts to %v (lo itself one draw in 2^24 at most): nothing to check but bounds; declare a wider range", name, T(min(u.hi, 0)))}}
	}
	return Dist[T]{dist{kind: u.kind, name: name, law: towardZeroLaw(u.kind, u.lo, u.hi)}}
}

// towardZeroLaw is the law of trunc(U), U continuous uniform on [lo, hi), lo < 0, lo and hi
// integers: trunc(u) <= c holds for u < c+1 when c >= 0, and for u <= c when c < 0. Its
// coordinates are the values themselves.
func towardZeroLaw(k numKind, lo, hi float64) *law {
	w := hi - lo
	at := func(c float64) float64 { // P(X <= c) on the integers
		if c >= 0 {
			return clamp01((math.Min(hi, c+1) - lo) / w)
		}
		return clamp01((math.Min(hi, c) - lo) / w)
	}
	top, most := hi-1, 2/w // 0 takes (-1, 1), twice the stretch of any other value
	if hi <= 0 {
		top, most = hi, 1/w // u just below hi <= 0 truncates to hi; 0 takes (-1, 0) at most
	}
	// lo < 0: the type is signed, and the key of 0 is 2^63 (see intKey). The float converted
	// comes from a source of finitely many values, as rand.Float32's 2^24 or rand.Float64's
	// 2^53: each value's probability may differ from the continuous law's by the source's
	// resolution, 2^-24 at the coarsest, and lo itself comes with about that probability (a
	// draw of exactly 0). Each stretch is widened by it, and distinct sized for it.
	const res = 0x1p-24
	l := &law{integer: true, signed: true, base: 1 << 63, res: res, lo: lo, hi: top, w: 1 / (most + 2*res)}
	l.fine = l.w >= 1/tailsMaxResolution
	l.cdf = func(c float64) (float64, float64) { return at(math.Ceil(c) - 1), at(c) }
	l.in = func(c float64) bool { return c >= lo && c <= top && c == math.Trunc(c) }
	if hi <= 0 {
		// Each value of lo+1..hi has probability 1/w: a discrete uniform, whose moments come
		// in closed form. (Sums of squares of values far below zero cancel to nothing.)
		l.mean, l.variance = (lo+1+hi)/2, (w*w-1)/12
	} else {
		// The values other than 0 each have probability 1/w, over two runs: lo+1..-1 and
		// 1..top; 0 takes the rest, and adds nothing to the moments. The range holds 0, so
		// the mean is no larger than the spread and the raw moments do not cancel.
		m1 := (sumRange(lo+1, -1, 1) + sumRange(1, top, 1)) / w
		m2 := (sumRange(lo+1, -1, 2) + sumRange(1, top, 2)) / w
		l.mean, l.variance = m1, math.Max(0, m2-m1*m1)
	}
	l.text = func(c float64) string { return k.formatApprox(c) }
	return l
}

// OneOf declares a few values, each equally likely: the values of a formula over a handful of
// draws, such as base * (90 + r.IntN(21)) / 100, whose values lie on no exact grid. List a value
// twice to make it twice as likely. A value not listed fails bounds; distinct counts the repeats
// of n draws from len(values) equally likely values (a value missing from a large sample makes
// too many), and mean, coverage, fit and independence read the listed distribution exactly.
func OneOf[T Number](values ...T) Dist[T] {
	k := kindOf[T]()
	parts := make([]string, len(values))
	for i, v := range values {
		if k.integer {
			parts[i] = k.formatKey(intKey(v, k.signed))
		} else {
			parts[i] = formatFloat(float64(v), k.float32)
		}
	}
	name := "OneOf(" + strings.Join(parts, ", ") + ")"
	if len(parts) > 8 {
		name = fmt.Sprintf("OneOf(%s, ..., %s: %d values)", strings.Join(parts[:4], ", "), parts[len(parts)-1], len(parts))
	}
	l, err := oneOfLaw(k, values)
	out := dist{kind: k, name: name, law: l, err: err}
	if err != nil {
		out.err = fmt.Errorf("spread: %s: %w", name, err)
	}
	return Dist[T]{out}
}

// oneOfLaw builds the law of a value drawn from a list.
func oneOfLaw[T Number](k numKind, values []T) (*law, error) {
	if len(values) == 0 {
		return nil, errors.New("no values declared")
	}
	l := &law{integer: k.integer, signed: k.signed}
	coords := make([]float64, len(values))
	if k.integer {
		keys := make([]uint64, len(values))
		for i, v := range values {
			keys[i] = intKey(v, k.signed)
		}
		l.base = slices.Min(keys)
		if slices.Max(keys)-l.base >= 1<<53 {
			return nil, errors.New("values more than 2^53 apart are beyond exact coordinates")
		}
		for i, key := range keys {
			coords[i] = float64(key - l.base)
		}
	} else {
		for i, v := range values {
			if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("values[%d] = %v: the values must be finite numbers", i, f)
			} else {
				coords[i] = f
			}
		}
	}
	slices.Sort(coords)
	n := float64(len(coords))
	most, run := 1, 1
	var m1, m2 float64
	for i, c := range coords {
		if i > 0 && c == coords[i-1] {
			run++
		} else {
			run = 1
		}
		most = max(most, run)
		m1 += c / n
	}
	for _, c := range coords {
		m2 += (c - m1) * (c - m1) / n
	}
	if coords[0] == coords[len(coords)-1] {
		return nil, errors.New("one value only: nothing to check but bounds; declare two or more")
	}
	l.lo, l.hi, l.mean, l.variance = coords[0], coords[len(coords)-1], m1, m2
	l.w = n / float64(most)
	l.fine = l.w >= 1/tailsMaxResolution
	l.cdf = func(c float64) (float64, float64) {
		below, _ := slices.BinarySearch(coords, c)
		at := below
		for at < len(coords) && coords[at] == c {
			at++
		}
		return float64(below) / n, float64(at) / n
	}
	l.in = func(c float64) bool { _, found := slices.BinarySearch(coords, c); return found }
	base := l.base
	l.text = func(c float64) string {
		if k.integer {
			return k.formatApprox(keyFloat(base, k.signed) + c)
		}
		return k.formatApprox(c)
	}
	return l, nil
}

// discreteLaw is the law of a gonum distribution over the integers: the values are their own
// coordinates, the CDF below an integer c is the CDF at c-1.
func discreteLaw(d DiscreteDist, k numKind) *law {
	l := &law{lo: math.Inf(-1), hi: math.Inf(1), mean: math.NaN(), variance: math.NaN()}
	l.cdf = func(c float64) (float64, float64) { return d.CDF(math.Ceil(c) - 1), d.CDF(c) }
	l.in = func(c float64) bool { return d.Prob(c) > 0 }
	l.text = func(c float64) string { return k.formatApprox(c) }
	return l
}
