package spread

import (
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

// TestAnalyzeNeverPanics feeds Analyze arbitrary samples, ranges and rates, NaN and infinities
// included: it must answer with a report or an error, never panic or return neither.
func TestAnalyzeNeverPanics(t *testing.T) {
	special := rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, math.MaxFloat64, math.SmallestNonzeroFloat64})
	value := rapid.OneOf(rapid.Float64(), special)
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(value, 0, 300).Draw(t, "xs")
		lo := value.Draw(t, "lo")
		hi := value.Draw(t, "hi")
		alpha := rapid.OneOf(rapid.Float64Range(-1, 2), special).Draw(t, "alpha")
		r, err := Analyze(xs, Uniform(lo, hi), FalseFailureRate(alpha))
		if err == nil && len(r.Results) == 0 {
			t.Fatalf("no error and no results")
		}
		if err != nil && err.Error() == "" {
			t.Fatalf("an empty error")
		}
		_ = r.String()
	})
}

// TestGeneralDistributionsNeverPanic feeds gonum distributions with arbitrary parameters,
// nonsense ones included.
func TestGeneralDistributionsNeverPanic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(rapid.Float64Range(-10, 50), 1, 200).Draw(t, "xs")
		p := rapid.Float64Range(-2, 20).Draw(t, "parameter")
		dists := []Dist[float64]{
			Discrete[float64](distuv.Poisson{Lambda: p}),
			Discrete[float64](distuv.Binomial{N: math.Round(p), P: 0.5}),
			Continuous(distuv.Normal{Mu: p, Sigma: p / 4}),
			Continuous(distuv.Exponential{Rate: p}),
		}
		d := dists[rapid.IntRange(0, len(dists)-1).Draw(t, "dist")]
		r, err := Analyze(xs, d)
		if err == nil && len(r.Results) == 0 {
			t.Fatalf("no error and no results")
		}
		_ = r.String()
	})
}

// TestIntegerSamplesNeverPanic does the same for durations, with steps.
func TestIntegerSamplesNeverPanic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(rapid.Int64(), 0, 300).Draw(t, "xs")
		ds := make([]time.Duration, len(xs))
		for i, x := range xs {
			ds[i] = time.Duration(x)
		}
		lo := time.Duration(rapid.Int64().Draw(t, "lo"))
		hi := time.Duration(rapid.Int64().Draw(t, "hi"))
		step := time.Duration(rapid.Int64Range(-5, 1e6).Draw(t, "step"))
		r, err := Analyze(ds, Uniform(lo, hi).Step(step))
		if err == nil && len(r.Results) == 0 {
			t.Fatalf("no error and no results")
		}
		_ = r.String()
	})
}

// TestFailureIsMonotoneInTheRate pins that a sample failing at one false-failure rate fails at
// every larger one: every limit tightens as the rate grows.
func TestFailureIsMonotoneInTheRate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(60, 400).Draw(t, "n")
		shrink := rapid.Float64Range(0.3, 1).Draw(t, "shrink")
		xs := rapid.SliceOfN(rapid.Float64Range(0, shrink), n, n).Draw(t, "xs")
		a1 := math.Pow(10, -rapid.Float64Range(2, 12).Draw(t, "-log10 a1"))
		a2 := math.Min(0.5, a1*math.Pow(10, rapid.Float64Range(0, 6).Draw(t, "log10 a2/a1")))
		r1, err1 := Analyze(xs, Uniform(0.0, 1.0), FalseFailureRate(a1))
		r2, err2 := Analyze(xs, Uniform(0.0, 1.0), FalseFailureRate(a2))
		if err1 != nil || err2 != nil {
			return // too small at the smaller rate: nothing to compare
		}
		if r1.Failed() && !r2.Failed() {
			t.Fatalf("fails at %g but passes at %g:\n%s\n%s", a1, a2, r1, r2)
		}
	})
}
