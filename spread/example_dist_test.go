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

// A cap turns the top of full jitter into a point mass: min(600ms, rand.N(1s)) lands on 600ms
// four times in ten. Clamp declares it; Uniform would fail it (its values stop at the cap,
// and 40% repeat).
func ExampleDist_Clamp() {
	r := rand.New(rand.NewPCG(1, 2))
	waits := spread.Draw(1000, func() time.Duration {
		return min(600*time.Millisecond, time.Duration(r.Int64N(int64(time.Second))))
	})
	report, _ := spread.Analyze(waits, spread.Uniform(0, time.Second).Clamp(0, 600*time.Millisecond))
	fmt.Println(report.Dist, report.Failed())
	// Output: Uniform[0s, 1s).Clamp(0s, 600ms) false
}

// A float offset of +-3 converted to an integer truncates toward zero: 0 is twice as likely
// as any other value, and -3 never comes. TowardZero declares it; Uniform(-3, 3) fails it.
func ExampleDist_TowardZero() {
	r := rand.New(rand.NewPCG(1, 2))
	offsets := spread.Draw(1000, func() int { return int((2*r.Float64() - 1) * 3) })
	truncated, _ := spread.Analyze(offsets, spread.Uniform(-3, 3).TowardZero())
	uniform, _ := spread.Analyze(offsets, spread.Uniform(-3, 3))
	fmt.Println(truncated.Dist, truncated.Failed())
	fmt.Println(uniform.Dist, uniform.Failed())
	// Output:
	// Uniform[-3, 3).TowardZero() false
	// Uniform[-3, 3) true
}

// A percent formula makes a few values on no exact grid: base*(90 + rand.N(21))/100, 21
// values. OneOf declares them, each equally likely.
func ExampleOneOf() {
	const base = 1337 * time.Millisecond
	var values []time.Duration
	for p := 90; p <= 110; p++ {
		values = append(values, base*time.Duration(p)/100)
	}
	r := rand.New(rand.NewPCG(1, 2))
	waits := spread.Draw(1000, func() time.Duration { return base * time.Duration(90+r.IntN(21)) / 100 })
	report, _ := spread.Analyze(waits, spread.OneOf(values...))
	fmt.Println(report.Dist, report.Failed())
	// Output: OneOf(1.2033s, 1.21667s, 1.23004s, 1.24341s, ..., 1.4707s: 21 values) false
}
