package spreadvet

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
	"github.com/spreadcheck/spreadcheck/spread"
)

// TestMinCheckN: spread sizes every check of its default battery at minCheckN draws and refuses
// minCheckN-1 (naming minCheckN as the n it needs), for floats and for nanoseconds alike, so
// a suggested fix never hands Check a sample it refuses.
func TestMinCheckN(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	floats := spread.Draw(minCheckN, r.Float64)
	durations := spread.Draw(minCheckN, func() time.Duration { return rand.N(time.Second) })
	for _, c := range []struct {
		name        string
		enough, few func() error
	}{
		{"float64 over [0, 1)",
			func() error { _, err := spread.Analyze(floats, spread.Uniform(0.0, 1.0)); return err },
			func() error { _, err := spread.Analyze(floats[:minCheckN-1], spread.Uniform(0.0, 1.0)); return err }},
		{"time.Duration over [0s, 1s)",
			func() error { _, err := spread.Analyze(durations, spread.Uniform(0, time.Second)); return err },
			func() error {
				_, err := spread.Analyze(durations[:minCheckN-1], spread.Uniform(0, time.Second))
				return err
			}},
	} {
		if err := c.enough(); err != nil {
			t.Errorf("%s: n = %d: %v; want every check sized", c.name, minCheckN, err)
		}
		var small *sizing.TooSmallError
		err := c.few()
		if !errors.As(err, &small) {
			t.Errorf("%s: n = %d: error %v; want a *sizing.TooSmallError", c.name, minCheckN-1, err)
			continue
		}
		need := 0
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			if errors.As(e, &small) {
				need = max(need, small.Need)
			}
		}
		if need != minCheckN {
			t.Errorf("%s: n = %d: the checks need n >= %d; minCheckN is %d", c.name, minCheckN-1, need, minCheckN)
		}
	}
}
