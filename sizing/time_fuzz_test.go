package sizing

import (
	"math"
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
		}
		if below, at, err := LongestRunProb(n, p, r); checkErr(t, "LongestRunProb", err) {
			checkIn(t, "LongestRunProb below", below, 0, 1)
			checkIn(t, "LongestRunProb at least", at, 0, 1)
		}
		if m, err := LoadLimit(n, p, r, alpha); checkErr(t, "LoadLimit", err) {
			checkIn(t, "LoadLimit", float64(m), 1, float64(n))
		}
		if tol, err := UniformSumTol(w, n, alpha); checkErr(t, "UniformSumTol", err) {
			checkIn(t, "UniformSumTol", tol, 0, math.MaxFloat64)
		}
	})
}
