package fakeclock_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// poller is the code of one copy: a ticker, with a random sleep in
// [0, 1s) before each poll.
func poller(ctx context.Context, c fakeclock.Clock, r *rand.Rand, poll func()) {
	tick := c.NewTicker(time.Second)
	defer tick.Stop()
	for {
		sleep := c.NewTimer(time.Duration(r.Int64N(int64(time.Second))))
		select {
		case <-sleep.C:
			poll()
		case <-ctx.Done():
			sleep.Stop()
			return
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// testFleet would be a Test function in a _test.go file.
func testFleet(t *testing.T) {
	fleet := fakeclock.Fleet{Loops: 3, Seed: 42, For: 3 * time.Second}
	events, err := fleet.Run(t, poller)
	if err != nil {
		t.Fatal(err)
	}
	for i, es := range events {
		fmt.Printf("copy %d polled at %v\n", i, es)
	}
}

// Run starts copies of a loop's own code in lockstep, each with its own
// generator from the fleet's seed, and returns when each polled.
func ExampleFleet_Run() {
	runTest(testFleet)
	// Output:
	// copy 0 polled at [857.545581ms 1.960715125s 2.136293711s]
	// copy 1 polled at [181.064388ms 1.573276002s 2.573896055s]
	// copy 2 polled at [108.6193ms 1.968366972s 2.092959237s]
}

// RunSchedule runs the loop as its schedule, with no goroutine per copy:
// here 2,000 copies for a minute, streamed to a Sink that counts the polls
// of each tenth of a second, in time order, without keeping them.
func ExampleFleet_RunSchedule() {
	schedule := func(r *rand.Rand) func(last time.Duration) time.Duration {
		k := time.Duration(-1)
		return func(time.Duration) time.Duration { // the poller's events: k s + a draw in [0, 1s)
			k++
			return k*time.Second + time.Duration(r.Int64N(int64(time.Second)))
		}
	}
	var polls [600]int
	last := time.Duration(0)
	fleet := fakeclock.Fleet{Loops: 2000, Seed: 42, For: time.Minute,
		Sink: func(loop int, at time.Duration) {
			if at < last {
				panic("out of order")
			}
			last = at
			polls[at/(100*time.Millisecond)]++
		}}
	if _, err := fleet.RunSchedule(schedule); err != nil {
		fmt.Println(err)
	}
	fmt.Println("polls in the first tenths of a second:", polls[:5])
	fmt.Println("least and most in a tenth:", slices.Min(polls[:]), slices.Max(polls[:]))
	// Output:
	// polls in the first tenths of a second: [209 193 180 217 201]
	// least and most in a tenth: 162 247
}
