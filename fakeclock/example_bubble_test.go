package fakeclock_test

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// pollEvery is the code under test: it takes a Clock, so production passes
// fakeclock.Real() and a test passes the Fake.
func pollEvery(ctx context.Context, c fakeclock.Clock, d time.Duration, do func()) {
	tick := c.NewTicker(d)
	defer tick.Stop()
	for {
		do()
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// TestPoll would sit in a _test.go file as it is (here it is lower case,
// because an example file may hold no test).
func testPoll(t *testing.T) {
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		start := c.Now()
		go pollEvery(t.Context(), c, time.Second, func() {
			fmt.Println("poll at", c.Since(start))
		})
		// No WaitArmed and no sleeps: in the bubble, Advance lets the loop
		// make its ticker first, and lets it handle each tick in turn.
		c.Advance(3 * time.Second)
		fmt.Println("advanced to", c.Since(start))
	}) // t.Context() is canceled as the test ends, so the loop exits
}

// Test runs a test in a testing/synctest bubble with a Fake. The loop is
// started and the clock advanced at once, yet no tick is ever lost.
func ExampleTest() {
	runTest(testPoll)
	// Output:
	// poll at 0s
	// poll at 1s
	// poll at 2s
	// poll at 3s
	// advanced to 3s
}

// runTest runs f once as go test runs a Test function, quietly, so that
// the example can show what it prints; a real test needs none of this.
func runTest(f func(*testing.T)) {
	// No "=== RUN" lines, and no -skip pattern, which would skip TestPoll.
	for name, value := range map[string]string{"test.v": "false", "test.skip": ""} {
		if fl := flag.Lookup(name); fl != nil {
			old := fl.Value.String()
			fl.Value.Set(value)
			defer fl.Value.Set(old)
		}
	}
	var once sync.Once // -count and -cpu would run it again
	testing.RunTests(func(_, _ string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: "TestPoll", F: func(t *testing.T) { once.Do(func() { f(t) }) }}})
}
