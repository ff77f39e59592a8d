package mutants

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"sync"
)

// How a broken source finds which method of *rand.Rand reads it: by the stack, once per
// call site (the answer is cached by the return addresses), and how it learns the places
// those methods read, by probing them once with scripted sources rather than copying
// constants out of math/rand/v2.

// readKind says where a method of *rand.Rand reads the source's value.
type readKind uint8

const (
	readHigh    readKind = iota // the high bits, as the fraction x/2^64: IntN's kin, Uint32, Uint64
	readFloat64                 // the low 53 bits
	readFloat32                 // bits 32 to 55
	readLow63                   // the low 63 bits: Int64, Int
	readExp                     // ExpFloat64's ziggurat
	readNorm                    // NormFloat64's ziggurat
	readRedraw                  // IntN's kin redrawing a value they rejected
)

const (
	randV2 = "math/rand/v2."
	randV1 = "math/rand."
)

// thisPackage prefixes the names of this package's functions in a stack.
var thisPackage = reflect.TypeFor[Source]().PkgPath() + "."

// passThrough holds the methods of *rand.Rand that hand the source's value on to their
// caller, which is then the reading method.
var passThrough = map[string]bool{
	randV2 + "(*Rand).Uint64": true,
	randV2 + "(*Rand).Uint32": true,
	randV1 + "(*Rand).Int63":  true,
	randV1 + "(*Rand).Uint64": true,
	randV1 + "(*Rand).Uint32": true,
	randV1 + "(*Rand).Int31":  true,
}

// readers caches reader's answer by the return addresses it saw: symbolizing a stack costs
// microseconds, a lookup tens of nanoseconds.
var readers sync.Map // [8]uintptr -> readKind

// reader returns where the method of *rand.Rand that reads the calling source looks.
func reader() readKind {
	var pcs [8]uintptr
	n := runtime.Callers(2, pcs[:]) // skip Callers and reader
	if k, ok := readers.Load(pcs); ok {
		return k.(readKind)
	}
	k := kindAt(siteOf(pcs[:n]))
	readers.Store(pcs, k)
	return k
}

// reader1 is reader for math/rand (v1).
func reader1() readKind {
	var pcs [8]uintptr
	n := runtime.Callers(2, pcs[:])
	if k, ok := readers.Load(pcs); ok {
		return k.(readKind)
	}
	k := kindAt1(siteOf(pcs[:n]))
	readers.Store(pcs, k)
	return k
}

// A site is the function and line that read a source, and the function that called it.
type site struct {
	fn     string
	line   int
	caller string
}

// siteOf returns the reading site among the frames of pcs: the first frame outside this
// package (the source, and any wrapper of it here) and past the pass-through methods.
func siteOf(pcs []uintptr) site {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, thisPackage) && !passThrough[f.Function] || !more {
			s := site{fn: f.Function, line: f.Line}
			if more {
				c, _ := frames.Next()
				s.caller = c.Function
			}
			return s
		}
	}
}

// at is the site without its caller: where in math/rand a read happens.
func (s site) at() site { return site{fn: s.fn, line: s.line} }

// kindAt says where the method reading at s looks.
func kindAt(s site) readKind {
	name, ok := strings.CutPrefix(s.fn, randV2+"(*Rand).")
	if !ok {
		return readHigh // out of package rand: the caller reads Uint64 itself
	}
	switch name {
	case "Float64":
		return readFloat64
	case "Float32":
		return readFloat32
	case "Int64", "Int":
		return readLow63
	case "ExpFloat64":
		return readExp
	case "NormFloat64":
		return readNorm
	}
	if redrawSites()[s.at()] {
		return readRedraw
	}
	return readHigh
}

// scriptSource returns its values in turn, repeating the last, and records the site of
// each read. It serves math/rand/v2 (Uint64) and math/rand (Int63, whose values it
// returns as given). After 64 reads it panics: a probe that loops is a probe that failed.
type scriptSource struct {
	vals  []uint64
	sites []site
}

func (s *scriptSource) next() uint64 {
	if len(s.sites) == 64 {
		panic("mutants: probe of math/rand looped")
	}
	var pcs [8]uintptr
	n := runtime.Callers(2, pcs[:])
	s.sites = append(s.sites, siteOf(pcs[:n]))
	v := s.vals[0]
	if len(s.vals) > 1 {
		s.vals = s.vals[1:]
	}
	return v
}

func (s *scriptSource) Uint64() uint64 { return s.next() }
func (s *scriptSource) Int63() int64   { return int64(s.next()) }
func (s *scriptSource) Seed(int64)     {}

// probe runs call on a script of vals and returns the sites it read at, or nil if it
// looped.
func probe(vals []uint64, call func(src *scriptSource)) (sites []site) {
	s := &scriptSource{vals: vals}
	defer func() {
		if recover() != nil {
			sites = nil
		}
	}()
	call(s)
	return s.sites
}

// laterSites returns the sites of the reads after the first that are not the first's:
// where a method redraws.
func laterSites(vals []uint64, calls ...func(src *scriptSource)) map[site]bool {
	redraws := map[site]bool{}
	for _, call := range calls {
		sites := probe(vals, call)
		for _, s := range sites[min(1, len(sites)):] {
			if s.at() != sites[0].at() {
				redraws[s.at()] = true
			}
		}
	}
	return redraws
}

// redrawSites returns the sites where IntN's kin redraw: a first value of 0 makes
// Uint64N(6) redraw (0*6 mod 2^64 = 0 is below 2^64 mod 6 = 4); the largest value ends it.
var redrawSites = sync.OnceValue(func() map[site]bool {
	return laterSites([]uint64{0, math.MaxUint64},
		func(s *scriptSource) { rand.New(s).Uint64N(6) },
		func(s *scriptSource) { rand.New(s).IntN(6) })
})

// A ziggurat is how ExpFloat64 or NormFloat64 read one value on their fast path: an
// offset j = m*stride + layer (math/rand) or j = m with the layer in bits 32 up
// (math/rand/v2), which gives j*w while |m| <= mmax. place puts a fraction there as its
// quantile.
type ziggurat struct {
	stride, layer int64
	layerInJ      bool // math/rand: j's low bits are the layer
	w             float64
	mmax          int64
	encode        func(layer, j int64) uint64 // the source's value for offset j
	quantile      func(p float64) float64
}

// j returns the offset for m on layer l.
func (z *ziggurat) j(l, m int64) int64 {
	if z.layerInJ {
		return m*z.stride + l
	}
	return m
}

// place returns the value that makes the ziggurat return the quantile of the fraction f,
// clipped to the fast path: within 2^-20 of the quantile, up to about the 0.9995 quantile
// of the exponential and the 0.9997 of the normal (beyond which the slow path would need
// further reads).
func (z *ziggurat) place(f uint64) uint64 {
	if z.mmax == 0 { // the probe found no fast path: pass the fraction on
		return f
	}
	lo := 0.0
	if z.quantile(0) < 0 {
		lo = -float64(z.mmax)
	}
	j := z.quantile(float64(f)*0x1p-64)/z.w - float64(z.j(z.layer, 0))
	m := int64(math.Round(max(lo, min(float64(z.mmax), j/float64(z.stride)))))
	return z.encode(z.layer, z.j(z.layer, m))
}

// probeZiggurat finds the layer of a ziggurat with the widest fast path: for each layer,
// its width w from the value at m = 1, and mmax the largest m that the method accepts on
// one read (by bisection: the fast path is j below a bound). call runs the method on a
// script and returns its value.
func probeZiggurat(z ziggurat, layers, mtop int64, call func(src *scriptSource) float64) *ziggurat {
	best := z
	fast := func(l, m int64) (float64, bool) {
		var x float64
		sites := probe([]uint64{z.encode(l, z.j(l, m)), 0}, func(s *scriptSource) { x = call(s) })
		return x, len(sites) == 1
	}
	for l := range layers {
		x, ok := fast(l, 1)
		if !ok || x <= 0 {
			continue
		}
		w := x / float64(z.j(l, 1))
		lo, hi := int64(1), mtop // fast at lo; find the last fast m
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if _, ok := fast(l, mid); ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if float64(z.j(l, lo))*w > float64(best.j(best.layer, best.mmax))*best.w {
			best.layer, best.w, best.mmax = l, w, lo
		}
	}
	return &best
}

func expQuantile(p float64) float64  { return -math.Log1p(-p) }
func normQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// encodeV2 puts the layer in bits 32 up and j in the low 32 bits.
func encodeV2(layer, j int64) uint64 { return uint64(layer)<<32 | uint64(uint32(j)) }

var expZiggurat = sync.OnceValue(func() *ziggurat {
	return probeZiggurat(ziggurat{stride: 1, encode: encodeV2, quantile: expQuantile}, 256, math.MaxUint32,
		func(s *scriptSource) float64 { return rand.New(s).ExpFloat64() })
})

var normZiggurat = sync.OnceValue(func() *ziggurat {
	return probeZiggurat(ziggurat{stride: 1, encode: encodeV2, quantile: normQuantile}, 128, math.MaxInt32,
		func(s *scriptSource) float64 { return rand.New(s).NormFloat64() })
})
