package spread

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// poisson draws from Poisson(lambda) by Knuth's product of uniforms.
func poisson(r *rand.Rand, lambda float64) int {
	limit, k, p := math.Exp(-lambda), 0, r.Float64()
	for p > limit {
		k++
		p *= r.Float64()
	}
	return k
}

func binomial(r *rand.Rand, n int, p float64) int {
	k := 0
	for range n {
		if r.Float64() < p {
			k++
		}
	}
	return k
}

func TestDiscreteDistributions(t *testing.T) {
	cases := []struct {
		name     string
		want     Dist[int]
		draw     func(r *rand.Rand) int
		fail     bool
		mustFail []string
	}{
		{"poisson(4)", Discrete[int](distuv.Poisson{Lambda: 4}), func(r *rand.Rand) int { return poisson(r, 4) }, false, nil},
		{"poisson(4) drawn as poisson(5)", Discrete[int](distuv.Poisson{Lambda: 4}), func(r *rand.Rand) int { return poisson(r, 5) }, true,
			[]string{"fit/ks"}},
		{"poisson(4), constant 4", Discrete[int](distuv.Poisson{Lambda: 4}), func(*rand.Rand) int { return 4 }, true,
			[]string{"coverage/min", "coverage/max", "fit/ks"}},
		{"poisson(4), negative", Discrete[int](distuv.Poisson{Lambda: 4}), func(r *rand.Rand) int { return -poisson(r, 4) }, true,
			[]string{"bounds"}},
		{"binomial(10, 0.3)", Discrete[int](distuv.Binomial{N: 10, P: 0.3}), func(r *rand.Rand) int { return binomial(r, 10, 0.3) }, false, nil},
		{"binomial(10, 0.3) drawn as binomial(20, 0.5)", Discrete[int](distuv.Binomial{N: 10, P: 0.3}), func(r *rand.Rand) int { return binomial(r, 20, 0.5) }, true,
			[]string{"bounds", "fit/ks"}},
		{"bernoulli(0.5)", Discrete[int](distuv.Bernoulli{P: 0.5}), func(r *rand.Rand) int { return r.IntN(2) }, false, nil},
		{"bernoulli(0.5), read from a clock", Discrete[int](distuv.Bernoulli{P: 0.5}), func() func(*rand.Rand) int {
			i := 0
			return func(*rand.Rand) int { i++; return i % 2 }
		}(), true, []string{"independence/turning-points"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(5) {
				r, err := Analyze(draws(seed, 1000, c.draw), c.want)
				if err != nil {
					t.Fatal(err)
				}
				if r.Failed() != c.fail {
					t.Fatalf("seed %d: Failed() = %v, want %v\n%s", seed, r.Failed(), c.fail, r)
				}
				for _, name := range c.mustFail {
					if !find(r, name).Failed {
						t.Errorf("%s passed; want it to fail\n%s", name, r)
					}
				}
				for _, name := range []string{"distinct", "mean", "coverage/range"} {
					if find(r, name).Skipped == nil {
						t.Errorf("%s ran; want it skipped with a reason", name)
					}
				}
			}
		})
	}
}

func TestDiscreteRejectsWholeNumbersOnly(t *testing.T) {
	r, err := Analyze([]float64{1, 2.5, 3}, Discrete[float64](distuv.Poisson{Lambda: 2}), Only(CheckBounds))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Failed() {
		t.Errorf("2.5 from a Poisson passed the bounds check:\n%s", r)
	}
	if _, err := Analyze([]int{1}, Discrete[int](nil)); err == nil {
		t.Errorf("Discrete(nil) was accepted")
	}
}

// TestDiscreteCalibration pins the false-failure rate of the battery on Poisson samples.
func TestDiscreteCalibration(t *testing.T) {
	const runs, alpha = 4000, 0.05
	r := rand.New(rand.NewPCG(11, 12))
	fails := 0
	for range runs {
		rep, err := Analyze(Draw(200, func() int { return poisson(r, 3) }), Discrete[int](distuv.Poisson{Lambda: 3}), FalseFailureRate(alpha))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Failed() {
			fails++
		}
	}
	t.Logf("Poisson(3), n = 200: %d of %d failed at alpha %g (%.2f alpha)", fails, runs, alpha, float64(fails)/runs/alpha)
	if hi := binomialUpper(runs, alpha, 1e-6); fails > hi {
		t.Errorf("%d of %d correct runs failed, more than %d", fails, runs, hi)
	}
}

// TestDiagnosisIsTyped: Diagnosis parsed its own prose and returned "wrong" for values of
// probability zero; it returns typed suspects, and every one it can return is in Suspects.
func TestDiagnosisIsTyped(t *testing.T) {
	r, err := Analyze([]int{-1, -2, 3, 4, 5, 2, 1, 3}, Discrete[int](distuv.Poisson{Lambda: 3}), Only(CheckBounds))
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Diagnosis(); !slices.Equal(d, []Suspect{SuspectWrongShape}) {
		t.Errorf("values of probability zero: Diagnosis = %v, want [wrong-shape]", d)
	}
	if d := (Report{}).Diagnosis(); d != nil {
		t.Errorf("nothing failed: Diagnosis = %v, want nil", d)
	}
}
