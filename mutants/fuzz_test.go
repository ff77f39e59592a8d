package mutants

import (
	"github.com/spreadcheck/spreadcheck/spread"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The fuzz targets of the package's exported functions, with hostile arguments. Plain
// go test runs their seeds (and testdata/fuzz); CI runs each for a bounded time:
//
//	go test -run XXX -fuzz FuzzSpec -fuzztime 20s ./mutants
//	go test -run XXX -fuzz FuzzSource -fuzztime 20s ./mutants

// FuzzSpec builds a Spec from any p (a Percent, or a Custom whose functions scale the base by
// p and whose hi panics at every third base) and calls Range, Anchor, Of and every mutant's
// Jitter at any base: an invalid input is an error, a panic of a Custom function an error that
// names it, a mutant panics only with the Range error of
// its base (its documented way to say so), and every value lies where its class puts it.
func FuzzSpec(f *testing.F) {
	f.Add(uint8(0), 0.25, int64(time.Second), 0.5)
	f.Add(uint8(2), 0.25, int64(math.MaxInt64), 0.5)
	f.Add(uint8(2), 1.0, int64(math.MaxInt64/2+1), 0.5)
	f.Add(uint8(2), 5e-324, int64(math.MaxInt64-1), 1e-300)
	f.Add(uint8(1), math.NaN(), int64(-1), math.Inf(1))
	f.Add(uint8(3), math.Copysign(0, -1), int64(math.MinInt64), 1.0)
	f.Add(uint8(4), 0.5, int64(3*time.Second), 0.5)
	f.Add(uint8(4), 2.0, int64(time.Second+1), 0.5)
	f.Fuzz(func(t *testing.T, kind uint8, p float64, base int64, factor float64) {
		var spec Spec
		switch kind % 5 {
		case 0:
			spec = Full()
		case 1:
			spec = Equal()
		case 2:
			spec = Percent(p)
		case 4:
			spec = fuzzCustom(p)
		}
		b := time.Duration(base)
		lo, hi, err := spec.Range(b)
		a, aerr := spec.anchor(b)
		if (err == nil) != (aerr == nil) {
			t.Fatalf("%v at %v: Range error %v, Anchor error %v", spec, b, err, aerr)
		}
		if kind%5 == 4 && base%3 == 0 && (err == nil || !strings.Contains(err.Error(), "hi(") || !strings.Contains(err.Error(), "panicked")) {
			t.Fatalf("%v at %v: Range error %v, want the panic of hi, named", spec, b, err)
		}
		if err == nil && (hi <= lo || a < lo || a > hi) {
			t.Fatalf("%v at %v: range [%d, %d), anchor %d", spec, b, lo, hi, a)
		}
		ms, oerr := Of(spec, Extended(), Collapse(factor))
		if oerr != nil {
			return
		}
		for _, m := range ms {
			x, p := jitterAt(m, b)
			switch {
			case err != nil:
				if pe, ok := p.(error); !ok || !strings.Contains(pe.Error(), err.Error()) {
					t.Fatalf("%s at %v: panicked with %v, want the Range error %v", m.Name, b, p, err)
				}
			case p != nil:
				t.Fatalf("%s at %v: panic %v", m.Name, b, p)
			case m.Class == spread.SuspectConstant && (x < lo || x >= hi):
				t.Fatalf("%s at %v: %v outside [%v, %v)", m.Name, b, x, lo, hi)
			}
			m.EquivalentAt(b)
		}
	})
}

// fuzzCustom returns a Custom Spec of [b*p/2, b*p) anchored at b*p/2, whose hi panics at
// every base that is a multiple of 3ns.
func fuzzCustom(p float64) Spec {
	scale := func(b time.Duration, k float64) time.Duration { return time.Duration(float64(b) * p * k) }
	return Custom("fuzzed", func(b time.Duration) time.Duration { return scale(b, 0.5) },
		func(b time.Duration) time.Duration {
			if b%3 == 0 {
				panic("a multiple of 3ns")
			}
			return scale(b, 1)
		},
		func(b time.Duration) time.Duration { return scale(b, 0.5) })
}

func jitterAt(m Mutant, b time.Duration) (x time.Duration, p any) {
	defer func() { p = recover() }()
	return m.Jitter(b), nil
}

// FuzzSource calls one method of *rand.Rand with any argument on any broken source with
// any parameter: it returns within its budget of reads (two per value), or the source's
// constructor refused the parameter.
func FuzzSource(f *testing.F) {
	f.Add(uint8(0), 0.5, int64(0), uint8(8), uint64(1))         // ExpFloat64 on the constant
	f.Add(uint8(0), 0.5, int64(0), uint8(11), uint64(1<<63+1))  // Uint64N(2^63+1)
	f.Add(uint8(1), 0.5, int64(1), uint8(8), uint64(0))         // ExpFloat64 on a moving clock
	f.Add(uint8(2), 1e-20, int64(0), uint8(12), uint64(3))      // IntN(3), collapsed by 1e-20
	f.Add(uint8(2), math.NaN(), int64(-1), uint8(9), uint64(0)) // a NaN factor
	f.Add(uint8(1), 0.0, int64(math.MinInt64), uint8(16), uint64(300))
	f.Fuzz(func(t *testing.T, class uint8, factor float64, step int64, method uint8, n uint64) {
		var src rand.Source
		var err error
		switch class % 4 {
		case 0:
			src = new(Source)
		case 3:
			src = &Source{} // the zero Source, a constant
		case 1:
			src, err = ClockSource(steppingNow(time.Unix(0, step), time.Duration(step)))
		case 2:
			src, err = CollapsedSource(rand.NewPCG(uint64(step), n), factor)
		}
		if err != nil {
			return
		}
		b := &budgetSource{src: src}
		r := rand.New(b)
		name, reads, call := fuzzMethod(r, method, n)
		b.left = reads
		if p := catch(call); p != nil {
			t.Fatalf("%s on class %d (factor %v, step %v): %v", name, class%4, factor, step, p)
		}
	})
}

// fuzzMethod returns a call of a method of r chosen by m, its argument made valid from n.
func fuzzMethod(r *rand.Rand, m uint8, n uint64) (string, int, func()) {
	n64 := max(int64(n>>1), 1)
	switch m % 17 {
	case 0:
		return "Int64", 1, func() { r.Int64() }
	case 1:
		return "Uint32", 1, func() { r.Uint32() }
	case 2:
		return "Uint64", 1, func() { r.Uint64() }
	case 3:
		return "Int32", 1, func() { r.Int32() }
	case 4:
		return "Int", 1, func() { r.Int() }
	case 5:
		return "Uint", 1, func() { r.Uint() }
	case 6:
		return "Float64", 1, func() { r.Float64() }
	case 7:
		return "Float32", 1, func() { r.Float32() }
	case 8:
		return "ExpFloat64", 1, func() { r.ExpFloat64() }
	case 9:
		return "NormFloat64", 1, func() { r.NormFloat64() }
	case 10:
		return "Int64N", 2, func() { inRange(r.Int64N(n64), n64) }
	case 11:
		return "Uint64N", 2, func() { inRange(r.Uint64N(max(n, 1)), max(n, 1)) }
	case 12:
		return "IntN", 2, func() { inRange(r.IntN(int(n64)), int(n64)) }
	case 13:
		return "UintN", 2, func() { inRange(r.UintN(uint(max(n, 1))), uint(max(n, 1))) }
	case 14:
		k := max(int32(n>>33), 1)
		return "Int32N", 2, func() { inRange(r.Int32N(k), k) }
	case 15:
		k := max(uint32(n>>32), 1)
		return "Uint32N", 2, func() { inRange(r.Uint32N(k), k) }
	}
	k := int(n % 1000)
	return "Perm", 2 * k, func() { r.Perm(k) }
}
