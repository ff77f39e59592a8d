// Package retry retries an operation with capped exponential backoff and full jitter, the
// scheme most retry libraries default to: the wait after failed attempt k (from 0) is drawn
// uniformly from [0, min(Cap, Base 2^k)).
//
// It takes the clock it sleeps on (a fakeclock.Clock) and the *rand.Rand it draws from, so
// that a test can run it in virtual time, on a seed it can replay, and check the waits it
// actually sleeps: see the package's tests.
package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// Policy says how often and how long to retry.
type Policy struct {
	Base     time.Duration // the ceiling of the first wait
	Cap      time.Duration // the largest ceiling of any wait
	Attempts int           // how many times to call the operation, at most
}

// Ceiling returns the exclusive upper end of the wait after failed attempt k (from 0):
// min(Cap, Base 2^k), without overflow however large k is.
func (p Policy) Ceiling(k int) time.Duration {
	c := p.Base
	for range k {
		if c >= p.Cap/2 {
			return p.Cap
		}
		c *= 2
	}
	return min(c, p.Cap)
}

// Wait draws the wait after failed attempt k: uniform over [0, Ceiling(k)).
func (p Policy) Wait(r *rand.Rand, k int) time.Duration {
	return time.Duration(r.Int64N(int64(p.Ceiling(k))))
}

// Do calls op until it returns nil, ctx is done, or p.Attempts calls have failed, sleeping
// p.Wait on clock between calls, and returns nil or the last error (ctx's error if it ended
// a wait).
func (p Policy) Do(ctx context.Context, clock fakeclock.Clock, r *rand.Rand, op func(context.Context) error) error {
	if p.Base <= 0 || p.Cap < p.Base || p.Attempts < 1 {
		return fmt.Errorf("retry: a policy needs 0 < Base <= Cap and Attempts >= 1, have %+v", p)
	}
	var err error
	for k := range p.Attempts {
		if err = op(ctx); err == nil {
			return nil
		}
		if k == p.Attempts-1 {
			break
		}
		t := clock.NewTimer(p.Wait(r, k))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		}
	}
	return err
}
