package mutants

import (
	"bytes"
	"math"
	"math/bits"
	randv1 "math/rand"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// How the broken sources serve math/rand (v1). Its *rand.Rand reads Int63 everywhere:
// Float64 divides it by 2^63 and redraws a value that rounds to 1, Float32 redraws a
// Float64 that rounds to 1 as a float32, Uint32 and Int31 shift it down, the Lemire
// reduction of Shuffle reads its high 32 bits, the ziggurats a layer in its low bits, and
// Int63n, Int31n and Intn (so Perm) reduce it modulo n. A modulo reduction cannot be
// collapsed or held at the middle by any value chosen without n, and n is an argument of
// the reading method: the sources read it from the goroutine's stack trace (runtime.Stack
// prints the arguments of each frame), which a probe at first use checks on known n. Where
// the check fails (a future Go that prints its traces otherwise), or the trace of one call
// does not show its n, the read panics with an *unreadableModulus, which Try and Run report
// as their error: never a healthy-looking value that a suite would rightly pass.
// TestStackTraceShowsModulus checks the probe on the Go that runs the tests (CI runs them on
// every Go the module supports). For an n that is a power of two, the
// methods mask the low bits instead, and the trace does not show n (it is not kept on the
// stack): as with math/rand/v2's IntN, those calls are out of reach.

// More kinds of read, for math/rand.
const (
	readV1Default   readKind = iota + 32 // Int63 as the fraction: Int63, Uint32, Int31, Int, Read
	readV1Float64                        // the top 53 bits, never rounding to 1
	readV1Float32                        // the top 24 bits, never rounding to 1 as a float32
	readV1Int63n                         // modulo n, n from the stack
	readV1Int31n                         // the top 31 bits modulo n, n from the stack
	readV1Exp                            // ExpFloat64's ziggurat
	readV1Norm                           // NormFloat64's ziggurat
	readV1Redraw32                       // the Lemire reduction redrawing: last Uint32 + 1
	readV1RedrawMod                      // Int63n or Int31n redrawing (n unread): half the last value
)

// kindAt1 says where the method of math/rand's *Rand reading at s looks.
func kindAt1(s site) readKind {
	name, ok := strings.CutPrefix(s.fn, randV1+"(*Rand).")
	if !ok {
		return readV1Default
	}
	switch {
	case name == "Float64" && s.caller == randV1+"(*Rand).Float32":
		return readV1Float32
	case name == "Float64":
		return readV1Float64
	case name == "ExpFloat64":
		return readV1Exp
	case name == "NormFloat64":
		return readV1Norm
	case redraw32Sites()[s.at()]:
		return readV1Redraw32
	case redrawModSites()[s.at()]:
		return readV1RedrawMod
	case maskSites()[s.at()]:
		return readV1Default // n is a power of two, which the stack trace does not show
	case name == "Int63n":
		return readV1Int63n
	case name == "Int31n":
		return readV1Int31n
	}
	return readV1Default
}

// place1 returns the Int63 value that puts the fraction f where a method of kind k reads.
func place1(k readKind, f uint64) uint64 {
	switch k {
	case readV1Float64:
		return f >> 11 << 10
	case readV1Float32:
		return f >> 40 << 39
	case readV1Int63n:
		return scale(f, mustModulus("Int63n"))
	case readV1Int31n:
		return scale(f, mustModulus("Int31n")) << 32
	case readV1Exp:
		return expZiggurat1().place(f)
	case readV1Norm:
		return normZiggurat1().place(f)
	}
	return f >> 1
}

// redraw1 returns the value that ends the redraw of a method of kind k after last.
//
// The Lemire reduction of Shuffle (int31n) rejects v when the low half of v*n is below
// 2^32 mod n: v is then the smallest value of its bucket, and v+1 is accepted with the
// same result, as for math/rand/v2's uint64n. Int63n and Int31n reject v above
// max = 2^63 - 1 - 2^63 mod n (2^31 for Int31n), which is at least 2^62 (2^30): half of
// any value is below it.
func redraw1(k readKind, last uint64) uint64 {
	if k == readV1Redraw32 {
		return (last>>31 + 1) << 31
	}
	return last >> 1
}

// scale returns floor(f * n / 2^64): the fraction f of [0, n).
func scale(f, n uint64) uint64 {
	hi, _ := bits.Mul64(f, n)
	return hi
}

// redraw32Sites: a first Uint32 of 0 makes int31n(3) redraw (0*3 has low half 0, below
// 2^32 mod 3 = 1); Shuffle(3) calls it first.
var redraw32Sites = sync.OnceValue(func() map[site]bool {
	return laterSites([]uint64{0, math.MaxInt64},
		func(s *scriptSource) { randv1.New(s).Shuffle(3, func(int, int) {}) })
})

// redrawModSites: the largest Int63 makes Int63n(3) and Int31n(3) redraw.
var redrawModSites = sync.OnceValue(func() map[site]bool {
	return laterSites([]uint64{math.MaxInt64, 0},
		func(s *scriptSource) { randv1.New(s).Int63n(3) },
		func(s *scriptSource) { randv1.New(s).Int31n(3) })
})

// maskSites are where Int63n and Int31n mask the low bits for an n that is a power of two.
var maskSites = sync.OnceValue(func() map[site]bool {
	masks := map[site]bool{}
	for _, call := range []func(*scriptSource){
		func(s *scriptSource) { randv1.New(s).Int63n(4) },
		func(s *scriptSource) { randv1.New(s).Int31n(4) },
	} {
		for _, s := range probe([]uint64{0}, call) {
			masks[s.at()] = true
		}
	}
	return masks
})

// encodeV1 puts j in the Uint32 that math/rand reads, bits 31 to 62 of Int63.
func encodeV1(_, j int64) uint64 { return uint64(uint32(j)) << 31 }

var expZiggurat1 = sync.OnceValue(func() *ziggurat {
	return probeZiggurat(ziggurat{stride: 256, layerInJ: true, encode: encodeV1, quantile: expQuantile},
		256, 1<<24-1, func(s *scriptSource) float64 { return randv1.New(s).ExpFloat64() })
})

var normZiggurat1 = sync.OnceValue(func() *ziggurat {
	return probeZiggurat(ziggurat{stride: 128, layerInJ: true, encode: encodeV1, quantile: normQuantile},
		128, 1<<24-1, func(s *scriptSource) float64 { return randv1.New(s).NormFloat64() })
})

// stacks holds buffers for runtime.Stack.
var stacks = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// An unreadableModulus is the panic of a broken source read by math/rand's Int63n or Int31n
// (through Intn, Perm, ...) when the stack trace does not show the n it needs.
type unreadableModulus struct{ method string }

func (e *unreadableModulus) Error() string {
	why := "the trace of this call does not show it"
	if !modulusWorks() {
		why = "this Go's stack traces do not show it as the package's probe expects"
	}
	return "mutants: math/rand's " + e.method + "(n) read a broken Source, which needs n to break its value, and " +
		why + " (runtime.Stack): the mutant cannot be made here; math/rand/v2 needs no stack trace"
}

// mustModulus returns modulus(method), or panics with an *unreadableModulus.
func mustModulus(method string) uint64 {
	n, ok := modulus(method)
	if !ok {
		panic(&unreadableModulus{method})
	}
	return n
}

// modulus returns the n of the innermost call of the math/rand method (Int63n or Int31n)
// in the goroutine's stack trace, if the trace shows it and the probe found the traces
// right.
func modulus(method string) (uint64, bool) {
	if !modulusWorks() {
		return 0, false
	}
	return readArg(method)
}

// readArg is stackArg; a test replaces it to see what a Go whose traces differ does.
var readArg = stackArg

// stackArg reads the second argument (after the receiver) of the innermost frame of the
// math/rand method in the stack trace: "math/rand.(*Rand).Int63n(0xc000012345, 0x3b9aca07)".
// A value marked "?" (maybe stale) or elided is not read.
func stackArg(method string) (uint64, bool) {
	bp := stacks.Get().(*[]byte)
	defer stacks.Put(bp)
	buf := (*bp)[:runtime.Stack(*bp, false)]
	prefix := []byte(randV1 + "(*Rand)." + method + "(")
	i := bytes.Index(buf, prefix)
	if i < 0 {
		return 0, false
	}
	args, _, ok := bytes.Cut(buf[i+len(prefix):], []byte(")"))
	fields := strings.Split(string(args), ", ")
	if !ok || len(fields) < 2 || strings.HasSuffix(fields[1], "?") {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(fields[1], "0x"), 16, 64)
	return n, err == nil && n > 0
}

// argSource is a math/rand source that reads the n of the method reading it, for the probe.
type argSource struct {
	method string
	got    []uint64
}

func (s *argSource) Int63() int64 {
	n, _ := stackArg(s.method)
	s.got = append(s.got, n)
	return 0
}
func (s *argSource) Seed(int64) {}

// modulusWorks checks at first use that stack traces show the n of Int63n and Int31n,
// through each method that reaches them.
var modulusWorks = sync.OnceValue(probeModulus)

func probeModulus() bool {
	for _, c := range []struct {
		method string
		n      uint64
		call   func(r *randv1.Rand)
	}{
		{"Int63n", 1e9 + 7, func(r *randv1.Rand) { r.Int63n(1e9 + 7) }},
		{"Int63n", 1<<62 + 3, func(r *randv1.Rand) { r.Intn(1<<62 + 3) }},
		{"Int31n", 77, func(r *randv1.Rand) { r.Int31n(77) }},
		{"Int31n", 12345, func(r *randv1.Rand) { r.Intn(12345) }},
		{"Int31n", 5, func(r *randv1.Rand) { r.Perm(5) }},
	} {
		s := &argSource{method: c.method}
		c.call(randv1.New(s))
		if len(s.got) == 0 || s.got[len(s.got)-1] != c.n {
			return false
		}
	}
	return true
}
