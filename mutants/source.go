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

// Broken math/rand/v2 sources, for code that takes a *rand.Rand rather than a Jitter.
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
// with the next value up, which the method always accepts (see Uint64), and give the
// ziggurats a value on their fast path.

// ConstantSource returns a rand.Source on which every method of a *rand.Rand returns the
// middle of its range on every call: Float64 0.5, IntN(n) n/2, ExpFloat64 ln 2 (the
// median), NormFloat64 0.
func ConstantSource() rand.Source {
	return &brokenSource{fraction: func() uint64 { return 1 << 63 }}
}

// ClockSource returns a rand.Source whose number is read from clk: the fraction of the
// current second, as if the code took time.Now().UnixNano() for randomness. On a coarse
// clock (one that does not move between calls) it is a constant; on a SteppingClock it
// steps round the whole range. A nil clk is an error.
func ClockSource(clk Clock) (rand.Source, error) {
	if clk == nil {
		return nil, errors.New("mutants: ClockSource(nil)")
	}
	return &brokenSource{fraction: func() uint64 {
		// floor(ns * 2^64 / 1e9): the fraction of the second as a 64-bit fraction.
		q, _ := bits.Div64(uint64(clk.Now().Nanosecond()), 0, 1e9)
		return q
	}}, nil
}

// CollapsedSource returns a rand.Source that draws healthy numbers from src and shrinks
// them towards 0 by factor, in (0, 1): on a *rand.Rand over it, Float64 falls in
// [0, factor), IntN(n) and Int64N(n) in [0, factor*n), ExpFloat64 and NormFloat64 below
// their factor-quantile, and so on for every method. A factor below 2^-64 collapses every
// method to 0.
//
// One case is out of reach: IntN and its kin with an n that is a power of two take the
// low bits of Uint64 with a mask, which no source can collapse together with the high
// bits that the other methods read. Those calls return healthy values over the whole range.
func CollapsedSource(src rand.Source, factor float64) (rand.Source, error) {
	if src == nil {
		return nil, errors.New("mutants: CollapsedSource(nil, ...)")
	}
	if math.IsNaN(factor) || factor <= 0 || factor >= 1 {
		return nil, fmt.Errorf("mutants: CollapsedSource: the factor %v must be in (0, 1)", factor)
	}
	scale := uint64(factor * (1 << 64)) // 0 below 2^-64: every fraction is 0
	return &brokenSource{fraction: func() uint64 {
		hi, _ := bits.Mul64(src.Uint64(), scale)
		return hi
	}}, nil
}

// SteppingClock returns a Clock that starts at start and advances by step after each
// reading, safe for concurrent use: a deterministic fine clock for ClockSource, FineClock
// and CoarseClock. A step of zero is a clock too coarse to move between calls.
func SteppingClock(start time.Time, step time.Duration) Clock {
	return &steppingClock{now: start, step: step}
}

// brokenSource is a rand.Source whose numbers are 64-bit fractions of [0, 1), placed where
// the reading method of *rand.Rand looks. Like the sources of math/rand/v2, one must not
// be read by two goroutines at once; doing so is race-free but may misplace a redraw.
type brokenSource struct {
	fraction func() uint64
	last     atomic.Uint64 // the value last returned, for a redraw
}

// Uint64 returns the source's next fraction, placed where the reading method looks.
//
// A redraw by IntN's kin gets the last value plus one. uint64n(n) rejects x when
// lo = x*n mod 2^64 is below thresh = 2^64 mod n < n, which means x is the smallest value
// whose product lands in its multiple of 2^64; x+1 then gives lo+n, which does not wrap
// (lo + n < thresh + n <= 2^64) and is at least n > thresh: accepted, with the same result.
func (s *brokenSource) Uint64() uint64 {
	k := reader()
	if k == readRedraw {
		return s.last.Add(1)
	}
	x := place(k, s.fraction())
	s.last.Store(x)
	return x
}

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
