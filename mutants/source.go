package mutants

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Broken random sources, for code that takes a *rand.Rand rather than a Jitter: of
// math/rand/v2, and of math/rand (v1), from one value (see Source).
//
// A *rand.Rand reads its source's Uint64 in different places: Float64 keeps the low 53
// bits, Float32 bits 32 to 55, Int64 and Int the low 63, ExpFloat64 and NormFloat64 a
// ziggurat layer and an offset in the low 40 bits, and IntN, Int64N, UintN, Uint64N and the
// rest the high bits, as the fraction x/2^64 scaled by n. No one Uint64 value puts the
// same fraction in all those places (a scaled Uint64 collapses IntN but leaves Float64
// uniform), so the sources look at which method of *rand.Rand is reading, by its place in
// the stack (see reader.go), and put their fraction where that method reads it.
//
// A broken number must also never make a method loop: IntN and its kin redraw a value that
// would bias them, and the ziggurats of ExpFloat64 and NormFloat64 redraw outside their
// fast path. A constant that is redrawn is redrawn forever. So the sources answer a redraw
// with a value that the method always accepts (see Uint64 and redraw1), and give the
// ziggurats a value on their fast path. Math/rand (v1) is served the same way by Int63
// (see reader1.go).

// A Source is a broken random source for both generations of Go's *rand.Rand: pass it to
// math/rand/v2's rand.New (it is a rand.Source) or to math/rand's rand.New (it is a
// rand.Source64). Every method of either *rand.Rand then sees its broken number, Float64
// as much as IntN, and returns after at most two reads of the source, whatever its
// argument. Like the sources of package rand, a Source must not be read by two goroutines
// at once (doing so is race-free, but may misplace a redraw).
//
// The zero Source, new(Source), is constant: every method of a *rand.Rand over it returns
// the middle of its range on every call: Float64 0.5, IntN(n) n/2, ExpFloat64 ln 2 (the
// median), NormFloat64 0; through math/rand, Int63n(n), Int31n(n) and Intn(n) n/2 too.
type Source struct {
	fraction func() uint64 // nil in the zero Source: the constant 1/2
	last     atomic.Uint64 // the value last returned, for a redraw
}

// next returns the source's next fraction: the zero Source's is always 1/2.
func (s *Source) next() uint64 {
	if s.fraction == nil {
		return 1 << 63
	}
	return s.fraction()
}

// ClockSource returns a Source whose number is read from the clock now (time.Now, a
// or a fakeclock.Fake's Now): the fraction of the current second, as if the
// code took time.Now().UnixNano() for randomness. On a coarse clock (one that does not move
// between calls) it is a constant; on a clock that advances between calls by a step that is not a whole number of seconds
// it steps round the whole range. A nil
// now is an error.
func ClockSource(now func() time.Time) (*Source, error) {
	if now == nil {
		return nil, errors.New("mutants: ClockSource(nil)")
	}
	return &Source{fraction: func() uint64 {
		// floor(ns * 2^64 / 1e9): the fraction of the second as a 64-bit fraction.
		q, _ := bits.Div64(uint64(now().Nanosecond()), 0, 1e9)
		return q
	}}, nil
}

// CollapsedSource returns a Source that draws healthy numbers from src (a math/rand/v2
// source, such as rand.NewPCG, whatever the *rand.Rand the Source goes into) and shrinks
// them towards 0 by factor, in (0, 1): on a *rand.Rand over it, Float64 falls in
// [0, factor), IntN(n) and Int64N(n) in [0, factor*n), ExpFloat64 and NormFloat64 below
// their factor-quantile, and so on for every method. A factor below 2^-64 collapses every
// method to 0.
//
// One case is out of reach: math/rand/v2's IntN and its kin with an n that is a power of
// two take the low bits of Uint64 with a mask, which no source can collapse together with
// the high bits that the other methods read. Those calls return healthy values over the
// whole range. (Through math/rand, every method collapses, powers of two included.)
func CollapsedSource(src rand.Source, factor float64) (*Source, error) {
	if src == nil {
		return nil, errors.New("mutants: CollapsedSource(nil, ...)")
	}
	if math.IsNaN(factor) || factor <= 0 || factor >= 1 {
		return nil, fmt.Errorf("mutants: CollapsedSource: the factor %v must be in (0, 1)", factor)
	}
	scale := uint64(factor * (1 << 64)) // 0 below 2^-64: every fraction is 0
	return &Source{fraction: func() uint64 {
		hi, _ := bits.Mul64(src.Uint64(), scale)
		return hi
	}}, nil
}

// Uint64 returns the source's next fraction, placed where the reading method of
// math/rand/v2's *rand.Rand looks (or the whole fraction, to math/rand's Uint64).
//
// A redraw by IntN's kin gets the last value plus one. uint64n(n) rejects x when
// lo = x*n mod 2^64 is below thresh = 2^64 mod n < n, which means x is the smallest value
// whose product lands in its multiple of 2^64; x+1 then gives lo+n, which does not wrap
// (lo + n < thresh + n <= 2^64) and is at least n > thresh: accepted, with the same result.
func (s *Source) Uint64() uint64 {
	k := reader()
	if k == readRedraw {
		return s.last.Add(1)
	}
	x := place(k, s.next())
	s.last.Store(x)
	return x
}

// Int63 returns the source's next fraction, placed where the reading method of math/rand's
// *rand.Rand looks.
func (s *Source) Int63() int64 {
	k := reader1()
	var x uint64
	if k == readV1Redraw32 || k == readV1RedrawMod {
		x = redraw1(k, s.last.Load())
	} else {
		x = place1(k, s.next())
	}
	s.last.Store(x)
	return int64(x)
}

// Seed does nothing: a broken source's numbers are its class's, not a seed's. It is there
// for math/rand's rand.Source.
func (s *Source) Seed(int64) {}

// place puts the fraction f where a method of kind k reads it.
func place(k readKind, f uint64) uint64 {
	switch k {
	case readFloat64:
		return f >> 11
	case readFloat32:
		return f >> 40 << 32
	case readLow63:
		return f >> 1
	case readExp:
		return expZiggurat().place(f)
	case readNorm:
		return normZiggurat().place(f)
	}
	return f
}
