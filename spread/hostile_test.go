package spread

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// Hostile input: sizes beyond memory, zero values and nil tests. Each test here crashed or
// panicked without a message before.

// panicOf returns the message of f's panic, or "no panic".
func panicOf(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
		}
	}()
	f()
	return "no panic"
}

// Draw(math.MaxInt64, f) panicked in makeslice ("len out of range"), and 1<<40 would have
// run out of memory: a size past the limit panics with a message that names it.
func TestDrawBeyondMemory(t *testing.T) {
	for _, n := range []int{math.MaxInt64, 1 << 40, 1<<26 + 1} {
		msg := panicOf(func() { Draw(n, func() int { return 0 }) })
		if !strings.HasPrefix(msg, "spread.Draw(") || !strings.Contains(msg, "at most 67108864") {
			t.Errorf("Draw(%d, f) panicked with %q, want a message that names the limit", n, msg)
		}
	}
	if got := len(Draw(1<<10, func() int { return 0 })); got != 1<<10 {
		t.Errorf("Draw(1024, f) made %d values", got)
	}
}

// NewFleetStream(1<<40, ...) panicked in makeslice, where it returns an error for 0;
// AnalyzeFleet takes the same limit, 1<<20 loops (their state alone, 384 bytes a loop, is
// 400 MB there).
func TestFleetBeyondMemory(t *testing.T) {
	for _, n := range []int{1 << 40, math.MaxInt, 1<<20 + 1} {
		if _, err := NewFleetStream(n, Ticker(sec), 10*sec); err == nil || !strings.Contains(err.Error(), "at most 1048576") {
			t.Errorf("NewFleetStream(%d, ...) = %v, want an error that names the limit", n, err)
		}
	}
}

// The zero FleetStream, and a nil one, dereferenced nil in Add and Report.
func TestZeroFleetStream(t *testing.T) {
	var zero FleetStream
	var null *FleetStream
	for name, f := range map[string]*FleetStream{"the zero FleetStream": &zero, "a nil *FleetStream": null} {
		if err := f.Add(0, 0); err == nil || !strings.Contains(err.Error(), "NewFleetStream") {
			t.Errorf("%s: Add(0, 0) = %v, want an error that says to use NewFleetStream", name, err)
		}
		if _, err := f.Report(); err == nil || !strings.Contains(err.Error(), "NewFleetStream") {
			t.Errorf("%s: Report() = %v, want an error that says to use NewFleetStream", name, err)
		}
	}
}

// Every function that takes a testing.TB dereferenced a nil one with no word of why.
func TestNilTest(t *testing.T) {
	var nilT *testing.T
	xs := []float64{0.5}
	for call, f := range map[string]func(){
		"Rand(nil)":               func() { Rand(nil) },
		"Rand(t)":                 func() { Rand(nilT) },
		"replayCommand(nil, ...)": func() { replayCommand(nil, 0) },
		"replayCommand(t, ...)":   func() { replayCommand(nilT, 0) },
		"Check(nil, ...)":         func() { Check(nil, xs, Uniform(0.0, 1.0)) },
		"Check(t, ...)":           func() { Check(nilT, xs, Uniform(0.0, 1.0)) },
		"CheckLoop(nil, ...)":     func() { CheckLoop(nil, nil, Ticker(sec), sec) },
		"CheckFleet(nil, ...)":    func() { CheckFleet(nil, nil, Ticker(sec), sec) },
	} {
		msg := panicOf(f)
		if !strings.HasPrefix(msg, "spread."+call) || !strings.Contains(msg, "pass the test's t") {
			t.Errorf("%s panicked with %q, want a message that names the call and says what to pass", call, msg)
		}
	}
}

// The generator Rand returns is not safe to share between goroutines (its doc said "safe for
// concurrent use", and now says so); the documented way, a Rand per goroutine, is race-free
// under -race and replays: the goroutines get the test's first four streams, whatever the
// order in which they call Rand.
func TestRandPerGoroutine(t *testing.T) {
	var mu sync.Mutex
	got, want := map[uint64]bool{}, map[uint64]bool{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			x := sum(Rand(t))
			mu.Lock()
			got[x] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	seeds.Lock()
	seed := seeds.tests[t.Name()].seed
	seeds.Unlock()
	for k := range 4 {
		want[sum(rand.New(rand.NewPCG(seed, streamOf(t.Name(), k))))] = true
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("four goroutines, each with its own Rand, drew %v, want the test's first four streams %v", got, want)
	}
}

// sum folds a thousand draws of r into one number.
func sum(r *rand.Rand) uint64 {
	var x uint64
	for range 1000 {
		x = x*31 + r.Uint64()
	}
	return x
}

// UniformClosed(0, math.MaxUint64), every uint64, was refused ("2^64 of them, one more than
// a uint64 counts"), and so was every closed declaration of a whole 64-bit type. It is
// checked now: correct samples pass (r.Uint64(), and r.Int64() cast to int64's whole range),
// and a constant and a sample squeezed into the lower half fail. (A sample stuck on even
// values passes, as it does against Uniform(0, math.MaxUint64): the lattice check reads the
// first 55 binary digits of a position.)
func TestUniformClosedFullRange(t *testing.T) {
	full := UniformClosed(uint64(0), math.MaxUint64)
	passesAll(t, full.String(), 20, 1000, func(r *rand.Rand) uint64 { return r.Uint64() }, full)
	signed := UniformClosed(int64(math.MinInt64), math.MaxInt64)
	passesAll(t, signed.String(), 20, 1000, func(r *rand.Rand) int64 { return int64(r.Uint64()) }, signed)
	durations := UniformClosed(time.Duration(math.MinInt64), math.MaxInt64)
	passesAll(t, durations.String(), 5, 1000, func(r *rand.Rand) time.Duration { return time.Duration(r.Uint64()) }, durations)
	failsConstant(t, full.String(), uint64(1<<63), full)
	failsConstant(t, full.String(), math.MaxUint64, full)
	for name, draw := range map[string]func(r *rand.Rand) uint64{
		"a quarter":      func(r *rand.Rand) uint64 { return r.Uint64() >> 2 },
		"the lower half": func(r *rand.Rand) uint64 { return r.Uint64() >> 1 },
	} {
		r, err := Analyze(draws(1, 1000, draw), full)
		if err != nil || !r.Failed() {
			t.Errorf("%s on %s: passed (%v):\n%s", name, full, err, r)
		}
	}
}
