package sizing_test

import (
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/sizing"
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

// The statistics of one sample are dependent: Bonferroni splits a call's rate between them.
func ExampleBonferroni() {
	a, err := sizing.Bonferroni(1e-9, 5)
	if err != nil {
		panic(err)
	}
	fmt.Println(a)
	// Output:
	// 2e-10
}

// The mean of 1000 draws from Uniform[0s, 1s) must lie within tol of 0.5s; the check fails
// by chance once in a billion runs.
func ExampleMeanZ() {
	sd := 1 / math.Sqrt(12) // the sd of the uniform, in units of its width
	tol, err := sizing.MeanZ(sd, 1000, 1e-9)
	if err != nil {
		panic(err)
	}
	fmt.Printf("|mean - 0.5s| <= %.4fs\n", tol)
	// Output:
	// |mean - 0.5s| <= 0.0558s
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

// Among 1000 durations drawn from a billion nanosecond values, three repeats already fail the
// distinct-values check at 1e-9: a jitter that reuses values is caught at once.
func ExampleRepeatsLimit() {
	m, err := sizing.RepeatsLimit(1e9, 1000, 1e-9)
	if err != nil {
		panic(err)
	}
	fmt.Println("fail when repeats >=", m)
	// Output:
	// fail when repeats >= 3
}

// A value read from a clock climbs step by step: its ascents leave the interval that
// independent draws keep to.
func ExampleAscentsInterval() {
	lo, hi, err := sizing.AscentsInterval(1000, 1e-9)
	if err != nil {
		panic(err)
	}
	fmt.Printf("accept %d <= ascents <= %d\n", lo, hi)
	// Output:
	// accept 444 <= ascents <= 555
}

// A fit check on 1000 values: it fails when the Kolmogorov-Smirnov statistic reaches d, which
// happens by chance once in a billion runs of a correct implementation.
func ExampleKSCritical() {
	d, err := sizing.KSCritical(1000, 1e-9)
	if err != nil {
		panic(err)
	}
	fmt.Printf("fail when D >= %.5f\n", d)
	// Output:
	// fail when D >= 0.10320
}

// Too few draws cannot size a check at all: the error names the n needed.
func ExampleTooSmallError() {
	_, _, err := sizing.AscentsInterval(10, 1e-9)
	fmt.Println(err)
	// Output:
	// ascents: n = 10 is too small to size the check at alpha = 1e-09: it needs n >= 13
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
