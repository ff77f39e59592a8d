package spread

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// Floats with fewer than 53 random bits (issue 8): the distinct check assumed 2^53 equally
// likely floats, so float64(r.Float32()) failed 3% of correct runs at n = 1,000 and 1e-9, and
// d.Seconds() of nanosecond durations failed above its rate at n = 10,000.

// floatSource is a common source of random floats over a declared range, with the largest
// probability pmax of one of its float values there (worked out by hand, and checked below).
type floatSource struct {
	name   string
	n      int
	lo, hi float64
	draw   func(r *rand.Rand) float64
	pmax   float64
}

var floatSources = []floatSource{
	{"float64(r.Float32())", 1000, 0, 1, func(r *rand.Rand) float64 { return float64(r.Float32()) }, 0x1p-24},
	{"d.Seconds() of nanoseconds", 10_000, 0, 1, func(r *rand.Rand) float64 {
		return time.Duration(r.Int64N(int64(time.Second))).Seconds()
	}, 1e-9},
	// 0.5 + u for u = k/2^53: above 1 the floats are 2^-52 apart, and a tie rounds to the even
	// one, which so takes three values of k.
	{"0.5 + r.Float64() over a power of two", 1000, 0.5, 1.5, func(r *rand.Rand) float64 { return 0.5 + r.Float64() }, 3 * 0x1p-53},
}

// TestResolutionBoundsTheRepeats is the proof for each source, computed: the distinct check's
// limit m, at its rate alpha, is met by the source's own repeats, whose tail is at most that
// of w = 1/pmax equally likely values (sizing.RepeatsLimit's coupling), and that tail at m is
// at most alpha.
func TestResolutionBoundsTheRepeats(t *testing.T) {
	for _, src := range floatSources {
		r, err := Analyze(draws(1, src.n, src.draw), Uniform(src.lo, src.hi))
		if err != nil {
			t.Fatalf("%s: %v", src.name, err)
		}
		res := find(r, "distinct")
		m := int(res.Limit)
		p, method, err := sizing.RepeatsTail(1/src.pmax, src.n, m)
		if err != nil || p > res.Alpha {
			t.Errorf("%s: P(R >= %d) = %g (%s, %v) for its %g-probability values, above the check's alpha %g", src.name, m, p, method, err, src.pmax, res.Alpha)
		}
		if r.Failed() {
			t.Errorf("%s: a correct sample failed:\n%s", src.name, r)
		}
	}
}

// TestSourcePmax checks the hand-worked pmax of the sources where it is not the source's own
// resolution: around the floats of 0.5 + k/2^53 in [1, 1.5), no float takes more than three
// neighbouring k (and some take three).
func TestSourcePmax(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	most := 0
	for range 10_000 {
		k := r.Uint64N(1<<53-20) + 1<<52 + 8 // 0.5 + u >= 1
		x := 0.5 + float64(k)/(1<<53)
		same := 0
		for j := k - 4; j <= k+4; j++ {
			if 0.5+float64(j)/(1<<53) == x {
				same++
			}
		}
		most = max(most, same)
	}
	if most != 3 {
		t.Errorf("the most values of k on one float: %d, want 3", most)
	}
}

// TestFloat32SourcePasses: 300 correct runs of float64(r.Float32()) at n = 1,000 all pass (at
// 3% the old sizing failed about nine of them).
func TestFloat32SourcePasses(t *testing.T) {
	src := floatSources[0]
	passesAll(t, src.name, 300, src.n, src.draw, Uniform(0.0, 1.0))
}

// TestFloatStep: a declared resolution makes a float sample discrete on its grid, with exact
// checks: milliseconds in seconds pass with Step(0.001), and fail without it (a thousand
// values is far coarser than a continuous float).
func TestFloatStep(t *testing.T) {
	ms := func(r *rand.Rand) float64 { return time.Duration(r.Int64N(1000) * int64(time.Millisecond)).Seconds() }
	passesAll(t, "milliseconds, Step(0.001)", 5, 1000, ms, Uniform(0.0, 1.0).Step(0.001))
	r, err := Analyze(draws(1, 1000, ms), Uniform(0.0, 1.0))
	if err != nil || !find(r, "distinct").Failed {
		t.Errorf("milliseconds without a Step: distinct passed (%v):\n%s", err, r)
	}
	passesAll(t, "float32, Step(2^-24)", 5, 1000, floatSources[0].draw, Uniform(0.0, 1.0).Step(0x1p-24))
	// Off the grid by half a step: bounds fails, exactly.
	r, err = Analyze([]float64{0.0015, 0.2}, Uniform(0.0, 1.0).Step(0.001), Only(CheckBounds))
	if err != nil || !r.Failed() || !strings.Contains(r.String(), "1 off the grid of step 0.001") {
		t.Errorf("a value off the grid: %v\n%s", err, r)
	}
}

// TestResolutionCost writes what the default resolution costs: the largest number of levels
// L of a quantized float (floor(u L)/L) that the distinct check still rejects on every one of
// 20 seeds at n = 1,000, at its share of the battery's 1e-9, with the default resolution and
// as it would with the 2^53 floats of rand.Float64 assumed. testdata/resolution.md holds it
// (go test -update rewrites it).
func TestResolutionCost(t *testing.T) {
	const n, seeds = 1000, 20
	share, _ := sizing.Bonferroni(defaultFalseFailureRate, len(battery)-1) // every check but bounds
	m53, _, _ := sizing.RepeatsLimit(1<<53, n, share)
	largest := func(rejects func(repeats int, r Report) bool) int {
		best := 0
		for l := 1 << 10; l <= 1<<24; l <<= 1 {
			all := true
			for seed := range uint64(seeds) {
				xs := draws(seed, n, func(r *rand.Rand) float64 { return math.Floor(r.Float64()*float64(l)) / float64(l) })
				r, err := Analyze(xs, Uniform(0.0, 1.0), Only(CheckDistinct), FalseFailureRate(share))
				if err != nil {
					t.Fatal(err)
				}
				if !rejects(int(find(r, "distinct").Value), r) {
					all = false
				}
			}
			if all {
				best = l
			}
		}
		return best
	}
	def := largest(func(_ int, r Report) bool { return r.Failed() })
	full := largest(func(repeats int, _ Report) bool { return repeats >= m53 })
	r, _ := Analyze(draws(1, n, func(r *rand.Rand) float64 { return r.Float64() }), Uniform(0.0, 1.0), Only(CheckDistinct), FalseFailureRate(share))
	var b strings.Builder
	b.WriteString("| float sample, n = 1,000 | fails at repeats >= | coarsest quantization always caught |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| default: each value of probability <= 2^-24 | %d | 2^%d levels |\n", int(find(r, "distinct").Limit), log2(def))
	fmt.Fprintf(&b, "| if 2^53 equally likely floats were assumed | %d | 2^%d levels |\n", m53, log2(full))
	golden.Check(t, filepath.Join("testdata", "resolution.md"), b.String())
}

func log2(x int) int { return int(math.Round(math.Log2(float64(x)))) }
