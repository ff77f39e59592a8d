package spread_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/spreadcheck/spreadcheck/spread"
)

// A declaration takes the type of its bounds: time.Second makes this one a declaration of
// durations, which Check takes for a sample of durations only. Untyped constants alone make an
// int (or a float64), so a sample of another type names its type.
func ExampleUniform() {
	r := rand.New(rand.NewPCG(1, 2))
	waits := spread.Draw(1000, func() time.Duration { return time.Duration(r.Int64N(int64(time.Second))) })
	ids := spread.Draw(1000, func() int64 { return r.Int64N(1000) })

	a, _ := spread.Analyze(waits, spread.Uniform(0, time.Second))
	b, _ := spread.Analyze(ids, spread.Uniform[int64](0, 1000)) // spread.Uniform(0, 1000) would not compile
	fmt.Println(a.Dist, a.Failed())
	fmt.Println(b.Dist, b.Failed())
	// Output:
	// Uniform[0s, 1s) false
	// Uniform[0, 1000) false
}

// Continuous takes its type from the distribution's methods: gonum's distributions declare
// float64 values.
func ExampleContinuous() {
	r := rand.New(rand.NewPCG(1, 2))
	xs := spread.Draw(1000, func() float64 { return 1 + 0.1*r.NormFloat64() })
	report, _ := spread.Analyze(xs, spread.Continuous(distuv.Normal{Mu: 1, Sigma: 0.1}))
	fmt.Println(report.Dist, report.Failed())
	// Output: distuv.Normal{Mu:1 Sigma:0.1} false
}

// Discrete names the sample's type: a gonum distribution's methods take float64 whatever the
// sample, so they cannot tell it.
func ExampleDiscrete() {
	r := rand.New(rand.NewPCG(1, 2))
	failures := spread.Draw(1000, func() int { // of 10 attempts, each failing one time in 5
		n := 0
		for range 10 {
			if r.IntN(5) == 0 {
				n++
			}
		}
		return n
	})
	report, _ := spread.Analyze(failures, spread.Discrete[int](distuv.Binomial{N: 10, P: 0.2}))
	fmt.Println(report.Dist, report.Failed())
	// Output: distuv.Binomial{N:10 P:0.2} false
}
