package spread

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestCalibration runs Check on correct implementations many times, each on its own seed, and
// pins that the observed false-failure rate is at most the requested rate (within the binomial
// spread of the run count) and not wastefully far below it (a rate below alpha/10 would mean the
// budget is spent on nothing and power is lost).
func TestCalibration(t *testing.T) {
	const runs = 10_000
	kinds := []struct {
		name    string
		analyze func(r *rand.Rand, n int, alpha float64) (Report, error)
	}{
		{"continuous float64", func(r *rand.Rand, n int, alpha float64) (Report, error) {
			return Analyze(Draw(n, r.Float64), Uniform(0.0, 1.0), FalseFailureRate(alpha))
		}},
		{"nanoseconds", func(r *rand.Rand, n int, alpha float64) (Report, error) {
			xs := Draw(n, func() time.Duration { return time.Duration(r.Int64N(int64(time.Second))) })
			return Analyze(xs, Uniform(0, time.Second), FalseFailureRate(alpha))
		}},
		{"k = 3", func(r *rand.Rand, n int, alpha float64) (Report, error) {
			return Analyze(Draw(n, func() int { return r.IntN(3) }), Uniform(0, 3), FalseFailureRate(alpha))
		}},
		{"k = 10", func(r *rand.Rand, n int, alpha float64) (Report, error) {
			return Analyze(Draw(n, func() int { return r.IntN(10) }), Uniform(0, 10), FalseFailureRate(alpha))
		}},
	}
	for _, alpha := range []float64{0.05, 0.01} {
		for _, k := range kinds {
			for _, n := range []int{100, 1000} {
				t.Run(fmt.Sprintf("alpha=%g/%s/n=%d", alpha, k.name, n), func(t *testing.T) {
					r := rand.New(rand.NewPCG(uint64(n), uint64(alpha*1e6)))
					fails := 0
					for range runs {
						rep, err := k.analyze(r, n, alpha)
						if err != nil {
							t.Fatal(err)
						}
						if rep.Failed() {
							fails++
						}
					}
					hi := binomialUpper(runs, alpha, 1e-6)
					lo := binomialLower(runs, alpha/10, 1e-6)
					rate := float64(fails) / runs
					t.Logf("| %g | %s | %d | %d/%d = %.4f | %.2f |", alpha, k.name, n, fails, runs, rate, rate/alpha)
					if fails > hi {
						t.Errorf("%d of %d correct runs failed: more than %d, the most a rate of %g allows (binomial, 1e-6)", fails, runs, hi, alpha)
					}
					if fails < lo {
						t.Errorf("%d of %d correct runs failed: fewer than %d, so the rate is below alpha/10 = %g: the budget is wasted", fails, runs, lo, alpha/10)
					}
				})
			}
		}
	}
}

// binomialUpper returns the smallest count c with P(X > c) <= tail for X ~ Binomial(n, p).
func binomialUpper(n int, p, tail float64) int {
	b := distuv.Binomial{N: float64(n), P: p}
	c := 0
	for b.Survival(float64(c)) > tail {
		c++
	}
	return c
}

// binomialLower returns the largest count c with P(X < c) <= tail for X ~ Binomial(n, p).
func binomialLower(n int, p, tail float64) int {
	b := distuv.Binomial{N: float64(n), P: p}
	c := 0
	for b.CDF(float64(c)) <= tail {
		c++
	}
	return c
}
