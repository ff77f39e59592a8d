package spread

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestLatticeCatchesAStuckBit: a source with a stuck middle bit puts the values in every other
// stripe of the range; bounds, distinct values and the mean cannot see it, and until now only
// coverage could, at n = 1,500. The lattice check rejects it at n = 60 on every seed, and passes
// a correct sample.
func TestLatticeCatchesAStuckBit(t *testing.T) {
	stuck := func(r *rand.Rand) time.Duration {
		return time.Duration(float64(r.Uint64()>>11&^(1<<46)) / (1 << 53) * float64(time.Second))
	}
	for seed := range uint64(20) {
		r, err := Analyze(draws(seed, 60, stuck), Uniform(0, time.Second), Only(CheckLattice))
		if err != nil || !r.Failed() {
			t.Fatalf("seed %d: the stuck bit passed (%v):\n%s", seed, err, r)
		}
		if d := r.Diagnosis(); !slices.Contains(d, SuspectQuantized) {
			t.Errorf("seed %d: Diagnosis %v", seed, d)
		}
	}
	passesAll(t, "a correct sample", 20, 60, func(r *rand.Rand) time.Duration {
		return time.Duration(r.Int64N(int64(time.Second)))
	}, Uniform(0, time.Second), Only(CheckLattice))
}

// TestLatticeSeesFewRandomBits: declared on a fine grid (Step(2^-47), the finest float64
// resolves near 1 with room to spare), a float32 widened to float64 leaves 15 of its 39 digits
// still, and a 16-bit generator 23: a handful of values shows either (the likelihood-ratio test,
// which knows the 16-bit lattice, needs 3).
func TestLatticeSeesFewRandomBits(t *testing.T) {
	grid := Step(0x1p-47)
	for _, c := range []struct {
		name string
		n    int
		draw func(r *rand.Rand) float64
	}{
		{"float32", 8, func(r *rand.Rand) float64 { return float64(r.Float32()) }},
		{"16 bits", 4, func(r *rand.Rand) float64 { return float64(r.Uint64()>>48) / (1 << 16) }},
	} {
		for seed := range uint64(20) {
			r, err := Analyze(draws(seed, c.n, c.draw), Uniform(0.0, 1.0), grid, Only(CheckLattice))
			if err != nil || !r.Failed() {
				t.Fatalf("%s, seed %d: passed as 47 bits (%v):\n%s", c.name, seed, err, r)
			}
		}
	}
	passesAll(t, "47 random bits on their grid", 20, 8, func(r *rand.Rand) float64 { return float64(r.Uint64()>>17) / (1 << 47) },
		Uniform(0.0, 1.0), grid, Only(CheckLattice))
}

// TestLatticeSkips: too few values to read digits from, or a declaration without a range.
func TestLatticeSkips(t *testing.T) {
	for _, c := range []struct {
		name string
		r    func() (Report, error)
	}{
		{"100 values", func() (Report, error) { return Analyze(Draw(100, func() int { return 3 }), Uniform(0, 100)) }},
		{"a normal", func() (Report, error) {
			return Analyze(draws(1, 100, func(r *rand.Rand) float64 { return r.NormFloat64() }), Continuous(distuv.UnitNormal))
		}},
	} {
		r, err := c.r()
		if err != nil {
			t.Fatal(err)
		}
		if find(r, "lattice").Skipped == "" {
			t.Errorf("%s: the lattice check ran:\n%s", c.name, r)
		}
	}
}
