package mutants

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Broken math/rand/v2 sources, for code that takes a *rand.Rand rather than a Jitter.
//
// A *rand.Rand reads its source's Uint64 in different places: Float64 keeps the low 53
// bits, Float32 bits 32 to 55, Int64 and Int the low 63, and IntN, Int64N, UintN, Uint64N
// and the rest the high bits, as the fraction x/2^64 scaled by n. No one Uint64 value puts
// the same fraction in all those places (a scaled Uint64 collapses IntN but leaves Float64
// uniform), so the sources look at which method of *rand.Rand is reading, by its place in
// the stack, and put their fraction where that method reads it.

// ConstantSource returns a rand.Source on which every method of a *rand.Rand returns the
// middle of its range on every call: Float64 0.5, IntN(n) n/2. Its Uint64 is also chosen so
// that IntN and Int64N, which redraw values that would bias them, never need to redraw:
// a constant that needed to would redraw forever.
func ConstantSource() rand.Source {
	return brokenSource{fraction: func() uint64 { return 1 << 63 }, constant: true}
}

// ClockSource returns a rand.Source whose number is read from clk: the fraction of the
// current second, as if the code took time.Now().UnixNano() for randomness. On a coarse
// clock (one that does not move between calls) it is a constant; on a SteppingClock it
// steps round the whole range. A nil clk is an error.
func ClockSource(clk Clock) (rand.Source, error) {
	if clk == nil {
		return nil, errors.New("mutants: ClockSource(nil)")
	}
	return brokenSource{constant: true, fraction: func() uint64 {
		// floor(ns * 2^64 / 1e9): the fraction of the second as a 64-bit fraction.
		q, _ := bits.Div64(uint64(clk.Now().Nanosecond()), 0, 1e9)
		return q
	}}, nil
}

// CollapsedSource returns a rand.Source that draws healthy numbers from src and shrinks
// them towards 0 by factor, in (0, 1): on a *rand.Rand over it, Float64 falls in
// [0, factor), IntN(n) and Int64N(n) in [0, factor*n), and so on for every method.
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
	scale := uint64(factor * (1 << 64))
	return brokenSource{fraction: func() uint64 {
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
// the reading method of *rand.Rand looks.
type brokenSource struct {
	fraction func() uint64
	// constant marks a source that may repeat one value forever: its high-bit readings get
	// low bits set, so that no n up to 2^43 makes IntN redraw (see placeHigh).
	constant bool
}

func (s brokenSource) Uint64() uint64 {
	f := s.fraction()
	switch reader() {
	case "Float64":
		return f >> 11
	case "Float32":
		return f >> 40 << 32
	case "Int64", "Int":
		return f >> 1
	}
	if s.constant {
		return placeHigh(f)
	}
	return f
}

// placeHigh sets the low 44 bits of a fraction read from the high bits. The reading moves
// by less than 2^-20, and IntN(n) never redraws for n <= 2^43: it redraws when x*n mod
// 2^64 < 2^64 mod n < n, and with x = k*2^44 - 1, x*n mod 2^64 is 2^64 - n or at least
// 2^44 - n, both >= n.
func placeHigh(f uint64) uint64 { return f | (1<<44 - 1) }

// thisPackage prefixes the names of this package's functions in a stack.
var thisPackage = reflect.TypeFor[brokenSource]().PkgPath() + "."

// readers caches reader's answer by the return addresses it saw: symbolizing a stack costs
// microseconds, a lookup tens of nanoseconds.
var readers sync.Map // [4]uintptr -> string

// reader returns the name of the *rand.Rand method reading the source, such as "Float64",
// or "" when it is not one that reads only some low bits.
func reader() string {
	var pcs [4]uintptr
	n := runtime.Callers(2, pcs[:]) // skip Callers and reader
	if name, ok := readers.Load(pcs); ok {
		return name.(string)
	}
	name := readerOf(pcs[:n])
	readers.Store(pcs, name)
	return name
}

// readerOf finds the reading method among the frames of pcs, the first of them in this
// package (Uint64, and any wrapper the compiler made for it).
func readerOf(pcs []uintptr) string {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		name, ok := strings.CutPrefix(f.Function, "math/rand/v2.(*Rand).")
		switch {
		case strings.HasPrefix(f.Function, thisPackage) && more:
			continue
		case ok && (name == "Float64" || name == "Float32" || name == "Int64" || name == "Int"):
			return name
		case !ok && !strings.HasPrefix(f.Function, "math/rand/v2."):
			return "" // out of package rand: the caller read Uint64 itself or via uint64n
		case !more:
			return ""
		}
	}
}
