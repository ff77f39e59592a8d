package gaps

import (
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

func TestScale(t *testing.T) {
	for _, c := range []struct {
		u    float64
		want time.Duration
	}{{0, 0}, {0.25, 250 * time.Millisecond}, {0.5, 500 * time.Millisecond}, {0.999, 999 * time.Millisecond}} {
		if got := Scale(time.Second, c.u); got != c.want {
			t.Errorf("Scale(1s, %v) = %v, want %v", c.u, got, c.want)
		}
	}
}

// TestDelaySmoke runs Delay and checks only that it does not wait past d.
func TestDelaySmoke(t *testing.T) {
	if d := Delay(time.Second); d > time.Second {
		t.Errorf("Delay(1s) = %v", d)
	}
}

// TestEqualWithFake pins Equal with a fake draw at the midpoint of its range.
func TestEqualWithFake(t *testing.T) {
	defer func(f func() float64) { jitterRand = f }(jitterRand)
	jitterRand = func() float64 { return 0.5 }
	if got := Equal(time.Second); got != 750*time.Millisecond {
		t.Errorf("Equal(1s) = %v with the draw at 0.5, want 750ms", got)
	}
}

// TestPickFlaky fails about half its runs: it draws from the run's seed (spread.Rand, which
// gives each run of a process its own) and wants a pick of at least 5 of 10. A run's seed
// decides it, so the audit's verdicts on it replay.
func TestPickFlaky(t *testing.T) {
	if p := Pick(spread.Rand(t), 10); p < 5 {
		t.Errorf("Pick = %d, want at least 5", p)
	}
}

// TestBackoffBounds checks Backoff's bounds only.
func TestBackoffBounds(t *testing.T) {
	if d := Backoff(time.Second); d < 0 || d >= time.Second {
		t.Errorf("Backoff(1s) = %v, want it in [0, 1s)", d)
	}
}
