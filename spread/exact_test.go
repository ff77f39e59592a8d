package spread

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// The cases of issue 8 where correct samples failed, a declaration was refused, or a message
// misled: each is a test that failed before the integer keys and the float resolution.

// passesAll checks n correct draws on each of seeds seeds: every one must pass, since a
// correct sample fails with probability at most 1e-9.
func passesAll[T Number](t *testing.T, name string, seeds, n int, draw func(r *rand.Rand) T, want Dist[T], opts ...Option) {
	t.Helper()
	for seed := range uint64(seeds) {
		r, err := Analyze(draws(seed, n, draw), want, opts...)
		if err != nil {
			t.Fatalf("%s, seed %d: %v", name, seed, err)
		}
		if r.Failed() {
			t.Fatalf("%s, seed %d: a correct sample failed:\n%s", name, seed, r)
		}
	}
}

// failsAll checks that a constant at the middle of the declaration fails: the correct
// samples above pass because the checks see them, not because nothing can fail.
func failsConstant[T Number](t *testing.T, name string, x T, want Dist[T]) {
	t.Helper()
	r, err := Analyze(Draw(1000, func() T { return x }), want)
	if err != nil || !r.Failed() {
		t.Errorf("%s: a constant passed (%v):\n%s", name, err, r)
	}
}

// TestFloatRangesCrossingZero: the count of floats in [-2, 2) overflowed int64, and every
// symmetric float declaration from about 2 up was refused with "w = -9.2e18 values".
func TestFloatRangesCrossingZero(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{-2, 2}, {-1, 1}, {-1e300, 1e300}, {-math.MaxFloat64, math.MaxFloat64}, {-3, 1e-300}} {
		want := Uniform(c.lo, c.hi)
		passesAll(t, want.String(), 5, 1000, func(r *rand.Rand) float64 {
			u := r.Float64()
			return c.lo*(1-u) + c.hi*u
		}, want)
		failsConstant(t, want.String(), c.lo/2+c.hi/2, want)
	}
}

// TestIntegersBeyondFloat64: UnixNano-scale values went through float64, so different
// nanoseconds counted as repeats and the mean was off: 98.7% of correct runs failed at
// n = 10,000; durations near +-MaxInt64 and uint64 near 2^63 failed or were refused.
func TestIntegersBeyondFloat64(t *testing.T) {
	for _, w := range []int64{int64(time.Second), int64(time.Millisecond), int64(time.Microsecond)} {
		want := Uniform(unixNano, unixNano+w)
		passesAll(t, want.String(), 10, 10_000, func(r *rand.Rand) int64 { return unixNano + r.Int64N(w) }, want)
		failsConstant(t, want.String(), unixNano+w/2, want)
	}
	top := time.Duration(math.MaxInt64)
	for _, c := range []struct{ lo, hi time.Duration }{
		{top - time.Second, top}, {math.MinInt64, math.MinInt64 + time.Second}, {math.MinInt64, top},
	} {
		want := Uniform(c.lo, c.hi)
		passesAll(t, want.String(), 5, 1000, func(r *rand.Rand) time.Duration {
			return c.lo + time.Duration(r.Uint64N(uint64(c.hi-c.lo)))
		}, want)
		failsConstant(t, want.String(), c.lo+(c.hi-c.lo)/2, want)
	}
	for _, c := range []struct{ lo, hi uint64 }{
		{1<<63 - 5e8, 1<<63 + 5e8}, {1 << 63, 1<<63 + 1e9}, {math.MaxUint64 - 1e9, math.MaxUint64}, {0, math.MaxUint64},
	} {
		want := Uniform(c.lo, c.hi)
		passesAll(t, want.String(), 5, 1000, func(r *rand.Rand) uint64 { return c.lo + r.Uint64N(c.hi-c.lo) }, want)
		failsConstant(t, want.String(), c.lo+(c.hi-c.lo)/2, want)
	}
}

// TestIntegerMeanIsExact: the mean check compares the sum of the cells with its limit in
// integers. At an offset of 2^62, where float64 holds only every 1024th integer, a sample
// whose sum lies exactly at the limit fails and one a unit inside passes.
func TestIntegerMeanIsExact(t *testing.T) {
	const n, w = 1000, 10
	lo := int64(1)<<62 + 12345
	dev, _, err := sizing.MeanUniformInt(w, n, defaultFalseFailureRate)
	if err != nil {
		t.Fatal(err)
	}
	centre := n * (w - 1) / 2 // the sum's centre, 4500
	for _, c := range []struct {
		sum  int
		fail bool
	}{{centre + int(dev), true}, {centre + int(dev) - 1, false}, {centre - int(dev), true}, {centre - int(dev) + 1, false}} {
		xs := cellsSumming(c.sum, n, w)
		for i := range xs {
			xs[i] += lo
		}
		r, err := Analyze(xs, Uniform(lo, lo+w), Only(CheckMean))
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed() != c.fail {
			t.Errorf("sum %d (centre %d, limit %g away): Failed() = %v, want %v\n%s", c.sum, centre, dev, r.Failed(), c.fail, r)
		}
		// The independent reference: |2S - n(w-1)| >= 2 dev, in big integers.
		off := new(big.Int).Sub(big.NewInt(2*int64(c.sum)), big.NewInt(n*(w-1)))
		if got := new(big.Float).SetInt(off.Abs(off)).Cmp(big.NewFloat(2*dev)) >= 0; got != c.fail {
			t.Errorf("sum %d: the reference says %v", c.sum, got)
		}
	}
}

// cellsSumming returns n cells in 0..w-1 that add up to sum.
func cellsSumming(sum, n, w int) []int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(min(w-1, sum))
		sum -= int(xs[i])
	}
	return xs
}

// TestBoundsThatRoundTogether: bounds that round to the same float64 made the histogram index
// out of range, a panic.
func TestBoundsThatRoundTogether(t *testing.T) {
	want := Uniform[int64](1<<60, 1<<60+3)
	r, err := Analyze([]int64{1 << 60}, want, Only(CheckBounds))
	if err != nil || r.Failed() {
		t.Errorf("one value at the bottom: %v\n%s", err, r)
	}
	passesAll(t, want.String(), 5, 1000, func(r *rand.Rand) int64 { return 1<<60 + r.Int64N(3) }, want)
	r, err = Analyze([]int64{1<<60 + 3, 1<<60 - 1}, want, Only(CheckBounds))
	if err != nil || !r.Failed() || !strings.Contains(r.String(), "1 below, 1 at or past the end") {
		t.Errorf("values just outside: %v\n%s", err, r)
	}
}

// TestDenormalRates: FalseFailureRate(5e-324) made the fit sizing loop forever; 1e-320 gave a
// fit limit of +Inf, so a collapsed sample passed.
func TestDenormalRates(t *testing.T) {
	xs := draws(1, 1000, func(r *rand.Rand) float64 { return r.Float64() / 2 })
	for _, alpha := range []float64{5e-324, 1e-320, 1e-305} {
		if r, err := Analyze(xs, Uniform(0.0, 1.0), FalseFailureRate(alpha)); err == nil {
			t.Errorf("FalseFailureRate(%g): no error\n%s", alpha, r)
		}
		if r, err := Analyze(xs, Uniform(0.0, 1.0), FalseFailureRate(alpha), Only(CheckFit)); err == nil {
			t.Errorf("FalseFailureRate(%g), fit alone: no error\n%s", alpha, r)
		}
	}
}

// TestMessagesAreExact: Uniform(0, MaxFloat64) at n = 1,000 said "too few values, needs
// n >= 14" (its mean tolerance overflowed); bounds printed rounded or with the wrong sign.
func TestMessagesAreExact(t *testing.T) {
	want := Uniform(0, math.MaxFloat64)
	passesAll(t, want.String(), 3, 1000, func(r *rand.Rand) float64 { return r.Float64() * math.MaxFloat64 }, want)
	for _, c := range []struct {
		d    fmt.Stringer
		want string
	}{
		{Uniform(time.Duration(math.MinInt64), math.MaxInt64), "Uniform[-2562047h47m16.854775808s, 2562047h47m16.854775807s)"},
		{Uniform[uint64](1<<63, 1<<63+10), "Uniform[9223372036854775808, 9223372036854775818)"},
		{Uniform(unixNano, unixNano+3), "Uniform[1767225600000000000, 1767225600000000003)"},
		{Uniform(0.1, 0.30000000000000004), "Uniform[0.1, 0.30000000000000004)"},
	} {
		if got := c.d.String(); got != c.want {
			t.Errorf("String() = %s, want %s", got, c.want)
		}
	}
	_, err := Analyze([]time.Duration{0}, Uniform(time.Duration(math.MaxInt64), math.MinInt64))
	if err == nil || !strings.Contains(err.Error(), "Uniform[2562047h47m16.854775807s, -2562047h47m16.854775808s): lo must be below hi") {
		t.Errorf("an inverted range: %v", err)
	}
	r, _ := Analyze(Draw(1000, func() int64 { return unixNano + 1 }), Uniform(unixNano, unixNano+int64(time.Second)))
	if s := r.String(); !strings.Contains(s, "min 1767225600000000001, max 1767225600000000001") {
		t.Errorf("the report does not print the values exactly:\n%s", s)
	}
}
