package fakeclock_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// Code that calls package time directly is tested with testing/synctest
// alone; code that takes a Clock is tested with fakeclock.Test, which is a
// synctest bubble too, so the two mix. The Fake's clock and the bubble's
// are independent: each moves only by its own means.
func Example() {
	runTest(func(t *testing.T) {
		// Package time, directly: the bubble's clock moves by itself
		// whenever every goroutine of the bubble is blocked.
		synctest.Test(t, func(t *testing.T) {
			start := time.Now()
			time.Sleep(time.Minute)
			fmt.Println("synctest alone: slept", time.Since(start))
		})

		// A Clock: the Fake moves only when the test says so.
		fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
			ctx, cancel := c.WithDeadline(t.Context(), c.Now().Add(time.Minute))
			defer cancel()
			time.Sleep(time.Hour) // the bubble's clock moves, the Fake's does not
			fmt.Println("an hour of bubble time:", ctx.Err())
			c.Advance(time.Minute)
			fmt.Println("a minute of Fake time:", ctx.Err())
		})
	})
	// Output:
	// synctest alone: slept 1m0s
	// an hour of bubble time: <nil>
	// a minute of Fake time: context deadline exceeded
}
