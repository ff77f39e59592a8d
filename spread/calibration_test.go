package spread

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// unixNano is a fixed instant as nanoseconds since 1970 (2026-01-01): samples of
// now.UnixNano() + jitter live there, beyond float64's integers.
const unixNano = int64(1767225600) * int64(time.Second)

// percentWait is the i-th of 21 waits of a percent formula, base*(90+i)/100 for a base of
// 1.337s: values on no exact grid.
func percentWait(i int) time.Duration { return 1337 * time.Millisecond * time.Duration(90+i) / 100 }

// percentWaits lists the 21 waits.
var percentWaits = func() (out []time.Duration) {
	for i := range 21 {
		out = append(out, percentWait(i))
	}
	return out
}()

// calibrationKind is one kind of correct sample: analyze draws n values with r and checks them
// at alpha.
type calibrationKind struct {
	name    string
	analyze func(r *rand.Rand, n int, alpha float64) (Report, error)
}

var calibrationKinds = []calibrationKind{
	{"continuous float64", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, r.Float64), Uniform(0.0, 1.0), FalseFailureRate(alpha))
	}},
	{"float64 of a float32", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() float64 { return float64(r.Float32()) }), Uniform(0.0, 1.0), FalseFailureRate(alpha))
	}},
	{"seconds of nanoseconds", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		xs := Draw(n, func() float64 { return time.Duration(r.Int64N(int64(time.Second))).Seconds() })
		return Analyze(xs, Uniform(0.0, 1.0), FalseFailureRate(alpha))
	}},
	{"nanoseconds over 1s", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		xs := Draw(n, func() time.Duration { return time.Duration(r.Int64N(int64(time.Second))) })
		return Analyze(xs, Uniform(0, time.Second), FalseFailureRate(alpha))
	}},
	{"UnixNano + 1s of jitter", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		xs := Draw(n, func() int64 { return unixNano + r.Int64N(int64(time.Second)) })
		return Analyze(xs, Uniform(unixNano, unixNano+int64(time.Second)), FalseFailureRate(alpha))
	}},
	{"Like: full jitter capped at 0.6", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() time.Duration { return capped(r) }), Like(capped), FalseFailureRate(alpha))
	}},
	{"Clamp: full jitter capped at 0.6", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() time.Duration { return capped(r) }), Uniform(0, time.Second).Clamp(0, 600*time.Millisecond), FalseFailureRate(alpha))
	}},
	{"TowardZero: int((2u - 1) 50)", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() int { return int((2*r.Float64() - 1) * 50) }), Uniform(-50, 50).TowardZero(), FalseFailureRate(alpha))
	}},
	{"OneOf: 21 percent values", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() time.Duration { return percentWait(r.IntN(21)) }), OneOf(percentWaits...), FalseFailureRate(alpha))
	}},
	{"k = 3 values", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() int { return r.IntN(3) }), Uniform(0, 3), FalseFailureRate(alpha))
	}},
	{"k = 10 values", func(r *rand.Rand, n int, alpha float64) (Report, error) {
		return Analyze(Draw(n, func() int { return r.IntN(10) }), Uniform(0, 10), FalseFailureRate(alpha))
	}},
}

// calibrate runs a kind on runs correct samples, each on its own seed, and returns how many
// failed.
func calibrate(t *testing.T, k calibrationKind, n, runs int, alpha float64) int {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), uint64(alpha*1e6)))
	fails := 0
	for range runs {
		rep, err := k.analyze(r, n, alpha)
		if err != nil {
			t.Fatalf("%s, n = %d: %v", k.name, n, err)
		}
		if rep.Failed() {
			fails++
		}
	}
	return fails
}

// TestCalibration runs Check on correct implementations many times, each on its own seed, and
// pins that the observed false-failure rate is at most the requested rate (within the binomial
// spread of the run count) and not wastefully far below it (a rate below alpha/10 would mean the
// budget is spent on nothing and power is lost). It writes testdata/calibration.md. A long
// validation: SPREADCHECK_LONG=1.
func TestCalibration(t *testing.T) {
	longtest.Skip(t)
	const runs = 10_000
	ns := []int{100, 1000}
	var table strings.Builder
	table.WriteString("| alpha | sample | n = 100 | n = 1000 |\n|---|---|---|---|\n")
	for _, alpha := range []float64{0.05, 0.01} {
		for _, k := range calibrationKinds {
			row := []string{fmt.Sprint(alpha), k.name}
			for _, n := range ns {
				fails := calibrate(t, k, n, runs, alpha)
				rate := float64(fails) / runs
				row = append(row, fmt.Sprintf("%.4f (%.2f alpha)", rate, rate/alpha))
				if hi := binomialUpper(runs, alpha, 1e-6); fails > hi {
					t.Errorf("%s, n = %d: %d of %d correct runs failed: more than %d, the most a rate of %g allows (binomial, 1e-6)", k.name, n, fails, runs, hi, alpha)
				}
				if lo := binomialLower(runs, alpha/10, 1e-6); fails < lo {
					t.Errorf("%s, n = %d: %d of %d correct runs failed: fewer than %d, so the rate is below alpha/10 = %g: the budget is wasted", k.name, n, fails, runs, lo, alpha/10)
				}
			}
			table.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
	}
	golden.Check(t, filepath.Join("testdata", "calibration.md"), table.String())
}

// TestCalibrationQuick is the calibration's fast, sharp corner in the normal run: at a rate of
// 0.05, 400 correct runs of each kind at n = 100 stay within the binomial spread of the rate.
func TestCalibrationQuick(t *testing.T) {
	const runs, alpha = 400, 0.05
	for _, k := range calibrationKinds {
		if fails, hi := calibrate(t, k, 100, runs, alpha), binomialUpper(runs, alpha, 1e-6); fails > hi {
			t.Errorf("%s: %d of %d correct runs failed at %g: more than %d", k.name, fails, runs, alpha, hi)
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
