package backoff

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

const base = time.Second

// The story's fixed test: bounds, half distinct, mean within 5% of the base, over a source
// seeded anew in each run (one seeded with constants draws the same in every run, and its
// typed limits could not fail by chance: TestFullPinned).
func TestFullFixed(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	const n = 1000
	distinct := make(map[time.Duration]bool)
	var sum time.Duration
	for range n {
		d := Full(r, base)
		if d < 0 || d >= base {
			t.Fatalf("bounds: delay %v outside [0, %v)", d, base)
		}
		distinct[d] = true
		sum += d
	}
	if len(distinct) < n/2 { // want `hand-sized tolerance: len\(distinct\) < n/2 compares the distinct draws of Full with a limit that nothing derived: it fails a correct Full when 501 or more of 1000 draws repeat, with probability 0`
		t.Errorf("distinct: %d of %d", len(distinct), n)
	}
	if mean := sum / n; (mean - base/2).Abs() > base/20 { // want `hand-sized tolerance: \(mean - base/2\).Abs\(\) > base/20 compares the mean of draws of Full with a typed limit: a tolerance of 0.05 of the width, two-sided, fails a correct Full with probability 4.14e-08 \(exact \(Irwin-Hall, n = 1000\), the integer values taken as continuous\); size the limit from a chosen rate: xs := spread.Draw\(1000, func\(\) time.Duration \{ return Full\(r, base\) \}\); spread.Check\(t, xs, spread.Uniform\(0, base\)\)`
		t.Errorf("mean: %v", mean)
	}
}

// A float mean against 5% of the expected mean, and "all distinct".
func TestFractionMean(t *testing.T) {
	var xs []float64
	sum := 0.0
	for i := 0; i < 400; i++ {
		x := Fraction()
		xs = append(xs, x)
		sum += x
	}
	want := 0.5
	if math.Abs(sum/400-want) > 0.05*want { // want `hand-sized tolerance: .* a tolerance of 0.025 of the width, two-sided, fails a correct Fraction with probability 0.0833 \(exact \(Irwin-Hall, n = 400\)\)`
		t.Errorf("mean %v", sum/400)
	}
}

// Bounds only, into a slice: the fix adds the check after the loop.
func TestEqualBounds(t *testing.T) {
	var waits []time.Duration
	for i := 0; i < 1000; i++ {
		waits = append(waits, Equal(base)) // want `blind test: TestEqualBounds draws Equal 1000 times and checks only their bounds \(w < base/2 \|\| w >= base\), so a constant or a collapsed range passes it; check the spread: spread.Check\(t, waits, spread.Uniform\(base/2, base\)\)`
	}
	for _, w := range waits {
		if w < base/2 || w >= base {
			t.Errorf("wait %v outside [%v, %v)", w, base/2, base)
		}
	}
}

// Sized with spread: not flagged.
func TestFullSpread(t *testing.T) {
	r := spread.Rand(t)
	xs := spread.Draw(1000, func() time.Duration { return Full(r, base) })
	spread.Check(t, xs, spread.Uniform(0, base))
}

// A seeded source in a test, with values pinned exactly: not flagged.
func TestFullSeeded(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	want := Full(rand.New(rand.NewPCG(7, 7)), base)
	for range 3 {
		if got := Full(r, base); got == want {
			return
		}
	}
	t.Error("seeded source gave different values")
}

// Draws whose differences are checked (a spread statistic): not flagged.
func TestEqualDiffers(t *testing.T) {
	prev := Equal(base)
	for range 10 {
		d := Equal(base)
		if d == prev {
			t.Errorf("two equal draws in a row: %v", d)
		}
		prev = d
	}
}

// Each call moves the state: the suggestion draws from copies of one state, and no fix is
// offered (a slice of draws from different states is no sample of one distribution).
func TestExponentialBounds(t *testing.T) {
	b := &Exponential{interval: base}
	var waits []time.Duration
	for want := base; want < 64*base; want *= 2 {
		d := b.NextBackOff() // want `blind test: TestExponentialBounds draws b.NextBackOff repeatedly and checks only their bounds \(d < want\*9/10 \|\| d > want\*11/10\), so a constant or a collapsed range passes it; check the spread: NextBackOff changes b on every call, so draw from copies of one state: xs := spread.Draw\(1000, func\(\) time.Duration \{ state := \*b; return state.NextBackOff\(\) \}\); spread.Check\(t, xs, spread.Uniform\(lo, hi\)\)`
		if d < want*9/10 || d > want*11/10 {
			t.Errorf("wait %v, want %v ± 10%%", d, want)
		}
		waits = append(waits, d)
	}
}

// Seeded by spread.Rand, but checked only for bounds: still blind.
func TestFullSeededBounds(t *testing.T) {
	r := spread.Rand(t)
	for range 1000 {
		if d := Full(r, base); d < 0 || d >= base { // want `blind test: TestFullSeededBounds draws Full 1000 times and checks only their bounds`
			t.Fatal(d)
		}
	}
}

// The mean is only logged, not asserted: a reported number cannot flake, so no tolerance is
// reported, and nothing checks the draws: blind.
func TestFullMeanLogged(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var sum time.Duration
	for range 1000 {
		sum += Full(r, base) // want `blind test: TestFullMeanLogged draws Full 1000 times and asserts nothing about them`
	}
	if mean := sum / 1000; (mean - base/2).Abs() > base/20 {
		t.Logf("mean %v is off the expected %v", mean, base/2)
	}
}

// A helper that hands the draws to spread.Check: not flagged.
func TestEqualHelper(t *testing.T) {
	var xs []time.Duration
	for range 1000 {
		xs = append(xs, Equal(base))
	}
	checkUniform(t, xs, base/2, base)
}

func checkUniform(t *testing.T, xs []time.Duration, lo, hi time.Duration) {
	t.Helper()
	spread.Check(t, xs, spread.Uniform(lo, hi))
}

// TestFullPinned checks TestFullFixed's distinct count and mean over a source seeded with
// constants: the same draws in every run, so its typed limits are no matter of chance.
func TestFullPinned(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 1000
	distinct := make(map[time.Duration]bool)
	var sum time.Duration
	for range n {
		d := Full(r, base)
		if d < 0 || d >= base {
			t.Fatalf("bounds: delay %v outside [0, %v)", d, base)
		}
		distinct[d] = true
		sum += d
	}
	if len(distinct) < n/2 {
		t.Errorf("distinct: %d of %d", len(distinct), n)
	}
	if mean := sum / n; (mean - base/2).Abs() > base/20 {
		t.Errorf("mean: %v", mean)
	}
}
