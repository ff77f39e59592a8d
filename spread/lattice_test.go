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
	grid := Uniform(0.0, 1.0).Step(0x1p-47)
	for _, c := range []struct {
		name string
		n    int
		draw func(r *rand.Rand) float64
	}{
		{"float32", 8, func(r *rand.Rand) float64 { return float64(r.Float32()) }},
		{"16 bits", 4, func(r *rand.Rand) float64 { return float64(r.Uint64()>>48) / (1 << 16) }},
	} {
		for seed := range uint64(20) {
			r, err := Analyze(draws(seed, c.n, c.draw), grid, Only(CheckLattice))
			if err != nil || !r.Failed() {
				t.Fatalf("%s, seed %d: passed as 47 bits (%v):\n%s", c.name, seed, err, r)
			}
		}
	}
	passesAll(t, "47 random bits on their grid", 20, 8, func(r *rand.Rand) float64 { return float64(r.Uint64()>>17) / (1 << 47) },
		grid, Only(CheckLattice))
}

// TestLatticeGridSeesA16BitGenerator: a 16-bit generator scaled to nanoseconds over a second,
// floor(k 10^9 / 2^16), fixes no binary digit of the positions (a 127 in 128 of them end in a
// run of ones, the rest in zeros), so the stuck digits cannot see it and the distinct check
// needed 986 values; its values all lie within a nanosecond of the grid of 2^16 points, which
// three correct values do with probability (2^17/10^9)^3 = 2.3e-12. The grid statistic rejects
// it from three values on every seed, a float32 on its float grid from two, and passes correct
// samples of three.
func TestLatticeGridSeesA16BitGenerator(t *testing.T) {
	sixteen := func(r *rand.Rand) time.Duration { return time.Duration(r.Uint64N(1<<16) * 1e9 >> 16) }
	for seed := range uint64(20) {
		r, err := Analyze(draws(seed, 3, sixteen), Uniform(0, time.Second), Only(CheckLattice))
		if err != nil || !find(r, "lattice/grid").Failed || find(r, "lattice/digits").Failed {
			t.Fatalf("seed %d: %v\n%s", seed, err, r)
		}
		if d := r.Diagnosis(); !slices.Contains(d, SuspectQuantized) {
			t.Errorf("seed %d: Diagnosis %v", seed, d)
		}
	}
	passesAll(t, "a correct sample", 50, 3, func(r *rand.Rand) time.Duration {
		return time.Duration(r.Int64N(int64(time.Second)))
	}, Uniform(0, time.Second), Only(CheckLattice))
	for seed := range uint64(20) {
		r, err := Analyze(draws(seed, 2, func(r *rand.Rand) float64 { return float64(r.Float32()) }), Uniform(0.0, 1.0).Step(0x1p-47), Only(CheckLattice))
		if err != nil || !find(r, "lattice/grid").Failed {
			t.Fatalf("float32, seed %d: %v\n%s", seed, err, r)
		}
	}
}

// TestLatticeGridOnFloats: without a Step, a float sample is allowed its resolution (2^-24
// and some on [0, 1)); a 16-bit generator's floats still sit on the grid of 2^16 points, which
// 6 values of that resolution do with probability at most (2^18 res)^6 = 6.9e-11, and a
// float32, whose grid is as fine as the resolution, passes, as it must.
func TestLatticeGridOnFloats(t *testing.T) {
	for seed := range uint64(20) {
		r, err := Analyze(draws(seed, 6, func(r *rand.Rand) float64 { return float64(r.Uint64()>>48) / (1 << 16) }), Uniform(0.0, 1.0), Only(CheckLattice))
		if err != nil || !find(r, "lattice/grid").Failed {
			t.Fatalf("seed %d: %v\n%s", seed, err, r)
		}
	}
	passesAll(t, "float32", 50, 50, func(r *rand.Rand) float64 { return float64(r.Float32()) }, Uniform(0.0, 1.0), Only(CheckLattice))
	passesAll(t, "float64", 50, 50, func(r *rand.Rand) float64 { return r.Float64() }, Uniform(0.0, 1.0), Only(CheckLattice))
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
		if find(r, "lattice").Skipped == nil || find(r, "lattice/grid").Name() != "" {
			t.Errorf("%s: the lattice check ran:\n%s", c.name, r)
		}
	}
}
