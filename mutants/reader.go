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

const randV2 = "math/rand/v2."

// thisPackage prefixes the names of this package's functions in a stack.
var thisPackage = reflect.TypeFor[brokenSource]().PkgPath() + "."

// passThrough holds the methods of *rand.Rand that hand the source's value on to their
// caller, which is then the reading method.
var passThrough = map[string]bool{
	randV2 + "(*Rand).Uint64": true,
	randV2 + "(*Rand).Uint32": true,
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

// A site is the function and line that read a source.
type site struct {
	fn   string
	line int
}

// siteOf returns the reading site among the frames of pcs: the first frame outside this
// package (the source, and any wrapper of it here) and past the pass-through methods.
func siteOf(pcs []uintptr) site {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, thisPackage) && !passThrough[f.Function] || !more {
			return site{f.Function, f.Line}
		}
	}
}

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
	if redrawSites()[s] {
		return readRedraw
	}
	return readHigh
}

// scriptSource returns its values in turn, repeating the last, and records the site of
// each read. After 64 reads it panics: a probe that loops is a probe that failed.
type scriptSource struct {
	vals  []uint64
	sites []site
}

func (s *scriptSource) Uint64() uint64 {
	if len(s.sites) == 64 {
		panic("mutants: probe of math/rand/v2 looped")
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

// probe runs call on a *rand.Rand over a script of vals and returns the sites it read at,
// or nil if it looped.
func probe(vals []uint64, call func(r *rand.Rand)) (sites []site) {
	s := &scriptSource{vals: vals}
	defer func() {
		if recover() != nil {
			sites = nil
		}
	}()
	call(rand.New(s))
	return s.sites
}

// redrawSites returns the sites where IntN's kin redraw: a first value of 0 makes
// Uint64N(6) redraw (0*6 mod 2^64 = 0 is below 2^64 mod 6 = 4); the largest value ends it.
var redrawSites = sync.OnceValue(func() map[site]bool {
	redraws := map[site]bool{}
	for _, call := range []func(*rand.Rand){
		func(r *rand.Rand) { r.Uint64N(6) },
		func(r *rand.Rand) { r.IntN(6) },
	} {
		sites := probe([]uint64{0, math.MaxUint64}, call)
		for _, s := range sites[min(1, len(sites)):] {
			if s != sites[0] {
				redraws[s] = true
			}
		}
	}
	return redraws
})

// A ziggurat is how ExpFloat64 or NormFloat64 read one value on their fast path: a layer
// number in the bits from 32 up, and an offset j in the low 32 bits (signed for the
// normal), which gives j*w if |j| <= jmax. place puts a fraction there as its quantile.
type ziggurat struct {
	layer    uint64
	w        float64
	jmax     int64
	signed   bool
	quantile func(p float64) float64
}

// place returns the value that makes the ziggurat return the quantile of the fraction f,
// clipped to the fast path: within 2^-31 of the quantile, up to the 0.9995 quantile of
// the exponential and the 0.9997 of the normal (beyond which the slow path would need
// further reads).
func (z *ziggurat) place(f uint64) uint64 {
	if z.jmax == 0 { // the probe found no fast path: pass the fraction on
		return f
	}
	m := float64(z.jmax)
	j := int64(math.Round(max(-m, min(m, z.quantile(float64(f)*0x1p-64)/z.w))))
	return z.layer<<32 | uint64(uint32(j))
}

// probeZiggurat finds the layer of call's ziggurat with the widest fast path: for each
// layer, its width w is the value at offset 1, and jmax the largest offset that the method
// accepts on one read (found by bisection: the fast path is j below a bound).
func probeZiggurat(layers int, jtop int64, call func(r *rand.Rand) float64) *ziggurat {
	best := &ziggurat{}
	fast := func(u uint64) (float64, bool) {
		var x float64
		sites := probe([]uint64{u, 0}, func(r *rand.Rand) { x = call(r) })
		return x, len(sites) == 1
	}
	for l := range uint64(layers) {
		w, ok := fast(l<<32 | 1)
		if !ok || w <= 0 {
			continue
		}
		lo, hi := int64(1), jtop // fast at lo; find the last fast offset
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if _, ok := fast(l<<32 | uint64(uint32(mid))); ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if float64(lo)*w > float64(best.jmax)*best.w {
			best.layer, best.w, best.jmax = l, w, lo
		}
	}
	return best
}

var expZiggurat = sync.OnceValue(func() *ziggurat {
	z := probeZiggurat(256, math.MaxUint32, (*rand.Rand).ExpFloat64)
	z.quantile = func(p float64) float64 { return -math.Log1p(-p) }
	return z
})

var normZiggurat = sync.OnceValue(func() *ziggurat {
	z := probeZiggurat(128, math.MaxInt32, (*rand.Rand).NormFloat64)
	z.signed = true
	z.quantile = func(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
	return z
})
