package sizing

import (
	"math"
	"math/rand/v2"
	"testing"
)

// serialFails draws n positions with draw, computes the lag-1 product sum, and reports whether
// LagProductLimit's check fails.
func serialFails(t *testing.T, r *rand.Rand, n int, sigma2, bias, alpha float64, draw func(r *rand.Rand, prev float64) float64) bool {
	t.Helper()
	u := make([]float64, n)
	prev := 0.5
	for i := range u {
		u[i] = draw(r, prev)
		prev = u[i]
	}
	var s, sq float64
	for i := 0; i+1 < n; i++ {
		s += (u[i] - 0.5) * (u[i+1] - 0.5)
		sq += (u[i] - 0.5) * (u[i] - 0.5)
	}
	lim, _, err := LagProductLimit(n, sq, sigma2, bias, alpha)
	if err != nil {
		t.Fatal(err)
	}
	return math.Abs(s) >= lim
}

// TestLagProductLimitHolds: on independent draws (continuous, on a grid of 8 cells, and within
// a resolution of the uniform) the check fails at most alpha of the time, by seeded
// simulation; on a sequence that follows its predecessor it fails.
func TestLagProductLimitHolds(t *testing.T) {
	const trials = 20_000
	r := rand.New(rand.NewPCG(21, 22))
	cases := []struct {
		name         string
		sigma2, bias float64
		draw         func(r *rand.Rand, prev float64) float64
	}{
		{"continuous", 1.0 / 12, 0, func(r *rand.Rand, _ float64) float64 { return r.Float64() }},
		{"8 cells", 63.0 / (12 * 64), 0, func(r *rand.Rand, _ float64) float64 { return (float64(r.IntN(8)) + 0.5) / 8 }},
		{"resolution 1/64", math.Pow(math.Sqrt(1.0/12)+1.0/64, 2), 1.0 / 64, func(r *rand.Rand, _ float64) float64 { return math.Floor(r.Float64()*64) / 64 }},
	}
	for _, c := range cases {
		for _, n := range []int{3, 20, 200} {
			for _, alpha := range []float64{0.5, 0.1} {
				fails := 0
				for range trials {
					if serialFails(t, r, n, c.sigma2, c.bias, alpha, c.draw) {
						fails++
					}
				}
				if sd := math.Sqrt(alpha * (1 - alpha) / trials); float64(fails)/trials > alpha+5*sd {
					t.Errorf("%s, n = %d: %d of %d independent samples failed at alpha %g", c.name, n, fails, trials, alpha)
				}
			}
		}
	}
	// A sequence that stays near its predecessor fails at 1e-9 by n = 300.
	near := func(r *rand.Rand, prev float64) float64 { return math.Mod(prev+0.1*r.Float64()+1, 1) }
	if !serialFails(t, r, 300, 1.0/12, 0, 1e-9, near) {
		t.Error("a strongly correlated sequence passed")
	}
}

func TestLagProductLimitErrors(t *testing.T) {
	for _, c := range []struct {
		n                          int
		sumSq, sigma2, bias, alpha float64
	}{
		{0, 0, 1.0 / 12, 0, 0.1}, {10, -1, 1.0 / 12, 0, 0.1}, {10, 3, 1.0 / 12, 0, 0.1}, {10, 1, 0, 0, 0.1},
		{10, 1, 0.3, 0, 0.1}, {10, 1, 1.0 / 12, -1, 0.1}, {10, 1, 1.0 / 12, 0, 0}, {10, math.NaN(), 1.0 / 12, 0, 0.1},
	} {
		if _, _, err := LagProductLimit(c.n, c.sumSq, c.sigma2, c.bias, c.alpha); !isInput(err) {
			t.Errorf("LagProductLimit(%+v): %v, want an *InputError", c, err)
		}
	}
}
