package sizing_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// The statistic of a healthy sample stays under the limit; a jitter whose range collapsed to
// its lower 80% crosses it.
func ExampleKSStatistic() {
	r := rand.New(rand.NewPCG(1, 2))
	healthy := make([]float64, 1000)
	collapsed := make([]float64, 1000)
	for i := range healthy {
		healthy[i] = r.Float64()
		collapsed[i] = 0.8 * r.Float64()
	}
	slices.Sort(healthy)
	slices.Sort(collapsed)
	uniform := func(x float64) float64 { return min(1, max(0, x)) }
	d, _, _ := sizing.KSCritical(1000, 1e-9)
	for _, s := range []struct {
		name string
		xs   []float64
	}{{"healthy", healthy}, {"collapsed", collapsed}} {
		D, _ := sizing.KSStatistic(s.xs, uniform)
		fmt.Printf("%s: D = %.3f, fails: %v\n", s.name, D, D >= d)
	}
	// Output:
	// healthy: D = 0.025, fails: false
	// collapsed: D = 0.201, fails: true
}

// For draws from ten equally likely values the statistic lives on a lattice, and the exact
// distribution gives a tighter limit than the continuous one.
func ExampleKSCriticalUniformInt() {
	d, method, err := sizing.KSCriticalUniformInt(10, 1000, 1e-9)
	if err != nil {
		panic(err)
	}
	dc, _, _ := sizing.KSCritical(1000, 1e-9)
	fmt.Printf("discrete: %.4f (%s)\ncontinuous: %.4f\n", d, method, dc)
	// Output:
	// discrete: 0.0990 (exact (dynamic program over 10 cells))
	// continuous: 0.1032
}

// How likely a distance of 1.5/sqrt(n) is, and how that was computed: the asymptotic value
// is 1 - K(1.5) = 0.0222.
func ExampleKSTail() {
	for _, n := range []int{50, 5000, 500_000} {
		d := 1.5 / math.Sqrt(float64(n))
		p, method, _ := sizing.KSTail(n, d)
		fmt.Printf("n = %d: P(D >= %.4f) = %.4f (%s)\n", n, d, p, method)
	}
	// Output:
	// n = 50: P(D >= 0.2121) = 0.0188 (exact (Marsaglia-Tsang-Wang))
	// n = 5000: P(D >= 0.0212) = 0.0219 (2 x exact one-sided (Birnbaum-Tingey))
	// n = 500000: P(D >= 0.0021) = 0.0222 (DKW-Massart bound)
}

// The asymptotic 5% critical value of sqrt(n) D_n.
func ExampleKolmogorovQuantile() {
	x, err := sizing.KolmogorovQuantile(0.95)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.4f\n", x)
	// Output:
	// 1.3581
}
