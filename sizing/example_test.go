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
	run, _ := sizing.Combine(a*20, a*20) // two runs of the suite
	fmt.Printf("two runs: %.4g\n", run)
	// Output:
	// per check: 1e-07
	// two runs: 4.002e-06
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

// Among 1000 durations drawn from a billion nanosecond values, three repeats already fail the
// distinct-values check at 1e-9: a jitter that reuses values is caught at once.
func ExampleRepeatsLimit() {
	m, method, err := sizing.RepeatsLimit(1e9, 1000, 1e-9)
	if err != nil {
		panic(err)
	}
	fmt.Println("fail when repeats >=", m)
	fmt.Println(method)
	// Output:
	// fail when repeats >= 3
	// exact (repeats among 1000 draws from 1e+09 values)
}

// A value read from a clock climbs step by step: its ascents leave the interval that
// independent draws keep to.
func ExampleAscentsInterval() {
	lo, hi, _, err := sizing.AscentsInterval(1000, 1e-9)
	if err != nil {
		panic(err)
	}
	fmt.Printf("accept %d <= ascents <= %d\n", lo, hi)
	// Output:
	// accept 444 <= ascents <= 555
}

// Too few draws cannot size a check at all: the error names the n needed.
func ExampleTooSmallError() {
	_, _, _, err := sizing.AscentsInterval(10, 1e-9)
	fmt.Println(err)
	// Output:
	// ascents: n = 10 is too small to size the check at alpha = 1e-09: it needs n >= 13
}

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
