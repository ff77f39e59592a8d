package benchspread

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spreadcheck/spreadcheck/spread"
)

var sizes = []int{1_000, 1_000_000}

// BenchmarkSpread times, per sample type and size, spread.Analyze, its first call at a new n,
// the floor and gonum's distance, interleaved in rounds (see the package comment): each
// line's -ns and -B metrics are one computation's mean time and bytes per call.
func BenchmarkSpread(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("duration/n=%d", n), func(b *testing.B) {
			xs := draw(n, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(time.Second))) })
			rounds(b, xs, spread.Uniform(0, time.Second), distuv.Uniform{Min: 0, Max: float64(time.Second)})
		})
		b.Run(fmt.Sprintf("float64/n=%d", n), func(b *testing.B) {
			xs := draw(n, func(r *rand.Rand) float64 { return r.Float64() })
			rounds(b, xs, spread.Uniform(0.0, 1.0), distuv.Uniform{Min: 0, Max: 1})
		})
	}
}

// draw returns n values of a correct generator on a fixed seed.
func draw[T any](n int, f func(*rand.Rand) T) []T {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]T, n)
	for i := range xs {
		xs[i] = f(r)
	}
	return xs
}

// fresh counts the first calls, so that each is at an n no call has sized before.
var fresh atomic.Int64

// A contender is one computation of a round, with its time and bytes summed over the rounds.
type contender struct {
	name     string
	run      func(b *testing.B)
	ns, byts float64
}

// rounds runs the contenders once per round, in an order that rotates from one round to the
// next, and reports each one's mean time and bytes per round.
func rounds[T spread.Number](b *testing.B, xs []T, want spread.Dist[T], u distuv.Uniform) {
	analyze(b, xs, want) // size the limits at n before the timed rounds
	cs := []*contender{
		{name: "analyze", run: func(b *testing.B) { analyze(b, xs, want) }},
		{name: "first", run: func(b *testing.B) { analyze(b, xs[:len(xs)-int(fresh.Add(1))], want) }},
		{name: "floor", run: func(*testing.B) { floor(xs) }},
		{name: "gonum", run: func(*testing.B) { ksGonum(xs, u) }},
	}
	round := 0
	for b.Loop() {
		for i := range cs {
			c := cs[(round+i)%len(cs)]
			ns, byts := measure(b, c.run)
			c.ns += ns
			c.byts += byts
		}
		round++
	}
	for _, c := range cs {
		b.ReportMetric(c.ns/float64(round), c.name+"-ns")
		b.ReportMetric(c.byts/float64(round), c.name+"-B")
	}
}

// measure returns the wall time of one call of f and the bytes it allocated.
func measure(b *testing.B, f func(*testing.B)) (ns, byts float64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f(b)
	ns = float64(time.Since(start).Nanoseconds())
	runtime.ReadMemStats(&after)
	return ns, float64(after.TotalAlloc - before.TotalAlloc)
}

// analyze runs the default battery, and stops the benchmark if it does not pass: a correct
// sample that fails would time a failure report, not the checks.
func analyze[T spread.Number](b *testing.B, xs []T, want spread.Dist[T]) {
	r, err := spread.Analyze(xs, want)
	if err != nil || r.Failed() {
		b.Fatalf("spread.Analyze on %d correct values: %v\n%v", len(xs), err, r)
	}
}

var sink float64

// floor copies the sample and sorts the copy.
func floor[T spread.Number](xs []T) {
	s := slices.Clone(xs)
	slices.Sort(s)
	sink = float64(s[len(s)/2])
}

// ksGonum computes the one-sample Kolmogorov-Smirnov distance D between the sample and the
// uniform distribution u: the largest gap between the sample's CDF and u's.
func ksGonum[T spread.Number](xs []T, u distuv.Uniform) {
	s := make([]float64, len(xs))
	for i, x := range xs {
		s[i] = float64(x)
	}
	sort.Float64s(s)
	n := float64(len(s))
	d := 0.0
	for i, x := range s {
		c := u.CDF(x)
		d = max(d, float64(i+1)/n-c, c-float64(i)/n)
	}
	sink = d
}
