package spread

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestUniformClosed: the common formula lo + r.Int64N(hi-lo+1) includes hi. Declared with
// UniformClosed it passes; declared with Uniform its top value fails bounds, as it should.
func TestUniformClosed(t *testing.T) {
	inclusive := func(lo, hi int64) func(r *rand.Rand) int64 {
		return func(r *rand.Rand) int64 { return lo + r.Int64N(hi-lo+1) }
	}
	passesAll(t, "[5, 16]", 5, 1000, inclusive(5, 16), UniformClosed[int64](5, 16))
	r, err := Analyze(draws(1, 1000, inclusive(5, 16)), Uniform[int64](5, 16))
	if err != nil || !find(r, "bounds").Failed || !strings.Contains(r.String(), "at or past the end") {
		t.Errorf("the inclusive formula against a half-open range: %v\n%s", err, r)
	}
	if got := UniformClosed(0, time.Second).String(); got != "Uniform[0s, 1s]" {
		t.Errorf("String() = %s, want Uniform[0s, 1s]", got)
	}
	// Every value of a small type, and all but one value of a 64-bit one (every value: see below).
	passesAll(t, "every uint8", 5, 1000, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) }, UniformClosed[uint8](0, 255))
	passesAll(t, "int64 but MinInt64", 5, 1000, func(r *rand.Rand) int64 {
		return int64(r.Uint64N(math.MaxUint64) + 1)
	}, UniformClosed[int64](math.MinInt64+1, math.MaxInt64))
	// Every value of a 64-bit type was refused: see TestUniformClosedFullRange.
	// A grid of milliseconds, both ends included: 1001 values.
	ms := func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(1001)) * time.Millisecond }
	passesAll(t, "milliseconds in [0s, 1s]", 5, 1000, ms, UniformClosed(0, time.Second).Step(time.Millisecond))
	// A float range with its end: hi itself is in bounds.
	r, err = Analyze([]float64{0, 0.5, 1}, UniformClosed(0.0, 1.0), Only(CheckBounds))
	if err != nil || r.Failed() {
		t.Errorf("1 in [0, 1]: %v\n%s", err, r)
	}
	r, err = Analyze([]float64{0, 0.5, 1}, Uniform(0.0, 1.0), Only(CheckBounds))
	if err != nil || !r.Failed() {
		t.Errorf("1 in [0, 1): %v\n%s", err, r)
	}
	// One value, both ends the same: only bounds can fail.
	r, err = Analyze([]int{7, 7, 7}, UniformClosed(7, 7))
	if err != nil || r.Failed() || r.ran() != 1 {
		t.Errorf("[7, 7]: %v\n%s", err, r)
	}
}
