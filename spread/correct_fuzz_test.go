package spread

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// FuzzCorrect draws correct samples of every kind of declaration (Uniform and UniformClosed of
// integers anywhere in their types, Step, Clamp, TowardZero, OneOf, floats the common ways,
// gonum's Normal, Exponential, Poisson and Binomial, Like), at any bounds, width, step, size and seed
// the fuzzer picks, and checks the other half of the promise: a correct sample
// passes. Every call is sized to fail a correct sample with probability at most 1e-9 (or the
// smaller rate an input picks), so over the n inputs of a run the chance of any false failure
// is at most n x 1e-9: about 1e-4 for CI's few seconds (tens of thousands of inputs), 1e-3 for
// a million. A failure is therefore a bug unless the run was far longer; it replays from its
// seed, and the report says which check failed and why. An error is allowed only for a sample
// too small to check.
//
//	go test ./spread -run '^$' -fuzz '^FuzzCorrect$' -fuzztime 30s
func FuzzCorrect(f *testing.F) {
	f.Add(uint8(0), uint64(1<<63), uint64(1000), uint64(1), uint16(1000))              // [0, 1000)
	f.Add(uint8(0), uint64(0), uint64(math.MaxUint64), uint64(2), uint16(500))         // every int64
	f.Add(uint8(1), uint64(math.MaxUint64), uint64(3), uint64(3), uint16(60))          // closed, at MaxInt64
	f.Add(uint8(2), uint64(1<<63-5), uint64(1<<40), uint64(4), uint16(2000))           // uint64 across 2^63
	f.Add(uint8(3), uint64(unixNano), uint64(1e6<<20|1000), uint64(5), uint16(800))    // a step
	f.Add(uint8(4), math.Float64bits(-2), math.Float64bits(2), uint64(6), uint16(999)) // across zero
	f.Add(uint8(5), math.Float64bits(0.75), math.Float64bits(3), uint64(7), uint16(1500))
	f.Add(uint8(6), uint64(0), uint64(1e9), uint64(8), uint16(1999)) // Seconds
	f.Add(uint8(7), uint64(1<<63), uint64(1e9), uint64(9), uint16(1000))
	f.Add(uint8(8), uint64(0), uint64(20_000_000), uint64(10), uint16(1000))
	f.Add(uint8(9), uint64(unixNano), uint64(7), uint64(11), uint16(300))
	f.Add(uint8(10), math.Float64bits(1), math.Float64bits(0x1p-24), uint64(12), uint16(1000))
	f.Add(uint8(11), math.Float64bits(1e6), math.Float64bits(3), uint64(13), uint16(1000)) // Normal
	f.Add(uint8(12), uint64(0), math.Float64bits(1e-300), uint64(14), uint16(1000))        // Exponential
	f.Add(uint8(13), uint64(0), math.Float64bits(0.001), uint64(15), uint16(1000))         // Poisson
	f.Add(uint8(14), uint64(20), math.Float64bits(0.3), uint64(16), uint16(1000))          // Binomial
	f.Add(uint8(15), uint64(600e6), uint64(1e9), uint64(17), uint16(1000))                 // Like
	f.Fuzz(func(tt *testing.T, kind uint8, a, b, seed uint64, size uint16) {
		t := fuzzT{tt, correctRate(seed)}
		r := rand.New(rand.NewPCG(seed, a^b))
		n := 2 + int(size)%2000
		switch kind % 16 {
		case 0, 1, 2, 7:
			correctInts(t, kind%16, r, n, a, b)
		case 3:
			correctStep(t, r, n, a, b)
		case 4, 5, 6:
			correctFloats(t, kind%16, r, n, a, b)
		case 8:
			correctTowardZero(t, r, n, a, b)
		case 9:
			values := make([]int64, 2+b%16) // two or more, at most 2^53 apart
			for i := range values {
				values[i] = int64(a%(1<<62)) - 1<<61 + int64(i)*int64(1+b>>8%(1<<48))
			}
			wantPass(t, Draw(n, func() int64 { return values[r.IntN(len(values))] }), OneOf(values...))
		case 10:
			correctFloatStep(t, r, n, a, b)
		case 11, 12, 13, 14:
			correctGonum(t, kind%16, n, a, b, seed)
		case 15:
			correctLike(t, r, n, a, b)
		}
	})
}

// fuzzT is a fuzz target's T with the options every sample of the input is checked with.
type fuzzT struct {
	*testing.T
	opts []Option
}

// correctRate returns, for one seed in four, a false-failure rate from 1e-9 down to 1e-300 (a
// correct sample passes at every rate up to 1e-9 but for one time in a billion), and the
// default otherwise.
func correctRate(seed uint64) []Option {
	if seed%4 != 0 {
		return nil
	}
	return []Option{FalseFailureRate(math.Pow(10, -float64(9+(seed>>2)%292)))}
}

// correctInts draws n integers uniformly over a range of width 1 + b at a place set by a,
// anywhere in the type's range: Uniform and UniformClosed of int64 and uint64, and a Clamp.
func correctInts(t fuzzT, kind uint8, r *rand.Rand, n int, a, b uint64) {
	w := max(b, 2)
	lo := a % (math.MaxUint64 - w + 1) // lo + w <= MaxUint64
	offset := func() uint64 { return lo + r.Uint64N(w) }
	toInt := func(u uint64) int64 { return int64(u ^ 1<<63) } // the same order
	switch kind {
	case 0:
		wantPass(t, Draw(n, func() int64 { return toInt(offset()) }), Uniform(toInt(lo), toInt(lo+w)))
	case 1:
		wantPass(t, Draw(n, func() int64 { return toInt(offset()) }), UniformClosed(toInt(lo), toInt(lo+w-1)))
	case 2:
		wantPass(t, Draw(n, offset), Uniform(lo, lo+w))
	case 7: // a clamp keeps exact coordinates up to 2^53 values
		w = min(w, 1<<53)
		c1, c2 := lo+r.Uint64N(w), lo+r.Uint64N(w)
		c1, c2 = min(c1, c2), max(c1, c2)
		if c1 == c2 {
			return
		}
		d := Uniform(toInt(lo), toInt(lo+w)).Clamp(toInt(c1), toInt(c2))
		wantPass(t, Draw(n, func() int64 { return toInt(min(max(offset(), c1), c2)) }), d)
	}
}

// correctStep draws durations on a grid of step 1 + (b>>20) from lo = a, 1 + b%2^20 points.
func correctStep(t fuzzT, r *rand.Rand, n int, a, b uint64) {
	step := time.Duration(1 + b>>20%(1<<30))
	k := int64(1 + b%(1<<20))
	lo := time.Duration(a % (1 << 62))
	xs := Draw(n, func() time.Duration { return lo + step*time.Duration(r.Int64N(k)) })
	wantPass(t, xs, Uniform(lo, lo+step*time.Duration(k)).Step(step))
}

// correctFloats draws floats the common ways: lo + (hi-lo) rand.Float64(), the same from a
// float32, and a duration's Seconds.
func correctFloats(t fuzzT, kind uint8, r *rand.Rand, n int, a, b uint64) {
	if kind == 6 {
		w := int64(1 + b%(1<<62))
		if floatResolution(0, time.Duration(w).Seconds(), false) > maxResolution {
			return // too few nanoseconds, a documented error
		}
		xs := Draw(n, func() float64 { return time.Duration(r.Int64N(w)).Seconds() })
		wantPass(t, xs, Uniform(0, time.Duration(w).Seconds()))
		return
	}
	lo, hi := math.Float64frombits(a), math.Float64frombits(b)
	if !(lo < hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsInf(hi-lo, 0) || floatResolution(lo, hi, false) > maxResolution {
		return // not a range, or one that holds too few floats, a documented error
	}
	u := r.Float64
	if kind == 5 {
		u = func() float64 { return float64(r.Float32()) }
	}
	xs := Draw(n, func() float64 { return lo + (hi-lo)*u() })
	for i, x := range xs {
		if x >= hi { // rounded up to hi: a draw of probability 2^-53 or so, not a sample to judge
			xs[i] = lo
		}
	}
	wantPass(t, xs, Uniform(lo, hi))
}

// correctTowardZero draws floats over [lo, hi), lo = -1 - b%2^40 < 0 and hi = lo + 1 + a%(2|lo|),
// converted to durations, the way time.Duration((2*r.Float64() - 1) * float64(j)) does.
func correctTowardZero(t fuzzT, r *rand.Rand, n int, a, b uint64) {
	lo := -time.Duration(1 + b%(1<<40))
	hi := lo + 1 + time.Duration(a%uint64(-2*lo))
	d := Uniform(lo, hi).TowardZero()
	if hi-lo == 1 || lo == -1 && hi == 1 { // one value: a declaration error, not a sizing error
		if d.d.err == nil || !strings.Contains(d.d.err.Error(), "nothing to check but bounds") {
			t.Fatalf("%v: %v, want the declaration's error", d, d.d.err)
		}
		return
	}
	wantPass(t, Draw(n, func() time.Duration { return time.Duration(float64(lo) + float64(hi-lo)*r.Float64()) }), d)
}

// correctGonum draws from gonum distributions with their own samplers, parameters from a and
// b: Normal and Exponential declared by Continuous, Poisson and Binomial by Discrete.
func correctGonum(t fuzzT, kind uint8, n int, a, b, seed uint64) {
	src := rand.NewPCG(seed, b)
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	if math.IsNaN(x) || math.IsInf(x, 0) || !(y > 0) || math.IsInf(y, 0) {
		return
	}
	switch kind {
	case 11:
		if math.IsInf(x+8*y, 0) || math.IsInf(x-8*y, 0) {
			return
		}
		d := distuv.Normal{Mu: x, Sigma: y, Src: src}
		if generalResolution(d, false) > maxResolution {
			return // narrower than the floats near it, a documented error
		}
		wantPass(t, Draw(n, d.Rand), Continuous(d))
	case 12:
		if y < 1e-290 {
			return // the sampler's ExpFloat64()/Rate overflows to +Inf
		}
		d := distuv.Exponential{Rate: y, Src: src}
		wantPass(t, Draw(n, d.Rand), Continuous(d))
	case 13:
		d := distuv.Poisson{Lambda: min(y, 1e6), Src: src}
		wantPass(t, Draw(n, func() int64 { return int64(d.Rand()) }), Discrete[int64](d))
	case 14:
		d := distuv.Binomial{N: float64(1 + a%1000), P: min(y, 1), Src: src}
		if d.P == 1 {
			return // every draw is N: one value
		}
		wantPass(t, Draw(n, func() int64 { return int64(d.Rand()) }), Discrete[int64](d))
	}
}

// correctLike draws a sample with the formula that Like declares: a jitter capped at a point
// of its range, rounded to a step, in durations.
func correctLike(t fuzzT, r *rand.Rand, n int, a, b uint64) {
	w := time.Duration(2 + b%(1<<40))
	limit := time.Duration(1 + a%uint64(w))
	step := time.Duration(1 + a>>40%uint64(w))
	jitter := func(r *rand.Rand) time.Duration { return min(limit, time.Duration(r.Int64N(int64(w)))/step*step) }
	wantPass(t, Draw(n, func() time.Duration { return jitter(r) }), Like(jitter))
}

// correctFloatStep draws lo + i s, i < k, with the step declared.
func correctFloatStep(t fuzzT, r *rand.Rand, n int, a, b uint64) {
	lo, s := math.Float64frombits(a), math.Float64frombits(b)
	if !(s > 0) || math.IsInf(s, 0) || math.IsNaN(lo) || math.Abs(lo) > s*(1<<40) {
		return
	}
	k := 2 + int(a%(1<<20))
	hi := lo + float64(k)*s
	if math.IsInf(hi, 0) {
		return
	}
	wantPass(t, Draw(n, func() float64 { return lo + float64(r.IntN(k))*s }), Uniform(lo, hi).Step(s))
}

// wantPass fails unless a correct sample passes, or gets the error of a sample too small.
func wantPass[T Number](t fuzzT, xs []T, d Dist[T], opts ...Option) {
	t.Helper()
	r, err := Analyze(xs, d, append(t.opts, opts...)...)
	var few *tooFewError
	if errors.As(err, &few) {
		return
	}
	if err != nil {
		t.Fatalf("a correct sample of %d against %v: %v", len(xs), d, err)
	}
	if r.Failed() {
		t.Fatalf("a correct sample of %d against %v failed:\n%s", len(xs), d, r)
	}
}
