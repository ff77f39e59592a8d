package sizing_test

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// A test that checks "the mean of 1000 full-jitter waits lies within 5% of the base" fails a
// correct jitter about once in 24 million runs: 5.477 standard errors, not the 6.1 that a
// rate of 1e-9 needs.
func ExampleMeanUniformTail() {
	p, method, err := sizing.MeanUniformTail(1000, 0.05)
	if err != nil {
		panic(err)
	}
	fmt.Printf("false-failure rate %.3g (%s)\n", p, method)
	// Output:
	// false-failure rate 4.14e-08 (exact (Irwin-Hall, n = 1000))
}

// A test failed 12 times in 200 runs before a fix and 2 times in 200 after: did the fix lower
// its rate, or was it luck? Fisher's exact test says how likely so large a change is by luck,
// and Newcombe's interval how large the change may be.
func ExampleFisherTwoSided() {
	p, err := sizing.FisherTwoSided(2, 200, 12, 200)
	if err != nil {
		panic(err)
	}
	lo, hi, _ := sizing.NewcombeInterval(2, 200, 12, 200, 0.05)
	fmt.Printf("p = %.2g; the rate changed by -5.0%%, 95%% interval [%.1f%%, %.1f%%]\n", p, 100*lo, 100*hi)
	// Output:
	// p = 0.011; the rate changed by -5.0%, 95% interval [-9.3%, -1.4%]
}
