package mutants

import (
	"math"
	"math/bits"
	randv1 "math/rand"
	"math/rand/v2"
	"testing"
	"time"
)

// A reading is one value from a method of *rand.Rand, scaled to [0, 1), and the step
// between its possible values (1/n for IntN(n)).
type reading struct{ v, step float64 }

// readings draws one value from each reading method of r.
func readings(r *rand.Rand) map[string]reading {
	intN := func(v, n int64) reading { return reading{float64(v) / float64(n), 1 / float64(n)} }
	return map[string]reading{
		"Float64":           {r.Float64(), 0},
		"Float32":           {float64(r.Float32()), 0x1p-24},
		"Int64":             {float64(r.Int64()) / (1 << 63), 0},
		"Uint32":            {float64(r.Uint32()) / (1 << 32), 0},
		"IntN(1000)":        intN(int64(r.IntN(1000)), 1000),
		"IntN(6)":           intN(int64(r.IntN(6)), 6),
		"Int64N(1s)":        intN(r.Int64N(int64(time.Second)), int64(time.Second)),
		"Int64N(1h)":        intN(r.Int64N(int64(time.Hour)), int64(time.Hour)),
		"Int64N(3*2^40)":    intN(r.Int64N(3<<40), 3<<40),
		"Uint64N(10^12+1)":  intN(int64(r.Uint64N(1e12+1)), 1e12+1),
		"Int32N(12288)":     intN(int64(r.Int32N(12288)), 12288),
		"UintN(999999937)":  intN(int64(r.UintN(999999937)), 999999937),
		"Uint64/2^64 (raw)": {float64(r.Uint64()) / (1 << 64), 0},
		// The ziggurats, through their distribution functions.
		"ExpFloat64":  {-math.Expm1(-r.ExpFloat64()), 1e-6},
		"NormFloat64": {0.5 * math.Erfc(-r.NormFloat64()/math.Sqrt2), 1e-6},
	}
}

// readings1 draws one value from each reading method of math/rand's r.
func readings1(r *randv1.Rand) map[string]reading {
	intN := func(v, n int64) reading { return reading{float64(v) / float64(n), 1 / float64(n)} }
	return map[string]reading{
		"Float64":               {r.Float64(), 0},
		"Float32":               {float64(r.Float32()), 0x1p-24},
		"Int63":                 {float64(r.Int63()) / (1 << 63), 0},
		"Uint32":                {float64(r.Uint32()) / (1 << 32), 0},
		"Int31":                 {float64(r.Int31()) / (1 << 31), 0},
		"Int":                   {float64(r.Int()) / (1 << 63), 0},
		"Uint64/2^64 (raw)":     {float64(r.Uint64()) / (1 << 64), 0},
		"Int63n(1s)":            intN(r.Int63n(int64(time.Second)), int64(time.Second)),
		"Int63n(2^62+1)":        intN(r.Int63n(1<<62+1), 1<<62+1),
		"Int31n(1000)":          intN(int64(r.Int31n(1000)), 1000),
		"Intn(6)":               intN(int64(r.Intn(6)), 6),
		"Intn(3*2^40)":          intN(int64(r.Intn(3<<40)), 3<<40),
		"Perm(7)[6]":            permLast(r.Perm(7)),
		"Shuffle(1000) first j": intN(int64(shuffleFirst(r, 1000)), 1000),
		"ExpFloat64":            {-math.Expm1(-r.ExpFloat64()), 1e-6},
		"NormFloat64":           {0.5 * math.Erfc(-r.NormFloat64()/math.Sqrt2), 1e-6},
	}
}

// permLast reads Perm's last element as a reading: Perm(n) puts n-1 at the position Intn(n)
// chose last.
func permLast(p []int) reading {
	n := len(p)
	for i, v := range p {
		if v == n-1 {
			return reading{float64(i) / float64(n), 1 / float64(n)}
		}
	}
	return reading{-1, 0}
}

// shuffleFirst returns the first index Shuffle(n) swaps with n-1.
func shuffleFirst(r *randv1.Rand, n int) int {
	first := -1
	r.Shuffle(n, func(i, j int) {
		if first < 0 {
			first = j
		}
	})
	return first
}

// generations are the two *rand.Rand a Source serves: each gives a function that draws
// the readings of a new *rand.Rand over src, and one that draws its Float64.
var generations = []struct {
	name     string
	readings func(src *Source) func() map[string]reading
	float64  func(src *Source) func() float64
}{
	{"math/rand/v2",
		func(src *Source) func() map[string]reading {
			r := rand.New(src)
			return func() map[string]reading { return readings(r) }
		},
		func(src *Source) func() float64 { return rand.New(src).Float64 }},
	{"math/rand",
		func(src *Source) func() map[string]reading {
			r := randv1.New(src)
			return func() map[string]reading { return readings1(r) }
		},
		func(src *Source) func() float64 { return randv1.New(src).Float64 }},
}

func TestZeroSourceIsConstant(t *testing.T) {
	for _, g := range generations {
		draw := g.readings(new(Source))
		first := draw()
		for name, x := range first {
			// Every reading sits at the middle, within the 2^-20 the low bits may move it.
			if math.Abs(x.v-0.5) > x.step+1e-6 {
				t.Errorf("%s: %s = %v, want 0.5", g.name, name, x.v)
			}
		}
		// The same on every call; and the test finishing shows IntN never redraws forever.
		for range 100 {
			for name, v := range draw() {
				if v != first[name] {
					t.Fatalf("%s: %s changed from %v to %v", g.name, name, first[name], v)
				}
			}
		}
	}
	r := rand.New(new(Source))
	if got := r.IntN(8); got != 0 {
		t.Errorf("IntN(8), a power of two read from the low bits, = %d, want the constant 0", got)
	}
}

// TestRedrawPlusOneAccepted checks the claim behind the answer to a redraw: when uint64n(n)
// rejects x (lo = x*n mod 2^64 below 2^64 mod n), it accepts x+1, with the same result.
func TestRedrawPlusOneAccepted(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		n := r.Uint64() >> r.UintN(64)
		if n == 0 || n&(n-1) == 0 {
			continue // a power of two is masked, never redrawn
		}
		thresh := -n % n
		// The smallest x of a random bucket k: the one value uint64n may reject there.
		k := r.Uint64N(n)
		x, rem := bits.Div64(k, 0, n)
		if rem != 0 {
			x++
		}
		hi, lo := bits.Mul64(x, n)
		if lo >= thresh {
			continue // accepted at once
		}
		hi1, lo1 := bits.Mul64(x+1, n)
		if lo1 < thresh || hi1 != hi {
			t.Fatalf("n = %d, x = %#x rejected; x+1 gives hi %d (want %d), lo %d (thresh %d)", n, x, hi1, hi, lo1, thresh)
		}
	}
}

func TestClockSource(t *testing.T) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 123456789, time.UTC)
	for _, g := range generations {
		coarse, err := ClockSource(steppingNow(start, 0))
		if err != nil {
			t.Fatal(err)
		}
		draw := g.readings(coarse)
		for range 100 {
			for name, x := range draw() {
				if math.Abs(x.v-0.123456789) > x.step+1e-6 {
					t.Fatalf("%s, coarse clock: %s = %v, want 0.123456789 every time", g.name, name, x.v)
				}
			}
		}
		fine, _ := ClockSource(steppingNow(start, fineStep))
		float := g.float64(fine)
		for i := range 1000 {
			want := float64((123456789+int64(i)*211324865)%1e9) / 1e9
			if got := float(); math.Abs(got-want) > 1e-15 {
				t.Fatalf("%s, fine clock: Float64 number %d = %v, want %v", g.name, i, got, want)
			}
		}
	}
	if _, err := ClockSource(nil); err == nil {
		t.Error("ClockSource(nil) gave no error")
	}
}

func TestCollapsedSource(t *testing.T) {
	for _, g := range generations {
		for _, factor := range []float64{0.5, 0.1, 0.9} {
			testCollapsed(t, g.name, g.readings, factor)
		}
	}
}

func testCollapsed(t *testing.T, gen string, readings func(*Source) func() map[string]reading, factor float64) {
	t.Helper()
	{
		src, err := CollapsedSource(rand.NewPCG(1, 2), factor)
		if err != nil {
			t.Fatal(err)
		}
		draw := readings(src)
		lo, hi, step := map[string]float64{}, map[string]float64{}, map[string]float64{}
		for range 1000 {
			for name, x := range draw() {
				if _, ok := lo[name]; !ok {
					lo[name] = x.v
				}
				lo[name], hi[name], step[name] = min(lo[name], x.v), max(hi[name], x.v), x.step
			}
		}
		for name := range hi {
			// Inside [0, factor), and reaching near both ends: a healthy number, collapsed.
			if lo[name] < 0 || hi[name] >= factor || hi[name] < 0.99*factor-step[name] || lo[name] > 0.01*factor {
				t.Errorf("%s, factor %v: %s spans [%v, %v], want about [0, %v)", gen, factor, name, lo[name], hi[name], factor)
			}
		}
	}
}

// TestCollapsedSourcePowerOfTwo documents the case no source can collapse: IntN of a power
// of two reads the low bits, and so do math/rand's Int63n, Int31n and Intn.
func TestCollapsedSourcePowerOfTwo(t *testing.T) {
	src, _ := CollapsedSource(rand.NewPCG(1, 2), 0.5)
	r, r1 := rand.New(src), randv1.New(src)
	for name, draw := range map[string]func() int{
		"IntN(1024)":      func() int { return r.IntN(1024) },
		"v1 Int63n(2^40)": func() int { return int(r1.Int63n(1<<40) >> 30) },
		"v1 Int31n(1024)": func() int { return int(r1.Int31n(1024)) },
		"v1 Intn(1024)":   func() int { return r1.Intn(1024) },
	} {
		top := 0
		for range 1000 {
			top = max(top, draw())
		}
		if top < 1000 {
			t.Errorf("%s reached only %d of 1024: the low bits did collapse after all; update the docs", name, top)
		}
	}
}

func TestSourceErrors(t *testing.T) {
	for _, f := range []float64{0, 1, -1, math.NaN()} {
		if _, err := CollapsedSource(rand.NewPCG(1, 2), f); err == nil {
			t.Errorf("CollapsedSource(_, %v) gave no error", f)
		}
	}
	if _, err := CollapsedSource(nil, 0.5); err == nil {
		t.Error("CollapsedSource(nil, 0.5) gave no error")
	}
}
