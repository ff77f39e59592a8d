package bidder_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/examples/bidder"
	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// The shipped jitter on a clock whose nanoseconds are always even returns one value on
// every call; the fix spreads the waits over [0, delay).
func Example() {
	clock := fakeclock.NewFake(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	shipped := bidder.Config{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second,
		Jitter: bidder.ShippedJitter(clock)}
	fixed := shipped
	fixed.Jitter = bidder.FullJitter(rand.New(rand.NewPCG(1, 2)))
	for range 3 {
		fmt.Println(bidder.CalculateDelay(shipped, 0), bidder.CalculateDelay(fixed, 0))
		clock.Advance(time.Microsecond)
	}
	// Output:
	// 75ms 67.645565ms
	// 75ms 46.138621ms
	// 75ms 50.854739ms
}
