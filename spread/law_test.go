package spread

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestClamp: full jitter capped at 600ms passes its declaration on every seed; what a broken
// cap or a broken jitter under it does fails it, each in the statistic that should see it.
func TestClamp(t *testing.T) {
	want := Uniform(0, time.Second).Clamp(0, 600*time.Millisecond)
	if got := want.String(); got != "Uniform[0s, 1s).Clamp(0s, 600ms)" {
		t.Errorf("String() = %s", got)
	}
	passesAll(t, "capped full jitter", 50, 1000, capped, want)
	for _, c := range []struct {
		name string
		draw func(r *rand.Rand) time.Duration
		fail string
	}{
		{"no cap", func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(time.Second))) }, "bounds"},
		{"capped at 500ms", func(r *rand.Rand) time.Duration {
			return min(500*time.Millisecond, time.Duration(r.Int64N(int64(time.Second))))
		}, "distinct"},
		{"a collapsed jitter under the cap", func(r *rand.Rand) time.Duration {
			return min(600*time.Millisecond, time.Duration(r.Int64N(int64(time.Second/2))))
		}, "coverage/max"},
		{"the cap on every call", func(*rand.Rand) time.Duration { return 600 * time.Millisecond }, "coverage/min"},
		{"a clock under the cap", func() func(*rand.Rand) time.Duration {
			now := time.Duration(0)
			return func(*rand.Rand) time.Duration {
				now += 211300 * time.Microsecond
				return min(600*time.Millisecond, now%time.Second)
			}
		}(), "independence/ascents"},
	} {
		for seed := range uint64(10) {
			r, err := Analyze(draws(seed, 1000, c.draw), want)
			if err != nil || !find(r, c.fail).Failed {
				t.Fatalf("%s, seed %d: want %s to fail (%v):\n%s", c.name, seed, c.fail, err, r)
			}
		}
	}
}

// TestClampFloats: a float jitter floored at 0.1 and capped at 0.9.
func TestClampFloats(t *testing.T) {
	want := Uniform(0.0, 1.0).Clamp(0.1, 0.9)
	clamped := func(r *rand.Rand) float64 { return min(0.9, max(0.1, r.Float64())) }
	passesAll(t, "clamped floats", 50, 1000, clamped, want)
	r, err := Analyze(draws(1, 1000, func(r *rand.Rand) float64 { return min(0.9, r.Float64()) }), want)
	if err != nil || !find(r, "bounds").Failed {
		t.Errorf("no floor: %v\n%s", err, r)
	}
}

// TestTowardZero: int((2u - 1) * 3) for a float u in [0, 1): 0 twice as likely as any other
// value, -3 never reached. Declared as such it passes; declared as Uniform(-3, 3), whose
// values are equally likely and include -3, it fails, and the reverse. (Over a wider range the
// two differ as little: 0 twice as likely as one value in a million is no failure of Uniform,
// and TowardZero declares it exactly.)
func TestTowardZero(t *testing.T) {
	offset := func(r *rand.Rand) int { return int((2*r.Float64() - 1) * 3) }
	want := Uniform(-3, 3).TowardZero()
	passesAll(t, "truncated offsets", 50, 1000, offset, want)
	passesAll(t, "truncated nanoseconds", 20, 1000, func(r *rand.Rand) time.Duration {
		return time.Duration((2*r.Float64() - 1) * float64(time.Second))
	}, Uniform(-time.Second, time.Second).TowardZero())
	for seed := range uint64(10) {
		r, err := Analyze(draws(seed, 1000, offset), Uniform(-3, 3))
		if err != nil || !r.Failed() {
			t.Fatalf("truncated offsets passed as a uniform (%v):\n%s", err, r)
		}
		r, err = Analyze(draws(seed, 1000, func(r *rand.Rand) int { return r.IntN(6) - 3 }), want)
		if err != nil || !find(r, "fit/ks").Failed {
			t.Fatalf("a uniform passed as truncated offsets (%v):\n%s", err, r)
		}
	}
	// A float source reaches lo on a draw of exactly 0: rand.Float32 one time in 2^24. That one
	// value in a correct sample fails nothing (its stretch of the probability scale is the
	// source's resolution, not 0).
	xs := draws(1, 2000, func(r *rand.Rand) time.Duration {
		return time.Duration((2*r.Float64() - 1) * float64(time.Second))
	})
	xs[7] = -time.Second
	if r, err := Analyze(xs, Uniform(-time.Second, time.Second).TowardZero()); err != nil || r.Failed() {
		t.Errorf("a correct sample with lo once failed (%v):\n%s", err, r)
	}
	if d := Uniform(0, 10).TowardZero(); d.String() != Uniform(0, 10).String() {
		t.Errorf("TowardZero over [0, 10) = %s: want the uniform itself", d)
	}
}

// TestOneOf: a percent formula, base*(90 + r.IntN(21))/100 (percentWait), takes 21 values on
// no exact grid; declared by its values it passes, and half its values, or one, fail.
func TestOneOf(t *testing.T) {
	const base = 1337 * time.Millisecond
	want := OneOf(percentWaits...)
	percent := func(r *rand.Rand) time.Duration { return percentWait(r.IntN(21)) }
	passesAll(t, "a percent formula", 50, 1000, percent, want)
	for _, c := range []struct {
		name string
		draw func(r *rand.Rand) time.Duration
		fail string
	}{
		{"half the values", func(r *rand.Rand) time.Duration { return base * time.Duration(90+r.IntN(11)) / 100 }, "distinct"},
		{"one value", func(*rand.Rand) time.Duration { return base }, "distinct"},
		{"rounded to milliseconds", func(r *rand.Rand) time.Duration { return percent(r).Round(time.Millisecond) }, "bounds"},
	} {
		r, err := Analyze(draws(1, 1000, c.draw), want)
		if err != nil || !find(r, c.fail).Failed {
			t.Errorf("%s: want %s to fail (%v):\n%s", c.name, c.fail, err, r)
		}
	}
	if want.String() != "OneOf(1.2033s, 1.21667s, 1.23004s, 1.24341s, ..., 1.4707s: 21 values)" {
		t.Errorf("String() = %s", want)
	}
}

// TestLawDeclarationErrors: declarations that cannot be made say why.
func TestLawDeclarationErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"clamp of a normal", Continuous[float64](nil).Clamp(0, 1).d.err, "nil"},
		{"inverted clamp", Uniform(0, 10).Clamp(5, 2).d.err, "lo must be below hi"},
		{"clamp to one value", Uniform(0, 10).Clamp(9, 20).d.err, "one value"},
		{"TowardZero of floats", Uniform(-1.0, 1.0).TowardZero().d.err, "integer type"},
		{"TowardZero of a closed range", UniformClosed(-1, 1).TowardZero().d.err, "Uniform declaration"},
		{"OneOf nothing", OneOf[int]().d.err, "no values"},
		{"OneOf one value", OneOf(3, 3).d.err, "one value only"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.want)
		}
	}
	if _, err := Analyze([]int{1}, Uniform(0, 10).Clamp(0, 5).Step(5)); err == nil {
		t.Error("Step on a clamp: no error")
	}
}

// TestLawSkips: a law runs no lattice check, and OneOf's few values no order-statistic tails.
func TestLawSkips(t *testing.T) {
	r, err := Analyze(draws(1, 1000, capped), Uniform(0, time.Second).Clamp(0, 600*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if find(r, "lattice").Skipped == nil || find(r, "fit/tails").Name() == "" || find(r, "mean").Skipped != nil {
		t.Errorf("clamp:\n%s", r)
	}
	r, err = Analyze(draws(1, 1000, func(r *rand.Rand) int { return r.IntN(5) }), OneOf(0, 1, 2, 3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if find(r, "fit/tails").Name() != "" || slices.ContainsFunc(r.Results, func(x Result) bool { return x.Failed }) {
		t.Errorf("OneOf:\n%s", r)
	}
}

// TestLawsMatchEnumeration checks each law's CDF, moments and support against its distribution
// enumerated independently: every value of a small uniform clamped, a continuous uniform
// truncated toward zero at the middles of a grid of 1/1024 (exact, its breakpoints being
// integers), a list counted.
func TestLawsMatchEnumeration(t *testing.T) {
	type pmf = map[float64]float64
	check := func(name string, l *law, want pmf) {
		t.Helper()
		var keys []float64
		var mean, m2 float64
		for k, p := range want {
			keys = append(keys, k)
			mean += k * p
			m2 += k * k * p
		}
		slices.Sort(keys)
		cum := 0.0
		for _, k := range keys {
			below, at := l.cdf(k)
			if math.Abs(below-cum) > 1e-12 || math.Abs(at-cum-want[k]) > 1e-12 || !l.in(k) {
				t.Errorf("%s: at %g: cdf [%g, %g], in %v; want [%g, %g]", name, k, below, at, l.in(k), cum, cum+want[k])
			}
			cum += want[k]
		}
		if l.in(keys[0]-1) || l.in(keys[len(keys)-1]+1) {
			t.Errorf("%s: values beyond the support are in it", name)
		}
		if math.Abs(l.mean-mean) > 1e-9*(1+math.Abs(mean)) || math.Abs(l.variance-(m2-mean*mean)) > 1e-9*(1+m2) {
			t.Errorf("%s: mean %g, variance %g; want %g, %g", name, l.mean, l.variance, mean, m2-mean*mean)
		}
	}
	for _, c := range []struct{ lo, hi, a, b int }{{0, 10, 0, 6}, {0, 10, 2, 9}, {-5, 5, -1, 3}, {3, 40, 0, 17}} {
		want := pmf{}
		for x := c.lo; x < c.hi; x++ {
			want[float64(min(max(x, c.a), c.b)-c.lo)] += 1.0 / float64(c.hi-c.lo)
		}
		check(fmt.Sprintf("Uniform(%d, %d).Clamp(%d, %d)", c.lo, c.hi, c.a, c.b), Uniform(c.lo, c.hi).Clamp(c.a, c.b).d.law, want)
	}
	for _, c := range []struct{ lo, hi int }{{-3, 3}, {-5, 2}, {-7, -2}, {-4, 0}, {-1, 6}} {
		want := pmf{}
		const grid = 1024
		for j := range (c.hi - c.lo) * grid {
			u := float64(c.lo) + (float64(j)+0.5)/grid // the middle of each cell of the grid
			want[math.Trunc(u)] += 1.0 / float64((c.hi-c.lo)*grid)
		}
		want[float64(c.lo)] += 0 // lo: in the support, of probability 0
		check(fmt.Sprintf("Uniform(%d, %d).TowardZero()", c.lo, c.hi), Uniform(c.lo, c.hi).TowardZero().d.law, want)
	}
	for _, c := range [][4]float64{{0, 1, 0.1, 0.9}, {-2, 3, -1, 2.5}, {0, 1, -1, 0.5}} {
		l := Uniform(c[0], c[1]).Clamp(c[2], c[3]).d.law
		const cells = 1 << 16
		var mean, m2 float64
		for j := range cells {
			x := min(max(c[0]+(c[1]-c[0])*(float64(j)+0.5)/cells, c[2]), c[3])
			mean += x / cells
			m2 += x * x / cells
		}
		if math.Abs(l.mean-mean) > 1e-6 || math.Abs(l.variance-(m2-mean*mean)) > 1e-6 {
			t.Errorf("Uniform(%g, %g).Clamp(%g, %g): mean %g, variance %g; want %g, %g", c[0], c[1], c[2], c[3], l.mean, l.variance, mean, m2-mean*mean)
		}
	}
	values := []int{5, 7, 7, 11, 2, 7}
	want := pmf{}
	for _, v := range values {
		want[float64(v-2)] += 1.0 / float64(len(values))
	}
	check("OneOf", OneOf(values...).d.law, want)
}

// TestTowardZeroNarrow: over a range ending at or below 0 no value is twice as likely (0 takes
// (-1, 0) only), so Uniform(-2, 0).TowardZero(), -1 and 0 each half the time, is checked like
// any two values; distinct had taken 0 at 2/w = 1, too likely to size. Over [-1, 1), or a range
// one value wide, every draw but lo converts to one value: a declaration with nothing to check
// but bounds, said as OneOf of one value says it. The fuzzer found all three (FuzzCorrect).
func TestTowardZeroNarrow(t *testing.T) {
	for _, c := range []struct{ lo, hi int }{{-2, 0}, {-3, 0}, {-5, -1}, {-2, 1}, {-3, 3}, {-1, 6}} {
		l := Uniform(c.lo, c.hi).TowardZero().d.law
		most := 1.0 / float64(c.hi-c.lo)
		if c.hi >= 1 && c.lo <= -1 {
			most *= 2 // 0 takes (-1, 1)
		}
		if want := 1 / (most + 2*l.res); math.Abs(l.w-want) > 1e-12*want {
			t.Errorf("Uniform(%d, %d).TowardZero(): distinct sized for %g values, want %g (the most likely value %g)", c.lo, c.hi, l.w, want, most)
		}
	}
	passesAll(t, "-1 or 0", 20, 1000, func(r *rand.Rand) time.Duration {
		return time.Duration(-2 + 2*r.Float64())
	}, Uniform(-2*time.Nanosecond, 0).TowardZero())
	for _, c := range []struct{ lo, hi, to int }{{-1, 0, 0}, {-1, 1, 0}, {-20_000_001, -20_000_000, -20_000_000}} {
		err := Uniform(c.lo, c.hi).TowardZero().d.err
		if want := fmt.Sprintf("every value converts to %d", c.to); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "nothing to check but bounds") {
			t.Errorf("Uniform(%d, %d).TowardZero(): %v, want a declaration error saying %q", c.lo, c.hi, err, want)
		}
	}
}

// TestTowardZeroFarBelowZero: below zero the conversion takes each value of (lo, hi] with
// probability 1/w, so its moments are those of a discrete uniform; from sums of squares of
// values near -1.1e12 they had cancelled to a variance of 0 (and a mean off by far more than
// the range), which the mean check refused on every correct sample. FuzzCorrect found it.
func TestTowardZeroFarBelowZero(t *testing.T) {
	const lo, hi = -1099511627699 * time.Nanosecond, -1099511627519 * time.Nanosecond
	want := Uniform(lo, hi).TowardZero()
	l := want.d.law
	w := float64(hi - lo)
	if mean, variance := float64(lo+1+hi)/2, (w*w-1)/12; l.mean != mean || math.Abs(l.variance-variance) > 1e-12*variance {
		t.Errorf("%v: mean %v, variance %v; want %v, %v", want, l.mean, l.variance, mean, variance)
	}
	passesAll(t, "far below zero", 20, 1000, func(r *rand.Rand) time.Duration {
		return time.Duration(float64(lo) + w*r.Float64())
	}, want)
}
