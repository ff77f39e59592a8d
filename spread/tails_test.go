package spread

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// heavyEnds is full jitter over [0, 1s) with its ends overweighted (power_test.go's harder
// variant): it keeps the range, the mean and the symmetry; Kolmogorov-Smirnov, which weighs a
// deviation near an end no more than one in the middle, needed 5,437 values to see it, the
// likelihood-ratio test 769.
var heavyEnds = harder[slices.IndexFunc(harder, func(b brokenJitter) bool { return b.name == "ends overweighted (10% in each 5% end)" })].make(specs[0])

// TestFitSeesHeavyEnds: at n = 1,200 the distances from the middle show the heavy ends on
// every seed, where Kolmogorov-Smirnov passes them; a correct sample passes both.
func TestFitSeesHeavyEnds(t *testing.T) {
	for seed := range uint64(20) {
		r, err := Analyze(draws(seed, 1200, heavyEnds), Uniform(0, time.Second), Only(CheckFit))
		if err != nil {
			t.Fatal(err)
		}
		if spread := find(r, "fit/spread"); !spread.Failed || find(r, "fit/ks").Failed {
			t.Fatalf("seed %d: want fit/spread alone to fail:\n%s", seed, r)
		} else if !slices.Contains(spread.Suspects, SuspectWrongShape) {
			t.Errorf("seed %d: suspects %v", seed, spread.Suspects)
		}
	}
	passesAll(t, "a correct sample", 20, 1200, func(r *rand.Rand) time.Duration {
		return time.Duration(r.Int64N(int64(time.Second)))
	}, Uniform(0, time.Second), Only(CheckFit))
}

// TestFitTailsSeeOneHeavyEnd: a third of the values in the lowest tenth, the rest above it.
func TestFitTailsSeeOneHeavyEnd(t *testing.T) {
	lowHeavy := func(r *rand.Rand) float64 {
		if r.IntN(3) == 0 {
			return 0.1 * r.Float64()
		}
		return 0.1 + 0.9*r.Float64()
	}
	for seed := range uint64(20) {
		r, err := Analyze(draws(seed, 300, lowHeavy), Uniform(0.0, 1.0), Only(CheckFit))
		if err != nil || !find(r, "fit/tails").Failed {
			t.Fatalf("seed %d: %v\n%s", seed, err, r)
		}
	}
}

// TestFitTailsSkipCoarseGrids: on a grid of fewer than 1024 values, or against a discrete
// distribution, each position is known only to within a wide cell: the order-statistic tails
// do not run and Kolmogorov-Smirnov keeps the whole rate of the fit check.
func TestFitTailsSkipCoarseGrids(t *testing.T) {
	r, err := Analyze(draws(1, 500, func(r *rand.Rand) int { return r.IntN(1000) }), Uniform(0, 1000), Only(CheckFit))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 1 || r.Results[0].Name() != "fit/ks" || r.Results[0].Alpha != r.FalseFailureRate {
		t.Errorf("1000 values: %v", r.Results)
	}
	r, err = Analyze(draws(1, 500, func(r *rand.Rand) int { return r.IntN(1024) }), Uniform(0, 1024), Only(CheckFit))
	if err != nil || len(r.Results) != 3 {
		t.Errorf("1024 values: %v, %v", r.Results, err)
	}
}

// TestFoldedBounds: each value's distance from the middle lies within the bounds of its
// interval, so the bounds at each rank bound the sorted distances, whatever the intervals.
func TestFoldedBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 80).Draw(t, "n")
		w := rapid.SampledFrom([]float64{0, 1e-3, 0.1}).Draw(t, "w")
		u := make([]float64, n)
		for i := range u {
			u[i] = rapid.SampledFrom([]float64{rapid.Float64Range(0, 1).Draw(t, "u"), 0.5, 0.5 - w/2, 0, 1}).Draw(t, "pick")
		}
		slices.Sort(u)
		bounds := func(r int) (float64, float64) { return clamp01(u[r-1] - w), clamp01(u[r-1] + w) }
		ranks := make([]int, n)
		for i := range ranks {
			ranks[i] = i + 1
		}
		folded := foldedBounds(n, bounds, ranks)
		d := make([]float64, n)
		for i, x := range u {
			d[i] = math.Abs(2*x - 1)
		}
		slices.Sort(d)
		pl, pu := 0.0, 0.0
		for i := range d {
			l, h := folded(i + 1)
			if d[i] < l-1e-15 || d[i] > h+1e-15 || l < pl || h < pu {
				t.Fatalf("rank %d: distance %g outside [%g, %g] (after [%g, %g])", i+1, d[i], l, h, pl, pu)
			}
			pl, pu = l, h
		}
	})
}
