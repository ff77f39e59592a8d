package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/mutants"
	"github.com/spreadcheck/spreadcheck/spread"
)

var policy = Policy{Base: 100 * time.Millisecond, Cap: time.Second, Attempts: 6}

const runs = 1000

// sleptWaits runs p.Do to exhaustion runs times in a fakeclock bubble, each time against an
// operation that always fails and records when it was called, and returns the waits it slept:
// waits[k][i] is the time between attempt k and k+1 of run i, measured on the clock. The
// random numbers come from rng.
func sleptWaits(t *testing.T, p Policy, rng func(c *fakeclock.Fake) *rand.Rand) [][]time.Duration {
	waits := make([][]time.Duration, p.Attempts-1)
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		r := rng(c)
		for range runs {
			var calls []time.Time
			fail := func(context.Context) error { calls = append(calls, c.Now()); return errors.New("unavailable") }
			done := make(chan error)
			go func() { done <- p.Do(t.Context(), c, r, fail) }()
			var err error
		drive:
			for {
				select {
				case err = <-done:
					break drive
				default:
					c.AdvanceNext() // in the bubble: once Do is blocked on its timer
				}
			}
			if err == nil || len(calls) != p.Attempts {
				t.Fatalf("Do made %d calls and returned %v, want %d failed calls", len(calls), err, p.Attempts)
			}
			for k := range waits {
				waits[k] = append(waits[k], calls[k+1].Sub(calls[k]))
			}
		}
	})
	return waits
}

// TestWaitsAreFullJitter checks the waits Do actually sleeps, attempt by attempt: after failed
// attempt k each is uniform over [0, min(Cap, Base 2^k)), a separate spread.Check for each
// attempt since each has its own range.
func TestWaitsAreFullJitter(t *testing.T) {
	r := spread.Rand(t) // the test's seed: a failure prints it, with the command that replays it
	waits := sleptWaits(t, policy, func(*fakeclock.Fake) *rand.Rand { return r })
	for k, ws := range waits {
		t.Run(fmt.Sprintf("after attempt %d", k), func(t *testing.T) {
			spread.Check(t, ws, spread.Uniform(0, policy.Ceiling(k)))
		})
	}
}

// TestBrokenRandomnessIsCaught runs the same measurement with the broken random sources of
// package mutants in the *rand.Rand that Do takes: a constant, a number read from the clock
// Do sleeps on, and a healthy number over half the range. Every attempt's check rejects each.
func TestBrokenRandomnessIsCaught(t *testing.T) {
	sources := map[string]func(c *fakeclock.Fake) rand.Source{
		"constant": func(*fakeclock.Fake) rand.Source { return new(mutants.Source) },
		"clock-derived": func(c *fakeclock.Fake) rand.Source {
			src, err := mutants.ClockSource(c.Now)
			if err != nil {
				t.Fatal(err)
			}
			return src
		},
		"collapsed-range": func(*fakeclock.Fake) rand.Source {
			src, err := mutants.CollapsedSource(rand.NewPCG(1, 2), 0.5)
			if err != nil {
				t.Fatal(err)
			}
			return src
		},
	}
	for name, source := range sources {
		t.Run(name, func(t *testing.T) {
			waits := sleptWaits(t, policy, func(c *fakeclock.Fake) *rand.Rand { return rand.New(source(c)) })
			for k, ws := range waits {
				r, err := spread.Analyze(ws, spread.Uniform(0, policy.Ceiling(k)))
				if err != nil {
					t.Fatal(err)
				}
				if !r.Failed() {
					t.Errorf("after attempt %d: %s waits passed:\n%s", k, name, r)
				}
			}
		})
	}
}

func TestCeiling(t *testing.T) {
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for k, w := range want {
		if got := policy.Ceiling(k); got != w*time.Millisecond {
			t.Errorf("Ceiling(%d) = %v, want %v", k, got, w*time.Millisecond)
		}
	}
	if got := (Policy{Base: 1, Cap: 1 << 62}).Ceiling(1000); got != 1<<62 {
		t.Errorf("Ceiling(1000) = %v, want the cap: no overflow", got)
	}
}

func TestDoStopsWithTheContext(t *testing.T) {
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		ctx, cancel := context.WithCancel(t.Context())
		calls := 0
		done := make(chan error)
		go func() {
			done <- policy.Do(ctx, c, rand.New(rand.NewPCG(1, 1)), func(context.Context) error { calls++; return errors.New("no") })
		}()
		c.AdvanceNext()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) || calls > 2 {
			t.Errorf("Do after cancel: %v after %d calls", err, calls)
		}
	})
}
