package sizing

import (
	"math"
	"math/bits"
	"testing"
)

// arrangements calls f with every way to choose which n of 2n pooled, ordered values belong
// to the first sample (bit i set: the i-th smallest is the first sample's), all equally likely
// for two samples from one continuous distribution.
func arrangements(n int, f func(mask uint32)) {
	for m := uint32(0); m < 1<<(2*n); m++ {
		if bits.OnesCount32(m) == n {
			f(m)
		}
	}
}

// TestKSTwoSampleTailEnumeration checks the formula against every arrangement, n <= 7.
func TestKSTwoSampleTailEnumeration(t *testing.T) {
	for n := 1; n <= 7; n++ {
		counts := make([]float64, n+1) // by n D
		total := 0.0
		arrangements(n, func(m uint32) {
			a, b, d := 0, 0, 0
			for i := range 2 * n {
				if m>>i&1 == 1 {
					a++
				} else {
					b++
				}
				d = max(d, a-b, b-a)
			}
			counts[d]++
			total++
		})
		for k := 0; k <= n+1; k++ {
			var want float64
			for d := k; d <= n; d++ {
				want += counts[max(d, 0)] / total
			}
			if k <= 0 {
				want = 1
			}
			if got := must(KSTwoSampleTail(n, k)); math.Abs(got-want) > 1e-12 {
				t.Errorf("n = %d: P(n D >= %d) = %.15g, want %.15g", n, k, got, want)
			}
		}
	}
}

// TestKSTwoSampleCritical checks the critical value against its tail, the published
// asymptotic shape, and its errors.
func TestKSTwoSampleCritical(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
	}{{10, 0.05}, {100, 1e-3}, {1000, 1e-9}, {100_000, 1e-10}} {
		k, method, err := KSTwoSampleCritical(c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if p := must(KSTwoSampleTail(c.n, k)); p > c.alpha {
			t.Errorf("n = %d, alpha = %g: k = %d has tail %g (%s)", c.n, c.alpha, k, p, method)
		}
		if p := must(KSTwoSampleTail(c.n, k-1)); k > 1 && p <= c.alpha*(1-1e-9) {
			t.Errorf("n = %d, alpha = %g: k-1 = %d meets alpha too", c.n, c.alpha, k-1)
		}
		// The limit of sqrt(n/2) D is Kolmogorov's: k/n is near sqrt(ln(2/alpha)/n).
		if dkw := math.Sqrt(math.Log(2/c.alpha) / float64(c.n)); float64(k)/float64(c.n) > 1.2*dkw+2/float64(c.n) {
			t.Errorf("n = %d, alpha = %g: k/n = %g, far above %g", c.n, c.alpha, float64(k)/float64(c.n), dkw)
		}
	}
	if _, _, err := KSTwoSampleCritical(5, 1e-9); err == nil {
		t.Error("n = 5 at 1e-9: no TooSmallError (2/C(10, 5) = 0.008)")
	}
}

// TestPooledTopLimitEnumeration checks the exceedance limit against every arrangement.
func TestPooledTopLimitEnumeration(t *testing.T) {
	for n := 2; n <= 7; n++ {
		// top[k] = P(the k largest pooled are all from the second sample)
		top := make([]float64, n+1)
		total := 0.0
		arrangements(n, func(m uint32) {
			total++
			for k := 0; k <= n; k++ {
				if k > 0 && m>>(2*n-k)&1 == 1 {
					break
				}
				top[k]++
			}
		})
		for _, alpha := range []float64{0.5, 0.1, 0.01} {
			k, err := PooledTopLimit(n, alpha)
			if err != nil {
				continue
			}
			if p := top[k] / total; p > alpha {
				t.Errorf("n = %d, alpha = %g: k = %d, P = %g", n, alpha, k, p)
			}
			if p := top[k-1] / total; k > 1 && p <= alpha*(1-1e-9) {
				t.Errorf("n = %d, alpha = %g: k-1 = %d meets alpha too (P = %g)", n, alpha, k-1, p)
			}
		}
	}
}

// TestLgammaDiff checks the Stirling difference against big-float log-gammas' difference where
// both apply, and its use at the largest n.
func TestLgammaDiff(t *testing.T) {
	for _, c := range []struct{ a, d float64 }{{1e6, 10}, {1e6, 1e5}, {3e6, 1}, {1e7, 1e6}} {
		x, _ := math.Lgamma(c.a + c.d)
		y, _ := math.Lgamma(c.a)
		if got, want := lgammaDiff(c.a, c.d), x-y; math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
			t.Errorf("lgammaDiff(%g, %g) = %.12g, want %.12g", c.a, c.d, got, want)
		}
	}
	for _, n := range []int{MaxN, 1e12} {
		k, _, err := KSTwoSampleCritical(n, 1e-9)
		if err != nil || k < 1 || k > n {
			t.Fatalf("KSTwoSampleCritical(%d, 1e-9) = %d, %v", n, k, err)
		}
		// n D is about sqrt(n ln(2/alpha)) near the limit.
		if want := math.Sqrt(float64(n) * math.Log(2/1e-9)); math.Abs(float64(k)/want-1) > 0.05 {
			t.Errorf("KSTwoSampleCritical(%d) = %d, want about %g", n, k, want)
		}
	}
}
