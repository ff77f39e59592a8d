package testreport

import (
	"fmt"
	"math"
	"testing"
)

func TestRunsToDetect(t *testing.T) {
	for _, c := range []struct {
		rate float64
		want int
	}{{0.01, 299}, {0.001, 2995}, {0.5, 5}, {0.96, 1}} {
		got, err := RunsToDetect(c.rate)
		if err != nil || got != c.want {
			t.Errorf("RunsToDetect(%v) = %d, %v; want %d", c.rate, got, err, c.want)
		}
		// The definition: got runs see the flake with probability >= 95%, got-1 do not.
		if miss := math.Pow(1-c.rate, float64(got)); miss > 0.05 {
			t.Errorf("RunsToDetect(%v) = %d misses with probability %v", c.rate, got, miss)
		}
		if miss := math.Pow(1-c.rate, float64(got-1)); got > 1 && miss <= 0.05 {
			t.Errorf("RunsToDetect(%v) = %d, but %d runs already suffice", c.rate, got, got-1)
		}
	}
	for _, bad := range []float64{0, -0.1, 1, math.NaN(), math.Inf(1), 1e-12} {
		if _, err := RunsToDetect(bad); err == nil {
			t.Errorf("RunsToDetect(%v): no error", bad)
		}
	}
	// DetectableRate inverts it: 0.6% after 500 runs.
	if got := DetectableRate(500); math.Abs(got-0.0059736) > 1e-6 {
		t.Errorf("DetectableRate(500) = %v, want 0.0059736", got)
	}
	if n, _ := RunsToDetect(DetectableRate(500) * 1.0001); n != 500 {
		t.Errorf("RunsToDetect(DetectableRate(500)) = %d, want 500", n)
	}
}

func ExampleRunsToDetect() {
	n, _ := RunsToDetect(0.01)
	fmt.Printf("a 1%% flake shows up at least once in %d runs, with 95%% probability\n", n)
	// Output:
	// a 1% flake shows up at least once in 299 runs, with 95% probability
}
