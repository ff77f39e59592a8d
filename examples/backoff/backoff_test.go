package backoff_test

import (
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/examples/backoff"
	"github.com/spreadcheck/spreadcheck/spread"
)

const base = 2 * time.Second

func TestFullJitter(t *testing.T) {
	r := spread.Rand(t)
	xs := spread.Draw(1000, func() time.Duration { return backoff.Full(r, base) })
	spread.Check(t, xs, spread.Uniform(0, base))
}

func TestEqualJitter(t *testing.T) {
	r := spread.Rand(t)
	xs := spread.Draw(1000, func() time.Duration { return backoff.Equal(r, base) })
	spread.Check(t, xs, spread.Uniform(base/2, base))
}

func TestPercentJitter(t *testing.T) {
	r := spread.Rand(t)
	xs := spread.Draw(1000, func() time.Duration { return backoff.Percent(r, base, 0.25) })
	spread.Check(t, xs, spread.Uniform(base*3/4, base*5/4))
}

// TestDecorrelatedStep checks one step of decorrelated jitter: after a wait of prev, the next
// wait is uniform over [base, 3 prev).
func TestDecorrelatedStep(t *testing.T) {
	r := spread.Rand(t)
	const b, prev = 100 * time.Millisecond, 400 * time.Millisecond
	xs := spread.Draw(1000, func() time.Duration { return backoff.DecorrelatedStep(r, b, prev, time.Hour) })
	spread.Check(t, xs, spread.Uniform(b, 3*prev))
}

// TestDecorrelatedStaysInBounds checks a whole sequence: its waits are not identically
// distributed, so only the bounds apply, and they are exact.
func TestDecorrelatedStaysInBounds(t *testing.T) {
	d := backoff.Decorrelated{Base: 100 * time.Millisecond, Cap: 5 * time.Second, R: spread.Rand(t)}
	xs := spread.Draw(1000, d.Next)
	spread.Check(t, xs, spread.UniformClosed(d.Base, d.Cap), spread.Only(spread.CheckBounds))
}

// TestClockJitterIsCaught shows the story's bug failing the check it used to pass: on a coarse
// clock it is a constant; on a fine one it takes two values, one past the ceiling.
func TestClockJitterIsCaught(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	coarse := func() time.Time { return start } // microsecond clock: the parity never changes
	var ticks int64
	fine := func() time.Time { ticks += 37; return start.Add(time.Duration(ticks)) }
	for name, now := range map[string]func() time.Time{"coarse clock": coarse, "fine clock": fine} {
		t.Run(name, func(t *testing.T) {
			xs := spread.Draw(1000, func() time.Duration { return backoff.ClockJitter(now, base) })
			r, err := spread.Analyze(xs, spread.Uniform(base*3/4, base*5/4))
			if err != nil {
				t.Fatal(err)
			}
			if !r.Failed() {
				t.Fatalf("the story's clock jitter passed:\n%s", r)
			}
			t.Logf("rejected as %s:\n%s", r.Diagnosis(), r)
		})
	}
}
