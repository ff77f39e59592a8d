package spread

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestContinuousDistributions(t *testing.T) {
	normal := distuv.Normal{Mu: 10, Sigma: 2}
	beta := distuv.Beta{Alpha: 2, Beta: 5}
	expo := distuv.Exponential{Rate: 3}
	cases := []struct {
		name     string
		want     Dist[float64]
		draw     func(r *rand.Rand) float64
		fail     bool
		skipped  []SampleCheck // checks that must be skipped, with a reason
		mustFail []string
	}{
		{"normal", Continuous(normal), func(r *rand.Rand) float64 { return 10 + 2*r.NormFloat64() }, false,
			[]SampleCheck{CheckDistinct, CheckMean}, nil},
		{"normal, shifted by one sd", Continuous(normal), func(r *rand.Rand) float64 { return 12 + 2*r.NormFloat64() }, true,
			nil, []string{"fit/ks", "fit/tails"}},
		{"normal, sd halved", Continuous(normal), func(r *rand.Rand) float64 { return 10 + r.NormFloat64() }, true,
			nil, []string{"fit/ks", "fit/tails"}},
		{"beta(2, 5)", Continuous(beta), func(r *rand.Rand) float64 { return betaDraw(r, 2, 5) }, false, nil, nil},
		{"beta(2, 5) drawn as beta(5, 2)", Continuous(beta), func(r *rand.Rand) float64 { return betaDraw(r, 5, 2) }, true,
			nil, []string{"mean", "fit/ks", "fit/tails"}},
		{"exponential", Continuous(expo), func(r *rand.Rand) float64 { return r.ExpFloat64() / 3 }, false,
			[]SampleCheck{CheckMean}, nil},
		{"exponential, negative values", Continuous(expo), func(r *rand.Rand) float64 { return -r.ExpFloat64() / 3 }, true,
			nil, []string{"bounds"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(5) {
				xs := draws(seed, 1000, c.draw)
				r, err := Analyze(xs, c.want)
				if err != nil {
					t.Fatal(err)
				}
				if r.Failed() != c.fail {
					t.Fatalf("seed %d: Failed() = %v, want %v\n%s", seed, r.Failed(), c.fail, r)
				}
				for _, name := range c.skipped {
					if res := find(r, string(name)); res.Skipped == nil {
						t.Errorf("%s ran; want it skipped with a reason", name)
					}
				}
				for _, name := range c.mustFail {
					if !find(r, name).Failed {
						t.Errorf("%s passed; want it to fail\n%s", name, r)
					}
				}
			}
		})
	}
}

func find(r Report, name string) Result {
	for _, res := range r.Results {
		if res.Name() == name {
			return res
		}
	}
	return Result{}
}

// betaDraw draws from Beta(a, b) for whole a, b: the a-th smallest of a+b-1 uniforms.
func betaDraw(r *rand.Rand, a, b int) float64 {
	us := make([]float64, a+b-1)
	for i := range us {
		us[i] = r.Float64()
	}
	for i := range a {
		for j := i + 1; j < len(us); j++ {
			if us[j] < us[i] {
				us[i], us[j] = us[j], us[i]
			}
		}
	}
	return us[a-1]
}

func TestContinuousBadDeclarations(t *testing.T) {
	if _, err := Analyze([]float64{1}, Continuous[float64](nil)); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Continuous(nil): err = %v", err)
	}
}

// TestContinuousNarrowerThanFloats: a Normal whose sigma lies below the spacing of the floats
// at its mean puts every draw on a few floats; its correct samples failed coverage, fit and
// tails as a collapsed range (FuzzCorrect found Normal{Mu: 1.57e-190, Sigma: 5.2e-312}). Such
// a declaration is now an error that says why, as a Uniform over too few floats is, and a
// Normal a few thousand floats wide still passes.
func TestContinuousNarrowerThanFloats(t *testing.T) {
	for _, d := range []distuv.Normal{{Mu: 1e6, Sigma: 1e-12}, {Mu: 1.5743547475690148e-190, Sigma: 5.180653791477e-312}} {
		xs := Draw(1000, func() float64 { return d.Mu + d.Sigma*0 })
		if _, err := Analyze(xs, Continuous(d)); err == nil || !strings.Contains(err.Error(), "too narrow for the float64 values near it") {
			t.Errorf("Normal(%g, %g): %v, want the error of a distribution narrower than its floats", d.Mu, d.Sigma, err)
		}
	}
	// 8,600 floats per sigma: each carries up to 5e-5 of the probability, and one draw in
	// about 20,000 lands on Mu itself, at distance 0 from the middle, which fit/spread took for
	// a spread too narrow in 6% of correct samples of 1,000. The positions are widened by the
	// resolution, as a Uniform's are.
	for seed := range uint64(60) {
		d := distuv.Normal{Mu: 1e6, Sigma: 1e-6, Src: rand.NewPCG(seed, 9)}
		if r, err := Analyze(Draw(1000, d.Rand), Continuous(d)); err != nil || r.Failed() {
			t.Fatalf("Normal(1e6, 1e-6), seed %d: %v\n%s", seed, err, r)
		}
	}
}
