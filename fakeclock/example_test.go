package fakeclock_test

import (
	"fmt"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// fakeclock.Real() and a test passes a Fake.
// A Fake outside a bubble: events fire in time order as the test advances,
// and Now is each event's time while it fires.
func ExampleNewFake() {
	c := fakeclock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c.AfterFunc(90*time.Second, func() { fmt.Println("retry at", c.Now().Format(time.TimeOnly)) })
	tick := c.NewTicker(time.Minute)
	defer tick.Stop()

	if err := c.Advance(150 * time.Second); err != nil {
		fmt.Println(err)
	}
	// Nobody read the ticker: it kept the oldest tick and dropped the rest.
	fmt.Println("pending tick", (<-tick.C).Format(time.TimeOnly))
	fmt.Println("now", c.Now().Format(time.TimeOnly))
	// Output:
	// retry at 00:01:30
	// pending tick 00:01:00
	// now 00:02:30
}

// AdvanceNext jumps to the next armed event and says how far it went.
func ExampleFake_AdvanceNext() {
	c := fakeclock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	c.AfterFunc(3*time.Second, func() {})
	c.AfterFunc(5*time.Second, func() {})
	for {
		d, ok := c.AdvanceNext()
		if !ok {
			break
		}
		fmt.Println("+", d)
	}
	// Output:
	// + 3s
	// + 2s
}
