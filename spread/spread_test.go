package spread

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

const base = time.Second

// errSkip marks a case that does not run for a seed.
var errSkip = errors.New("skip")

// draws returns n values of f driven by a generator seeded with seed.
func draws[T any](seed uint64, n int, f func(r *rand.Rand) T) []T {
	r := rand.New(rand.NewPCG(seed, 0))
	return Draw(n, func() T { return f(r) })
}

// failed returns the names of the failing statistics of a report.
func failed(r Report) []string {
	var out []string
	for _, res := range r.Failures() {
		out = append(out, res.Name())
	}
	return out
}

func TestCorrectSamplesPass(t *testing.T) {
	cases := []struct {
		name string
		run  func(seed uint64) (Report, error)
	}{
		{"full jitter from the seeded generator", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base))) })
			return Analyze(xs, Uniform(0, base))
		}},
		{"equal jitter", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) time.Duration { return base/2 + time.Duration(r.Int64N(int64(base/2))) })
			return Analyze(xs, Uniform(base/2, base))
		}},
		{"float64", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) float64 { return 3 + 2*r.Float64() })
			return Analyze(xs, Uniform(3.0, 5.0))
		}},
		{"float32", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) float32 { return r.Float32() })
			return Analyze(xs, Uniform[float32](0, 1))
		}},
		{"float64 of a float32", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) float64 { return float64(r.Float32()) })
			return Analyze(xs, Uniform(0.0, 1.0))
		}},
		{"seconds of nanosecond durations", func(seed uint64) (Report, error) {
			xs := draws(seed, 10_000, func(r *rand.Rand) float64 { return time.Duration(r.Int64N(int64(base))).Seconds() })
			return Analyze(xs, Uniform(0.0, 1.0))
		}},
		{"three values", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) int { return r.IntN(3) })
			return Analyze(xs, Uniform(0, 3))
		}},
		{"milliseconds, declared with Step", func(seed uint64) (Report, error) {
			xs := draws(seed, 1000, func(r *rand.Rand) time.Duration { return time.Duration(r.IntN(1000)) * time.Millisecond })
			return Analyze(xs, Uniform(0, base).Step(time.Millisecond))
		}},
		{"one million values", func(seed uint64) (Report, error) {
			if seed > 0 {
				return Report{}, errSkip // one seed: the million values are about the sizes, not the rate
			}
			xs := draws(seed, 1_000_000, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base))) })
			return Analyze(xs, Uniform(0, base))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(5) {
				r, err := c.run(seed)
				if err == errSkip {
					continue
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if r.Failed() {
					t.Errorf("seed %d: a correct sample failed:\n%s", seed, r)
				}
				for _, res := range r.Results {
					if res.Distance != "" || res.Suspects != nil {
						t.Errorf("seed %d: passing %s has Distance %q, Suspects %v", seed, res.Name(), res.Distance, res.Suspects)
					}
				}
			}
		})
	}
}

func TestBrokenSamplesFail(t *testing.T) {
	const n = 1000
	clock := func(step time.Duration) func(r *rand.Rand) time.Duration {
		var now time.Duration
		return func(*rand.Rand) time.Duration { now += step; return now % base }
	}
	cases := []struct {
		name string
		xs   []time.Duration
		want []string // statistics that must fail (others may fail too)
	}{
		{"constant", draws(1, n, func(*rand.Rand) time.Duration { return base / 2 }),
			[]string{"distinct", "coverage/min", "coverage/max", "coverage/range", "fit/ks"}},
		{"sign-flip of full jitter", draws(1, n, func(r *rand.Rand) time.Duration { return -time.Duration(r.Int64N(int64(base))) }),
			[]string{"bounds"}},
		{"collapsed to half", draws(1, n, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base / 2))) }),
			[]string{"coverage/max", "mean", "fit/ks", "fit/tails"}},
		{"collapsed around the centre", draws(1, n, func(r *rand.Rand) time.Duration {
			return base/2 - base/20 + time.Duration(r.Int64N(int64(base/10)))
		}), []string{"coverage/min", "coverage/max", "coverage/range", "fit/ks"}},
		{"fine clock, 57ms per call", draws(1, n, clock(57*time.Millisecond)), []string{"independence/ascents"}},
		{"clock rotating by 0.2113 of the range", draws(1, n, clock(211300*time.Microsecond)), []string{"independence/ascents"}},
		{"clock rotating by half the range and a bit", draws(1, n, clock(500123*time.Microsecond)), []string{"independence/turning-points"}},
		{"quantized to whole milliseconds", draws(1, n, func(r *rand.Rand) time.Duration {
			return time.Duration(r.Int64N(int64(base))).Truncate(time.Millisecond)
		}), []string{"distinct"}},
		{"overshoot by a quarter", draws(1, n, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base * 5 / 4))) }),
			[]string{"bounds"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Analyze(c.xs, Uniform(0, base))
			if err != nil {
				t.Fatal(err)
			}
			got := failed(r)
			for _, res := range r.Failures() {
				if res.Distance == "" || len(res.Suspects) == 0 || res.Method.Formula == "" {
					t.Errorf("failing %s does not explain itself: %+v", res.Name(), res)
				}
			}
			for _, w := range c.want {
				if !contains(got, w) {
					t.Errorf("%s did not fail; failing: %v\n%s", w, got, r)
				}
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	ok := []float64{0.1, 0.5, 0.9}
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"NaN", func() error { _, err := Analyze([]float64{0.1, math.NaN()}, Uniform(0.0, 1.0)); return err }, "xs[1] = NaN"},
		{"Inf", func() error { _, err := Analyze([]float64{math.Inf(1)}, Uniform(0.0, 1.0)); return err }, "xs[0] = +Inf"},
		{"empty", func() error { _, err := Analyze([]float64{}, Uniform(0.0, 1.0)); return err }, "empty"},
		{"Draw of a nil func", func() error { _, err := Analyze(Draw[float64](1000, nil), Uniform(0.0, 1.0)); return err }, "empty"},
		{"lo == hi", func() error { _, err := Analyze(ok, Uniform(1.0, 1.0)); return err }, "lo must be below hi"},
		{"lo > hi", func() error { _, err := Analyze(ok, Uniform(2.0, 1.0)); return err }, "lo must be below hi"},
		{"NaN bound", func() error { _, err := Analyze(ok, Uniform(math.NaN(), 1.0)); return err }, "finite"},
		{"zero Dist", func() error { _, err := Analyze(ok, Dist[float64]{}); return err }, "zero Dist"},
		{"alpha 0", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0), FalseFailureRate(0)); return err }, "(0, 1)"},
		{"alpha 1", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0), FalseFailureRate(1)); return err }, "(0, 1)"},
		{"alpha NaN", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0), FalseFailureRate(math.NaN())); return err }, "(0, 1)"},
		{"step does not divide", func() error { _, err := Analyze([]int{1}, Uniform(0, 10).Step(3)); return err }, "does not divide"},
		{"negative step", func() error { _, err := Analyze([]int{1}, Uniform(0, 10).Step(-2)); return err }, "> 0"},
		{"float step too fine", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0).Step(1e-17)); return err }, "finer than the floats"},
		{"float step does not divide", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0).Step(0.3)); return err }, "does not divide"},
		{"step on a general distribution", func() error { _, err := Analyze(ok, Continuous(distuv.UnitNormal).Step(0.5)); return err }, "Step applies once, to a Uniform"},
		{"denormal rate", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0), FalseFailureRate(5e-324)); return err }, "cannot be split"},
		{"unknown check", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0), Only("median")); return err }, `no such check`},
		{"too small", func() error { _, err := Analyze(ok, Uniform(0.0, 1.0)); return err }, "too few"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			if err == nil {
				t.Fatalf("no error; want one mentioning %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
		})
	}
}

func TestTooSmallNamesTheNeededN(t *testing.T) {
	xs := draws(1, 10, func(r *rand.Rand) float64 { return r.Float64() })
	_, err := Analyze(xs, Uniform(0.0, 1.0))
	var small *sizing.TooSmallError
	if !errors.As(err, &small) {
		t.Fatalf("error %v does not unwrap to *sizing.TooSmallError", err)
	}
	if small.N != 10 || small.Need <= 10 {
		t.Errorf("TooSmallError = %+v, want N = 10 and Need > 10", small)
	}
	// With the n the error asks for, every check can be sized.
	need := 0
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		need = max(need, e.(*sizing.TooSmallError).Need)
	}
	xs = draws(1, need, func(r *rand.Rand) float64 { return r.Float64() })
	if _, err := Analyze(xs, Uniform(0.0, 1.0)); err != nil {
		t.Errorf("n = %d, as the error asked: %v", need, err)
	}
}

// TestSplitsTheRate: the statistics of one sample are dependent, so the call's rate is split
// by Bonferroni, and their rates add up to it (the union bound), not merely combine to it as
// independent rates would (Sidak).
func TestSplitsTheRate(t *testing.T) {
	xs := draws(1, 1000, func(r *rand.Rand) float64 { return r.Float64() })
	r, err := Analyze(xs, Uniform(0.0, 1.0), FalseFailureRate(0.01))
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, res := range r.Results {
		sum += res.Alpha
	}
	if math.Abs(sum-0.01) > 1e-15 {
		t.Errorf("the statistics' rates add up to %.17g, want the call's 0.01", sum)
	}
	if !strings.Contains(r.String(), "split by Bonferroni") {
		t.Errorf("the report does not say how the rate is split:\n%s", r)
	}
}

func TestDegenerateRangeChecksOnlyBounds(t *testing.T) {
	r, err := Analyze([]int{0, 0, 0}, Uniform(0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed() || r.ran() != 1 {
		t.Errorf("want only bounds to run and pass:\n%s", r)
	}
	r, _ = Analyze([]int{0, 1, 0}, Uniform(0, 1))
	if !r.Failed() {
		t.Errorf("a value outside a one-value range passed")
	}
}

// errorsAs is errors.As, for tests that name it without importing errors.
func errorsAs(err error, target any) bool { return errors.As(err, target) }
