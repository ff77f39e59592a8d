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
		fmt.Println(f.Name)
	}
	// Output:
	// most likely: [constant clock-derived truncated]
	// distinct
	// mean
	// coverage/min
	// coverage/max
	// coverage/range
	// fit
}

// A healthy random number over half the declared range: the checks see the shape of the
// spread, not the health of the generator.
func ExampleOnly() {
	r := rand.New(rand.NewPCG(1, 2))
	xs := spread.Draw(1000, func() float64 { return r.Float64() / 2 })
	report, _ := spread.Analyze(xs, spread.Uniform(0.0, 1.0), spread.Only(spread.CheckCoverage))
	for _, res := range report.Results {
		fmt.Printf("%s failed=%v\n", res.Name, res.Failed)
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
