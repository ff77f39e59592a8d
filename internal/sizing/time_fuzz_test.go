package sizing

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// FuzzTime calls the sizing of the checks on event times with hostile arguments: a finite
// answer inside its range or a typed error, never a NaN, a panic or a hang.
func FuzzTime(f *testing.F) {
	for i, p := range hostile {
		f.Add(hostileN[i%len(hostileN)], p, hostile[(i+4)%len(hostile)], hostileN[(i+5)%len(hostileN)], hostileW[i%len(hostileW)])
	}
	f.Add(1000, 0.5, 1e-9, 320, uint64(2e9))
	f.Add(50_001, 1-0x1p-53, 1e-12, 7, uint64(3))
	f.Fuzz(func(t *testing.T, n int, p, alpha float64, r int, w uint64) {
		if lo, hi, method, err := LongestRunInterval(n, p, alpha); checkErr(t, "LongestRunInterval", err) {
			checkIn(t, "LongestRunInterval lo", float64(lo), 0, float64(hi))
			checkIn(t, "LongestRunInterval hi", float64(hi), float64(lo), float64(n))
			if method == "" {
				t.Fatal("LongestRunInterval: no method")
			}
			if strings.HasPrefix(method, "exact") {
				checkRunsInterval(t, n, p, alpha, lo, hi)
			}
		}
		if below, at, err := LongestRunProb(n, p, r); checkErr(t, "LongestRunProb", err) {
			checkIn(t, "LongestRunProb below", below, 0, 1)
			checkIn(t, "LongestRunProb at least", at, 0, 1)
		}
		if m, err := LoadLimit(n, p, r, alpha); checkErr(t, "LoadLimit", err) {
			checkIn(t, "LoadLimit", float64(m), 1, float64(n))
			if n <= 1000 {
				checkSmallest(t, fmt.Sprintf("LoadLimit(%d, %v, %d, %v)", n, p, r, alpha), alpha, logTol, m, 1, func(m int) float64 {
					return float64(r) * binomialTailSum(n, p, m)
				})
			}
		}
		if tol, err := UniformSumTol(w, n, alpha); checkErr(t, "UniformSumTol", err) {
			checkIn(t, "UniformSumTol", tol, 0, math.MaxFloat64)
			if tol == 0 { // P(|S - mean| >= 0) = 1
				t.Fatalf("UniformSumTol(%d, %d, %v) = 0: every sum fails", w, n, alpha)
			}
		}
	})
}

// checkRunsInterval checks an exact interval of LongestRunInterval against LongestRunProb: each
// tail outside it at most alpha/2, and neither end could move inward.
func checkRunsInterval(t *testing.T, n int, p, alpha float64, lo, hi int) {
	t.Helper()
	a := alpha / 2
	below, _, _ := LongestRunProb(n, p, lo)     // P(L < lo)
	_, above, _ := LongestRunProb(n, p, hi+1)   // P(L > hi)
	belowIn, _, _ := LongestRunProb(n, p, lo+1) // P(L <= lo)
	_, aboveIn, _ := LongestRunProb(n, p, hi)   // P(L >= hi)
	call := fmt.Sprintf("LongestRunInterval(%d, %v, %v) = [%d, %d]", n, p, alpha, lo, hi)
	if below > a || above > a {
		t.Fatalf("%s: tails %v and %v outside, above alpha/2", call, below, above)
	}
	if lo < n && belowIn <= a*(1-limitSlack) || hi > 0 && aboveIn <= a*(1-limitSlack) {
		t.Fatalf("%s: an end could move inward: P(L <= lo) = %v, P(L >= hi) = %v", call, belowIn, aboveIn)
	}
}

// binomialTailSum returns P(Binomial(n, p) >= m) summed term by term from the top, the terms
// from log-gammas: an independent computation of LoadLimit's tail for a small n.
func binomialTailSum(n int, p float64, m int) float64 {
	var sum float64
	for k := n; k >= max(m, 0); k-- {
		lc, _ := math.Lgamma(float64(n + 1))
		l1, _ := math.Lgamma(float64(k + 1))
		l2, _ := math.Lgamma(float64(n - k + 1))
		sum += math.Exp(lc - l1 - l2 + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	return sum
}
