// Package sleeploop paces loops, as in "Sleeping at Scale".
package sleeploop

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

func doThing() error { return nil }

// RandomSleep is the random-sleep loop: hot and cold runs.
func RandomSleep(interval time.Duration) { // want RandomSleep:"random\\(rand.N\\)"
	for {
		doThing()
		time.Sleep(rand.N(2 * interval)) // want `random sleep loop: time.Sleep\(rand.N\(2 \* interval\)\) paces a loop with no ticker.*tick := time.NewTicker\(interval\)`
	}
}

// Until has the same shape, with a context and time.After.
func Until(ctx context.Context, interval time.Duration) { // want Until:"random\\(rand.N\\)"
	for ctx.Err() == nil {
		doThing()
		select {
		case <-ctx.Done():
			return
		case <-time.After(rand.N(2 * interval)): // want `random sleep loop: time.After`
		}
	}
}

// Not flagged: jitter + ticker, a retry loop with backoff, a counted loop.

func JitterTicker(interval time.Duration) { // want JitterTicker:"random\\(rand.N\\)"
	tick := time.NewTicker(interval)
	for {
		time.Sleep(rand.N(interval))
		doThing()
		<-tick.C
	}
}

func Retry(ctx context.Context, base time.Duration) error { // want Retry:"random\\(rand.N\\)"
	for {
		err := doThing()
		if err == nil {
			return nil
		}
		time.Sleep(base/2 + rand.N(base/2))
		if ctx.Err() != nil {
			return errors.Join(err, ctx.Err())
		}
	}
}

func Backoff(base time.Duration) { // want Backoff:"random\\(rand.N\\)"
	wait := base
	for {
		if doThing() == nil {
			return
		}
		time.Sleep(rand.N(wait))
		wait *= 2
	}
}

func Warmup(interval time.Duration) { // want Warmup:"random\\(rand.N\\)"
	for i := 0; i < 3; i++ {
		time.Sleep(rand.N(interval))
	}
}

// Not flagged: closed-loop load generators, whose random sleep is a client's think time
// between requests and no pace: one times each request, one names its think time.

type Config struct{ MaxSleep, MaxThink time.Duration }

func record(time.Duration) {}

func Drive(cfg Config, stop <-chan struct{}) { // want Drive:"random\\(rand.N\\)"
	for {
		select {
		case <-stop:
			return
		default:
		}
		start := time.Now()
		doThing()
		record(time.Since(start))
		time.Sleep(rand.N(cfg.MaxSleep))
	}
}

func Client(cfg Config) { // want Client:"random\\(rand.N\\)"
	for {
		doThing()
		time.Sleep(rand.N(cfg.MaxThink))
	}
}

// A Stepper's Step grows its wait on every call: a backoff, not a pace. Not flagged.
type Stepper struct{ wait time.Duration }

func (s *Stepper) Step() time.Duration { // want Step:"random\\(rand.N\\)"
	s.wait *= 2
	return rand.N(s.wait)
}

func StepLoop(s *Stepper) { // want StepLoop:"random\\(calls Step\\)"
	for {
		doThing()
		time.Sleep(s.Step())
	}
}
