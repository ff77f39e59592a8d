package spread_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

// A correct full jitter over [0, 1s) passes every check.
func ExampleAnalyze() {
	r := rand.New(rand.NewPCG(1, 2))
	xs := spread.Draw(1000, func() time.Duration { return time.Duration(r.Int64N(int64(time.Second))) })
	report, err := spread.Analyze(xs, spread.Uniform(0, time.Second))
	if err != nil {
		panic(err)
	}
	fmt.Println("failed:", report.Failed())
	// Output: failed: false
}

// A "jitter" that returns the same value on every call: the bug of a retry backoff that
// shipped with a clock-derived constant and a test that could not see it.
func ExampleAnalyze_constant() {
	xs := spread.Draw(1000, func() time.Duration { return 750 * time.Millisecond })
	report, _ := spread.Analyze(xs, spread.Uniform(0, time.Second))
	fmt.Println("most likely:", report.Diagnosis())
	for _, f := range report.Failures() {
		fmt.Println(f.Name())
	}
	// Output:
	// most likely: [constant clock-derived truncated]
	// distinct
	// mean
	// coverage/min
	// coverage/max
	// coverage/range
	// fit/ks
	// fit/tails
	// fit/spread
	// lattice/digits
	// lattice/grid
	// independence/serial-correlation
}

// A healthy random number over half the declared range: the checks see the shape of the
// spread, not the health of the generator.
func ExampleOnly() {
	r := rand.New(rand.NewPCG(1, 2))
	xs := spread.Draw(1000, func() float64 { return r.Float64() / 2 })
	report, _ := spread.Analyze(xs, spread.Uniform(0.0, 1.0), spread.Only(spread.CheckCoverage))
	for _, res := range report.Results {
		fmt.Printf("%s failed=%v\n", res.Name(), res.Failed)
	}
	// Output:
	// coverage/min failed=false
	// coverage/max failed=true
	// coverage/range failed=true
}

// Too small a sample cannot be sized at 1e-9: the error names the n each check needs.
func ExampleAnalyze_tooSmall() {
	_, err := spread.Analyze([]float64{0.1, 0.7, 0.4}, spread.Uniform(0.0, 1.0), spread.Only(spread.CheckMean))
	fmt.Println(err)
	// Output: spread: n = 3 values are too few to size every check at a false-failure rate of 1e-9: mean needs n >= 13. Draw at least 13 values, raise FalseFailureRate, or leave those checks out with Only
}

// What a failing Check prints (Check adds the seed and the command that replays the test): a
// "jitter" read from a clock that steps 57ms per call passes bounds, distinct values and the
// mean, and the order of its values gives it away.
func ExampleReport_String() {
	var now time.Duration
	clock := func() time.Duration { now += 57 * time.Millisecond; return now % time.Second }
	report, err := spread.Analyze(spread.Draw(1000, clock), spread.Uniform(0, time.Second))
	if err != nil {
		panic(err)
	}
	fmt.Print(report)
	// Output:
	// spread: 3 of 14 statistics fail on n = 1000 values against Uniform[0s, 1s) (false-failure rate 1e-9 for the call, split by Bonferroni)
	//   most likely: clock-derived
	//   FAIL independence/ascents: 942 ascents in 999 steps (expected 499.5); want between 440 and 559
	//        limit sized for a false-failure rate of alpha 5.56e-11 by acceptance interval of the ascent count, ascents of 1000 values, n = 1000, exact
	//        outside the limit: 383 outside the interval; suggests: clock-derived: the values rise step by step, as a clock does
	//   FAIL independence/turning-points: 113 turning points in 998 inner values (expected 665.3); want between 578 and 752
	//        limit sized for a false-failure rate of alpha 5.56e-11 by acceptance interval of the turning-point count, turning points of 1000 values, n = 1000, exact
	//        outside the limit: 465 outside the interval; suggests: clock-derived: long rising or falling runs: serially correlated values
	//   FAIL independence/serial-correlation: lag-1 product sum 56.24 of the positions centred on the middle of the range; want |sum| < 25.58
	//        limit sized for a false-failure rate of alpha 5.56e-11 by Freedman's inequality on the martingale of the lag-1 products, predictable variance at most 10.41 (of the observed 6.924), over 6 levels, n = 1000, bound
	//        outside the limit: 30.65 past the limit; suggests: clock-derived: each value follows the one before: serially correlated values
	//   sample over the declared range, 32 bins (a correct sample fills each with about 31.2; fullest bin here: 32):
	//     0s |████████████████████████████████| 1s
	//   the other statistics:
	//     bounds                       ok    min 0s, max 999ms, all inside; want every value in [0s, 1s) [exact]
	//     distinct                     ok    1000 distinct values, 0 repeats; want fewer than 3 repeats [alpha 1.67e-10]
	//     mean                         ok    mean 499.5ms, off the expected 500ms by 500µs (0.1 standard errors); want off by less than 58.33ms (6.4 standard errors) [alpha 1.67e-10]
	//     coverage/min                 ok    min 0s; want min <= 23.337017ms [alpha 5.56e-11]
	//     coverage/max                 ok    max 999ms; want max >= 976.662982ms [alpha 5.56e-11]
	//     coverage/range               ok    range 999ms; want range > 973.4ms [alpha 5.56e-11]
	//     fit/ks                       ok    D = 0.0010 (largest gap between the sample's CDF and the declared one); want D < 0.1099 [alpha 5.56e-11]
	//     fit/tails                    ok    smallest tail probability of an order statistic of the values 1e-06: the smallest value (0s) lies too low; want every tail probability > 1.67e-13 [alpha 5.56e-11]
	//     fit/spread                   ok    smallest tail probability of an order statistic of the distances from the middle 2e-06: the smallest distance from the middle (1e-09 of the half-width) lies too low; want every tail probability > 1.67e-13 [alpha 5.56e-11]
	//     lattice/digits               ok    0 of the first 21 binary digits of the position the same in every value; want none [alpha 8.33e-11]
	//     lattice/grid                 ok    coarsest grid over the range holding every value within one step: none of up to 2^28 points; want none of up to 2^28 points [alpha 8.33e-11]
}
