package sizing_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/sizing"
	"github.com/spreadcheck/spreadcheck/spread"
)

// A suite of 20 checks runs 500 times in CI, each run on its own seed, and the whole series
// may fail by chance once in a thousand series: the runs share that budget by Sidak (they are
// independent), the checks of one run by Bonferroni (they need not be).
func ExampleSuiteAlpha() {
	a, err := sizing.SuiteAlpha(1e-3, 20, 500)
	if err != nil {
		panic(err)
	}
	fmt.Printf("per check: %.4g\n", a)
	// Output:
	// per check: 1e-07
}

// How many draws a check of the mean needs to see a jitter whose mean is 5% of its range off,
// nine times in ten, at a false-failure rate of 1e-9.
func ExampleMeanSampleSize() {
	n, err := sizing.MeanSampleSize(1/math.Sqrt(12), 0.05, 1e-9, 0.1)
	if err != nil {
		panic(err)
	}
	fmt.Println("draws:", n)
	// Output:
	// draws: 1821
}

// A test failed 3 times in 500 runs: its failure rate, with the 95% interval that covers the
// true rate in at least 95% of sessions. No failure in 500 runs still allows a rate of 0.74%.
func ExampleClopperPearson() {
	lo, hi, err := sizing.ClopperPearson(3, 500, 0.05)
	if err != nil {
		panic(err)
	}
	fmt.Printf("3 failures in 500 runs: 0.60%%, 95%% interval [%.2f%%, %.2f%%]\n", 100*lo, 100*hi)
	_, hi, _ = sizing.ClopperPearson(0, 500, 0.05)
	fmt.Printf("no failure in 500 runs: at most %.2f%%\n", 100*hi)
	// Output:
	// 3 failures in 500 runs: 0.60%, 95% interval [0.12%, 1.74%]
	// no failure in 500 runs: at most 0.74%
}

// Too few draws cannot size spread's checks at the rate asked: the error names the n needed.
func ExampleTooSmallError() {
	xs := []float64{0.1, 0.5, 0.9}
	_, err := spread.Analyze(xs, spread.Uniform(0.0, 1.0), spread.Only(spread.CheckMean))
	var small *sizing.TooSmallError
	if errors.As(err, &small) {
		fmt.Println("draw at least", small.Need)
	}
	// Output:
	// draw at least 13
}
