package sizing

import (
	"math"
	"sync"
	"testing"
)

func TestCollapseOptimalNReference(t *testing.T) {
	// testdata/reference-values.md, the Neyman-Pearson test at 1e-9.
	for _, c := range []struct {
		c    float64
		want int
	}{{2, 30}, {10, 9}, {1.1, 218}, {1.01, 2083}} {
		got, err := CollapseOptimalN(c.c, 1e-9)
		if err != nil || got != c.want {
			t.Errorf("CollapseOptimalN(%g, 1e-9) = %d, %v; want %d", c.c, got, err, c.want)
		}
	}
}

// TestCollapseOptimalNIsSmallest checks c^-n <= alpha at the answer and not one below, away
// from ties.
func TestCollapseOptimalNIsSmallest(t *testing.T) {
	for _, c := range []float64{1.001, 1.5, 2, 3, 7.5, 100} {
		for _, alpha := range []float64{1e-12, 3e-9, 1e-4, 0.3} {
			n, err := CollapseOptimalN(c, alpha)
			if err != nil {
				t.Fatal(err)
			}
			if p := math.Pow(c, -float64(n)); p > alpha*(1+1e-9) {
				t.Errorf("c = %g, alpha = %g: n = %d has c^-n = %g", c, alpha, n, p)
			}
			if p := math.Pow(c, -float64(n-1)); n > 1 && p <= alpha {
				t.Errorf("c = %g, alpha = %g: n-1 = %d already has c^-n = %g", c, alpha, n-1, p)
			}
		}
	}
}

func TestCollapseOptimalNErrors(t *testing.T) {
	for _, c := range []float64{1, 0.5, -2, math.NaN(), math.Inf(1)} {
		if _, err := CollapseOptimalN(c, 1e-9); err == nil {
			t.Errorf("CollapseOptimalN(%v, 1e-9): no error", c)
		}
	}
	if _, err := CollapseOptimalN(2, 0); err == nil {
		t.Error("CollapseOptimalN(2, 0): no error")
	}
	if _, err := CollapseOptimalN(1+1e-15, 1e-9); err == nil {
		t.Error("CollapseOptimalN(1+1e-15, 1e-9): no error for an n beyond int32")
	}
}

// TestConcurrentCalls calls the cached functions from many goroutines at once, as parallel
// tests do; run it with -race. Every goroutine must see the serial answers.
func TestConcurrentCalls(t *testing.T) {
	type answer struct {
		lo, hi, m int
		tol       float64
	}
	call := func(n int) answer {
		lo, hi, _, _ := AscentsInterval(n, 1e-9)
		m, _, _ := RepeatsLimit(1e4, n, 1e-9)
		dev, _, _ := MeanUniformInt(10, n, 1e-9)
		return answer{lo, hi, m, dev}
	}
	ns := []int{100, 500, 1000}
	want := make([]answer, len(ns))
	for i, n := range ns {
		want[i] = call(n)
		ascentsStat.cache.clear()
		repeatsCache.clear()
		meanIntCache.clear()
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range ns {
				i := (i + g) % len(ns)
				if got := call(ns[i]); got != want[i] {
					t.Errorf("goroutine %d, n = %d: %+v, want %+v", g, ns[i], got, want[i])
				}
			}
		})
	}
	wg.Wait()
}
