package spread

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// The fuzz targets feed every exported function of the package hostile samples, declarations
// and options (MinInt64, 2^63, denormals, NaN, Inf, empty and large samples, bounds that round
// together, rates at and past their ends) and check the promise: a report or a clear error,
// never a panic or a hang, and a report that is consistent with itself. Plain go test runs
// their seed corpora; CI fuzzes each for a bounded time:
//
//	go test ./spread -run '^$' -fuzz '^FuzzFloat64$' -fuzztime 30s

// fuzzOptions turns fuzzed numbers into options: a rate when alpha is not 0, and one check
// when only names one.
func fuzzOptions(alpha float64, only uint8) []Option {
	var opts []Option
	if alpha != 0 {
		opts = append(opts, FalseFailureRate(alpha))
	}
	if int(only) < len(battery) {
		opts = append(opts, Only(battery[only]))
	}
	return opts
}

// stepped declares d's grid when step is not 0.
func stepped[T Number](d Dist[T], step T) Dist[T] {
	if step == 0 {
		return d
	}
	return d.Step(step)
}

// fuzzCheck runs Analyze, Check, Report.String and Diagnosis on a sample and checks that their
// answers agree with each other.
func fuzzCheck[T Number](t *testing.T, xs []T, want Dist[T], opts ...Option) {
	t.Helper()
	r, err := Analyze(xs, want, opts...)
	rec := newRecorder(t)
	Check(rec, xs, want, opts...)
	failed := err != nil || r.Failed()
	if got := len(rec.errors); got != map[bool]int{false: 0, true: 1}[failed] {
		t.Fatalf("Check reported %d errors for a report that failed = %v (err %v)", got, failed, err)
	}
	if err != nil {
		if !strings.HasPrefix(err.Error(), "spread: ") {
			t.Fatalf("an error without its package: %q", err)
		}
		return
	}
	if len(r.Results) == 0 || r.String() == "" {
		t.Fatalf("no error and no results:\n%s", r)
	}
	var sum float64
	for _, res := range r.Results {
		sum += res.Alpha
		if res.Failed && (res.Distance == "" || len(res.Suspects) == 0) {
			t.Fatalf("%s fails without saying how far or what it suggests:\n%s", res.Name(), r)
		}
		if math.IsNaN(res.Alpha) || res.Alpha < 0 {
			t.Fatalf("%s has alpha %v", res.Name(), res.Alpha)
		}
	}
	if sum > r.FalseFailureRate*(1+1e-12) {
		t.Fatalf("the statistics' rates add up to %v, above the call's %v", sum, r.FalseFailureRate)
	}
	if (len(r.Diagnosis()) > 0) != r.Failed() {
		t.Fatalf("Diagnosis %v for a report that failed = %v", r.Diagnosis(), r.Failed())
	}
}

// words splits data into 8-byte words.
func words(data []byte) []uint64 {
	out := make([]uint64, 0, len(data)/8)
	for ; len(data) >= 8; data = data[8:] {
		out = append(out, binary.LittleEndian.Uint64(data))
	}
	return out
}

// wordBytes is the inverse of words, for seeds.
func wordBytes(ws ...uint64) []byte {
	var b []byte
	for _, w := range ws {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	return b
}

// floatBytes encodes floats as words, for seeds.
func floatBytes(xs ...float64) []byte {
	ws := make([]uint64, len(xs))
	for i, x := range xs {
		ws[i] = math.Float64bits(x)
	}
	return wordBytes(ws...)
}

// spreadOut returns n words spread over [0, 2^64), a large correct-looking seed.
func spreadOut(n int) []byte {
	ws := make([]uint64, n)
	for i := range ws {
		ws[i] = splitmix(uint64(i))
	}
	return wordBytes(ws...)
}

func FuzzFloat64(f *testing.F) {
	f.Add(floatBytes(0.1, 0.5, 0.9), 0.0, 1.0, 0.0, 0.0, uint8(9))
	f.Add(floatBytes(math.NaN()), 0.0, 1.0, 0.0, 0.0, uint8(9))
	f.Add(floatBytes(math.Inf(1), 1), -2.0, 2.0, 1e-320, 0.0, uint8(0))
	f.Add(floatBytes(5e-324, 0), 0.0, 1e-320, 5e-324, 0.0, uint8(4))
	f.Add(floatBytes(1e300, -1e300), -math.MaxFloat64, math.MaxFloat64, 0.5, 0.0, uint8(9))
	f.Add(floatBytes(0.001, 0.002), 0.0, 1.0, 0.01, 0.001, uint8(9))
	f.Add(floatBytes(1e16, 1e16+2), 1e16, 1e16+10, 0.0, 0.0, uint8(9))
	f.Add(spreadOut(5000), 0.0, 1.0, 0.0, 0x1p-24, uint8(9))
	f.Add([]byte{}, 1.0, 1.0, 1.0, -1.0, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, lo, hi, alpha, step float64, only uint8) {
		ws := words(data)
		xs := make([]float64, len(ws))
		for i, w := range ws {
			xs[i] = math.Float64frombits(w)
			if len(ws) > 100 { // a large sample: values inside the range, mostly
				xs[i] = lo + (hi-lo)*float64(w>>11)/(1<<53)
			}
		}
		fuzzCheck(t, xs, stepped(Uniform(lo, hi), step), fuzzOptions(alpha, only)...)
		fuzzCheck(t, xs, stepped(UniformClosed(lo, hi), step), fuzzOptions(alpha, only)...)
		fuzzLaws(t, xs, lo, hi, step, fuzzOptions(alpha, only))
	})
}

func FuzzFloat32(f *testing.F) {
	f.Add(wordBytes(0x3f000000, 0x7fc00000), float32(0), float32(1), float32(0), uint8(9))
	f.Add(spreadOut(2000), float32(-1), float32(math.MaxFloat32), float32(0x1p-24), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, lo, hi, step float32, only uint8) {
		ws := words(data)
		xs := make([]float32, len(ws))
		for i, w := range ws {
			xs[i] = math.Float32frombits(uint32(w))
		}
		fuzzCheck(t, xs, stepped(Uniform(lo, hi), step), fuzzOptions(0, only)...)
	})
}

func FuzzInt64(f *testing.F) {
	f.Add(wordBytes(1<<60), int64(1<<60), int64(1<<60+3), int64(0), 0.0, uint8(0))
	f.Add(wordBytes(1<<63, 1<<63-1), int64(math.MinInt64), int64(math.MaxInt64), int64(0), 0.0, uint8(9))
	f.Add(spreadOut(3000), int64(math.MinInt64), int64(math.MaxInt64), int64(1<<20), 0.0, uint8(9))
	f.Add(spreadOut(200), int64(unixNano), int64(unixNano+1e9), int64(0), 1e-300, uint8(9))
	f.Add(wordBytes(5, 7), int64(0), int64(10), int64(-2), 2.0, uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, lo, hi, step int64, alpha float64, only uint8) {
		ws := words(data)
		xs := make([]int64, len(ws))
		for i, w := range ws {
			xs[i] = int64(w)
			if len(ws) > 100 && hi > lo { // a large sample: values inside the range
				xs[i] = lo + int64(w%uint64(hi-lo))
			}
		}
		fuzzCheck(t, xs, stepped(Uniform(lo, hi), step), fuzzOptions(alpha, only)...)
		fuzzCheck(t, xs, stepped(UniformClosed(lo, hi), step), fuzzOptions(alpha, only)...)
		fuzzLaws(t, xs, lo, hi, step, fuzzOptions(alpha, only))
	})
}

// fuzzLaws checks a sample against the declarations that build on a range: clamped at its
// middle and at step, truncated toward zero, and its own first values listed.
func fuzzLaws[T Number](t *testing.T, xs []T, lo, hi, at T, opts []Option) {
	t.Helper()
	fuzzCheck(t, xs, Uniform(lo, hi).Clamp(lo/2+hi/2, at), opts...)
	fuzzCheck(t, xs, Uniform(lo, hi).Clamp(at, hi), opts...)
	fuzzCheck(t, xs, Uniform(lo, hi).TowardZero(), opts...)
	fuzzCheck(t, xs, OneOf(xs[:min(len(xs), 5)]...), opts...)
}

func FuzzUint64(f *testing.F) {
	f.Add(wordBytes(1<<63, 1<<63+5), uint64(1<<63), uint64(1<<63+10), uint64(0), uint8(9))
	f.Add(spreadOut(1500), uint64(0), uint64(math.MaxUint64), uint64(0), uint8(9))
	f.Add(wordBytes(math.MaxUint64), uint64(math.MaxUint64-1), uint64(math.MaxUint64), uint64(1), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, lo, hi, step uint64, only uint8) {
		xs := words(data)
		if len(xs) > 100 && hi > lo {
			for i := range xs {
				xs[i] = lo + xs[i]%(hi-lo)
			}
		}
		fuzzCheck(t, xs, stepped(Uniform(lo, hi), step), fuzzOptions(0, only)...)
		fuzzCheck(t, xs, stepped(UniformClosed(lo, hi), step), fuzzOptions(0, only)...)
	})
}

// FuzzGeneral checks samples against gonum distributions with hostile parameters.
func FuzzGeneral(f *testing.F) {
	f.Add(floatBytes(1, 2, 3, 4, -1), 4.0, 0.5, uint8(9))
	f.Add(floatBytes(math.NaN(), 0), math.Inf(1), -1.0, uint8(9))
	f.Add(floatBytes(1e300, 5e-324), 5e-324, math.MaxFloat64, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, a, b float64, only uint8) {
		ws := words(data)
		xs := make([]float64, len(ws))
		ints := make([]int, len(ws))
		for i, w := range ws {
			xs[i], ints[i] = math.Float64frombits(w), int(int8(w))
		}
		opts := fuzzOptions(0, only)
		for _, d := range []Dist[float64]{
			Continuous(distuv.Normal{Mu: a, Sigma: b}),
			Continuous(distuv.Uniform{Min: a, Max: b}),
			Continuous(distuv.Exponential{Rate: a}),
		} {
			fuzzCheck(t, xs, d, opts...)
		}
		for _, d := range []DiscreteDist{distuv.Poisson{Lambda: a}, distuv.Binomial{N: math.Round(b), P: a}} {
			fuzzCheck(t, xs, Discrete[float64](d), opts...)
			fuzzCheck(t, ints, Discrete[int](d), opts...)
		}
	})
}

// FuzzLike checks samples against a reference sampler that draws from the sample's own values,
// and against one that panics or draws NaN.
func FuzzLike(f *testing.F) {
	f.Add(wordBytes(1, 2, 3, 1<<63), uint8(9))
	f.Add(spreadOut(1000), uint8(9))
	f.Add(floatBytes(math.NaN(), 1), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, only uint8) {
		ws := words(data)
		xs := make([]int64, len(ws))
		fs := make([]float64, len(ws))
		for i, w := range ws {
			xs[i], fs[i] = int64(w), math.Float64frombits(w)
		}
		opts := fuzzOptions(0, only)
		if len(xs) > 0 {
			fuzzCheck(t, xs, Like(func(r *rand.Rand) int64 { return xs[r.IntN(len(xs))] }), opts...)
			fuzzCheck(t, fs, Like(func(r *rand.Rand) float64 { return fs[r.IntN(len(fs))] }), opts...)
		}
		fuzzCheck(t, xs, Like(func(r *rand.Rand) int64 { panic("a broken reference") }), opts...)
	})
}

// FuzzFleetStream makes a FleetStream of any number of loops, from math.MinInt64 to
// math.MaxInt64, over any span, and feeds it events decoded from data (a loop and a time per
// pair of words): NewFleetStream returns an error exactly when the fleet has no loops or more
// than 1<<20, Add and Report return a report or an error, never a panic, and the zero
// FleetStream returns errors. Fleets of 1,025 to 1<<20 loops are valid but are not made (up to
// 400 MB each): the limit's own edges are seeds.
func FuzzFleetStream(f *testing.F) {
	f.Add(int64(3), int64(10*sec), wordBytes(0, uint64(sec), 1, uint64(2*sec), 2, uint64(sec)))
	f.Add(int64(1<<40), int64(sec), []byte{})
	f.Add(int64(1<<20+1), int64(sec), []byte{})
	f.Add(int64(math.MinInt64), int64(math.MaxInt64), wordBytes(math.MaxUint64, 1<<63))
	f.Add(int64(1), int64(math.MaxInt64), wordBytes(0, 1<<63-1, 0, 1<<63-1))
	f.Fuzz(func(t *testing.T, loops, span int64, data []byte) {
		var zero FleetStream
		if err := zero.Add(0, 0); err == nil {
			t.Fatal("the zero FleetStream took an event")
		}
		if loops > 1024 && loops <= 1<<20 {
			return
		}
		fs, err := NewFleetStream(int(loops), Ticker(sec), time.Duration(span))
		if valid := loops >= 1 && loops <= 1<<20; !valid {
			if err == nil {
				t.Fatalf("NewFleetStream(%d, ...) took a fleet of %d loops", loops, loops)
			}
			return
		}
		if err != nil {
			return // a span the ticker cannot fill: an error, as it must be
		}
		ws := words(data)
		for ; len(ws) >= 2; ws = ws[2:] {
			fs.Add(int(ws[0]%uint64(loops+1)), time.Duration(ws[1]))
		}
		fs.Report()
	})
}

// FuzzDraw calls Draw with any n: at most the limit it makes n values (none for n <= 0);
// past it, it panics with a message that names the limit. Draws of more than 1<<16 values
// are not made, to keep each input fast.
func FuzzDraw(f *testing.F) {
	for _, n := range []int64{0, -1, 1000, 1 << 26, 1<<26 + 1, math.MaxInt64, math.MinInt64} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		if n > 1<<16 && n <= 1<<26 {
			return
		}
		msg := "no panic"
		var xs []int
		func() {
			defer func() {
				if p := recover(); p != nil {
					msg = fmt.Sprint(p)
				}
			}()
			xs = Draw(int(n), func() int { return 1 })
		}()
		switch {
		case n > 1<<26 && !strings.Contains(msg, "at most 67108864"):
			t.Fatalf("Draw(%d, f) panicked with %q, want a message that names the limit", n, msg)
		case n <= 1<<26 && (msg != "no panic" || len(xs) != int(max(n, 0))):
			t.Fatalf("Draw(%d, f) made %d values (panic: %s)", n, len(xs), msg)
		}
	})
}
