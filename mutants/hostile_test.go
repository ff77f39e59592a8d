package mutants

import (
	"fmt"
	"math"
	randv1 "math/rand"
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Every method of *rand.Rand must return after a bounded number of reads on every broken
// source, whatever its argument: a rejection loop that a broken number keeps rejecting
// would hang the code under test. The tests bound the work (reads of the source), not the
// time, so that their verdict never depends on the machine.

// budgetSource passes reads through to src and panics with errOverBudget past its budget.
// It lives in this package, so the broken source looks past it for the reading method.
type budgetSource struct {
	src  rand.Source
	left int
}

var errOverBudget = fmt.Errorf("over the budget of reads")

func (b *budgetSource) Uint64() uint64 {
	if b.left--; b.left < 0 {
		panic(errOverBudget)
	}
	return b.src.Uint64()
}

// v2Method is one method of *rand.Rand with an argument drawn from t, and how many reads
// of the source it may make: one per value, plus one redraw per value of the IntN kin.
type v2Method struct {
	name string
	call func(t *rapid.T, r *rand.Rand) (desc string, budget int, run func())
}

// extremeInt64 draws an n > 0 for Int64N, often one at an edge.
func extremeInt64(t *rapid.T, label string) int64 {
	return rapid.OneOf(
		rapid.SampledFrom([]int64{1, 2, 3, 6, 7, 1000, 1<<31 - 1, 1 << 43, 1<<43 + 1, 1<<62 + 1,
			3 << 61, math.MaxInt64 - 1, math.MaxInt64, int64(time.Hour)}),
		rapid.Int64Range(1, math.MaxInt64),
	).Draw(t, label)
}

// extremeUint64 draws an n > 0 for Uint64N, often one at an edge.
func extremeUint64(t *rapid.T, label string) uint64 {
	return rapid.OneOf(
		rapid.SampledFrom([]uint64{1, 2, 3, 6, 1 << 63, 1<<63 + 1, 1<<63 + 3, 3 << 62, math.MaxUint64,
			math.MaxUint64 - 1, 1<<44 + 1, 12345678901234567}),
		rapid.Uint64Range(1, math.MaxUint64),
	).Draw(t, label)
}

var v2Methods = []v2Method{
	{"Int64", one(func(r *rand.Rand) { r.Int64() })},
	{"Uint32", one(func(r *rand.Rand) { r.Uint32() })},
	{"Uint64", one(func(r *rand.Rand) { r.Uint64() })},
	{"Int32", one(func(r *rand.Rand) { r.Int32() })},
	{"Int", one(func(r *rand.Rand) { r.Int() })},
	{"Uint", one(func(r *rand.Rand) { r.Uint() })},
	{"Float64", one(func(r *rand.Rand) { r.Float64() })},
	{"Float32", one(func(r *rand.Rand) { r.Float32() })},
	{"ExpFloat64", one(func(r *rand.Rand) { r.ExpFloat64() })},
	{"NormFloat64", one(func(r *rand.Rand) { r.NormFloat64() })},
	{"Int64N", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := extremeInt64(t, "n")
		return fmt.Sprintf("Int64N(%d)", n), 2, func() { inRange(r.Int64N(n), n) }
	}},
	{"Uint64N", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := extremeUint64(t, "n")
		return fmt.Sprintf("Uint64N(%d)", n), 2, func() { inRange(r.Uint64N(n), n) }
	}},
	{"IntN", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := int(extremeInt64(t, "n"))
		return fmt.Sprintf("IntN(%d)", n), 2, func() { inRange(r.IntN(n), n) }
	}},
	{"UintN", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := uint(extremeUint64(t, "n"))
		return fmt.Sprintf("UintN(%d)", n), 2, func() { inRange(r.UintN(n), n) }
	}},
	{"Int32N", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := rapid.OneOf(rapid.SampledFrom([]int32{1, 2, 3, 6, math.MaxInt32, math.MaxInt32 - 1}),
			rapid.Int32Range(1, math.MaxInt32)).Draw(t, "n")
		return fmt.Sprintf("Int32N(%d)", n), 2, func() { inRange(r.Int32N(n), n) }
	}},
	{"Uint32N", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := rapid.OneOf(rapid.SampledFrom([]uint32{1, 2, 3, 6, 1<<31 + 1, math.MaxUint32}),
			rapid.Uint32Range(1, math.MaxUint32)).Draw(t, "n")
		return fmt.Sprintf("Uint32N(%d)", n), 2, func() { inRange(r.Uint32N(n), n) }
	}},
	{"Perm", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		return fmt.Sprintf("Perm(%d)", n), 2 * n, func() { r.Perm(n) }
	}},
	{"Shuffle", func(t *rapid.T, r *rand.Rand) (string, int, func()) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		return fmt.Sprintf("Shuffle(%d)", n), 2 * n, func() { r.Shuffle(n, func(i, j int) {}) }
	}},
}

// one is a method without an argument that reads one value.
func one(f func(r *rand.Rand)) func(*rapid.T, *rand.Rand) (string, int, func()) {
	return func(_ *rapid.T, r *rand.Rand) (string, int, func()) { return "", 1, func() { f(r) } }
}

func inRange[T int | int32 | int64 | uint | uint32 | uint64](x, n T) {
	if x < 0 || x >= n {
		panic(fmt.Sprintf("%d outside [0, %d)", x, n))
	}
}

// drawBrokenSource draws one broken source of each class, with hostile parameters.
func drawBrokenSource(t *rapid.T) (string, *Source) {
	switch rapid.IntRange(0, 2).Draw(t, "class") {
	case 0:
		return "new(Source)", new(Source)
	case 1:
		step := time.Duration(rapid.OneOf(rapid.SampledFrom([]int64{0, 1, int64(fineStep), 999_999_999, 1e9}),
			rapid.Int64Range(0, 2e9)).Draw(t, "step"))
		start := time.Unix(0, rapid.Int64Range(0, 1e9-1).Draw(t, "ns"))
		src, err := ClockSource(steppingNow(start, step))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("ClockSource(step %v from %v)", step, start.Nanosecond()), src
	}
	factor := rapid.OneOf(rapid.SampledFrom([]float64{1e-20, 5e-324, 0x1p-64, 0x1p-63, 1 - 0x1p-53, 0.5}),
		rapid.Float64Range(0x1p-70, 1-0x1p-53)).Draw(t, "factor")
	if factor <= 0 || factor >= 1 {
		factor = 0.5
	}
	seed := rapid.Uint64().Draw(t, "seed")
	src, err := CollapsedSource(rand.NewPCG(seed, 1), factor)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("CollapsedSource(PCG(%d, 1), %v)", seed, factor), src
}

// TestEveryMethodReturnsOnBrokenSources is the property: on every broken source, every
// method of *rand.Rand, with any argument, returns within its budget of reads.
func TestEveryMethodReturnsOnBrokenSources(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name, src := drawBrokenSource(t)
		budget := &budgetSource{src: src}
		r := rand.New(budget)
		calls := rapid.IntRange(1, 20).Draw(t, "calls")
		for range calls {
			m := v2Methods[rapid.IntRange(0, len(v2Methods)-1).Draw(t, "method")]
			desc, reads, run := m.call(t, r)
			if desc == "" {
				desc = m.name + "()"
			}
			budget.left = reads
			if p := catch(run); p != nil {
				t.Fatalf("rand.New(%s).%s: %v (budget %d reads)", name, desc, p, reads)
			}
		}
	})
}

// catch runs f and returns what it panicked with, if anything.
func catch(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// The cases found by hand, each of which hung before: a regression test apiece.
func TestBrokenSourceHangs(t *testing.T) {
	coarse, _ := ClockSource(steppingNow(clockEpoch, 0))
	moving, _ := ClockSource(steppingNow(clockEpoch, time.Nanosecond))
	tiny, _ := CollapsedSource(rand.NewPCG(1, 2), 1e-20)
	for _, tc := range []struct {
		name string
		src  rand.Source
		call func(r *rand.Rand)
	}{
		{"zero Source ExpFloat64", new(Source), func(r *rand.Rand) { r.ExpFloat64() }},
		{"zero Source NormFloat64", new(Source), func(r *rand.Rand) { r.NormFloat64() }},
		{"zero Source Uint64N(1<<63+1)", new(Source), func(r *rand.Rand) { r.Uint64N(1<<63 + 1) }},
		{"zero Source UintN(1<<63+1)", new(Source), func(r *rand.Rand) { r.UintN(1<<63 + 1) }},
		{"coarse ClockSource Uint64N(1<<63+1)", coarse, func(r *rand.Rand) { r.Uint64N(1<<63 + 1) }},
		{"moving ClockSource ExpFloat64", moving, func(r *rand.Rand) { r.ExpFloat64() }},
		{"moving ClockSource NormFloat64", moving, func(r *rand.Rand) { r.NormFloat64() }},
		{"CollapsedSource(1e-20) IntN(3)", tiny, func(r *rand.Rand) { r.IntN(3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &budgetSource{src: tc.src}
			r := rand.New(b)
			for range 100 {
				b.left = 2
				if p := catch(func() { tc.call(r) }); p != nil {
					t.Fatalf("%v", p)
				}
			}
		})
	}
}

// The same for math/rand (v1): every method of its *rand.Rand returns within two reads
// per value on every broken source, whatever its argument.

// budgetSource1 is budgetSource for math/rand: a rand.Source64.
type budgetSource1 struct {
	src  *Source
	left int
}

func (b *budgetSource1) spend() {
	if b.left--; b.left < 0 {
		panic(errOverBudget)
	}
}

func (b *budgetSource1) Int63() int64   { b.spend(); return b.src.Int63() }
func (b *budgetSource1) Uint64() uint64 { b.spend(); return b.src.Uint64() }
func (b *budgetSource1) Seed(int64)     {}

type v1Method struct {
	name string
	call func(t *rapid.T, r *randv1.Rand) (desc string, budget int, run func())
}

var v1Methods = []v1Method{
	{"Int63", one1(func(r *randv1.Rand) { r.Int63() })},
	{"Uint32", one1(func(r *randv1.Rand) { r.Uint32() })},
	{"Uint64", one1(func(r *randv1.Rand) { r.Uint64() })},
	{"Int31", one1(func(r *randv1.Rand) { r.Int31() })},
	{"Int", one1(func(r *randv1.Rand) { r.Int() })},
	{"Float64", one1(func(r *randv1.Rand) { r.Float64() })},
	{"Float32", one1(func(r *randv1.Rand) { r.Float32() })},
	{"ExpFloat64", one1(func(r *randv1.Rand) { r.ExpFloat64() })},
	{"NormFloat64", one1(func(r *randv1.Rand) { r.NormFloat64() })},
	{"Int63n", func(t *rapid.T, r *randv1.Rand) (string, int, func()) {
		n := extremeInt64(t, "n")
		return fmt.Sprintf("Int63n(%d)", n), 2, func() { inRange(r.Int63n(n), n) }
	}},
	{"Int31n", func(t *rapid.T, r *randv1.Rand) (string, int, func()) {
		n := rapid.OneOf(rapid.SampledFrom([]int32{1, 2, 3, 6, 1 << 30, 1<<30 + 1, math.MaxInt32, math.MaxInt32 - 1}),
			rapid.Int32Range(1, math.MaxInt32)).Draw(t, "n")
		return fmt.Sprintf("Int31n(%d)", n), 2, func() { inRange(r.Int31n(n), n) }
	}},
	{"Intn", func(t *rapid.T, r *randv1.Rand) (string, int, func()) {
		n := int(extremeInt64(t, "n"))
		return fmt.Sprintf("Intn(%d)", n), 2, func() { inRange(r.Intn(n), n) }
	}},
	{"Perm", func(t *rapid.T, r *randv1.Rand) (string, int, func()) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		return fmt.Sprintf("Perm(%d)", n), 2 * n, func() { r.Perm(n) }
	}},
	{"Shuffle", func(t *rapid.T, r *randv1.Rand) (string, int, func()) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		return fmt.Sprintf("Shuffle(%d)", n), 2 * n, func() { r.Shuffle(n, func(i, j int) {}) }
	}},
}

func one1(f func(r *randv1.Rand)) func(*rapid.T, *randv1.Rand) (string, int, func()) {
	return func(_ *rapid.T, r *randv1.Rand) (string, int, func()) { return "", 2, func() { f(r) } }
}

func TestEveryV1MethodReturnsOnBrokenSources(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name, src := drawBrokenSource(t)
		budget := &budgetSource1{src: src}
		r := randv1.New(budget)
		for range rapid.IntRange(1, 20).Draw(t, "calls") {
			m := v1Methods[rapid.IntRange(0, len(v1Methods)-1).Draw(t, "method")]
			desc, reads, run := m.call(t, r)
			if desc == "" {
				desc = m.name + "()"
			}
			budget.left = reads
			if p := catch(run); p != nil {
				t.Fatalf("math/rand.New(%s).%s: %v (budget %d reads)", name, desc, p, reads)
			}
		}
	})
}

// TestV1RedrawsEnd forces each redraw loop of math/rand: a value at the top of Int63 makes
// Float64 round to 1 and Int63n reject, a Uint32 of 0 makes Shuffle's reduction reject. The
// broken source's answers to those redraws must end them at once.
func TestV1RedrawsEnd(t *testing.T) {
	for _, tc := range []struct {
		name  string
		k     readKind
		last  uint64
		reads int
		call  func(r *randv1.Rand)
	}{
		{"Int63n(3) after the largest Int63", readV1RedrawMod, math.MaxInt64, 2, func(r *randv1.Rand) { r.Int63n(3) }},
		{"Int31n(3) after the largest Int63", readV1RedrawMod, math.MaxInt64, 2, func(r *randv1.Rand) { r.Int31n(3) }},
		// Shuffle(3) reduces twice: modulo 3 (redrawn once), then modulo 2.
		{"Shuffle(3) after a Uint32 of 0", readV1Redraw32, 0, 3, func(r *randv1.Rand) { r.Shuffle(3, func(int, int) {}) }},
	} {
		s := &scriptSource{vals: []uint64{tc.last, redraw1(tc.k, tc.last)}}
		if p := catch(func() { tc.call(randv1.New(s)) }); p != nil || len(s.sites) != tc.reads {
			t.Errorf("%s: %d reads, %v; want the redraw to end it, %d reads in all", tc.name, len(s.sites), p, tc.reads)
		}
	}
}
