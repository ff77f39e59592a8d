package sizing

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// nearGridCount counts, by brute force over every cell, the cells k of 0..w-1 that lie closer
// than one cell to a point j w / 2^b of the grid: |k 2^b - j w| < 2^b for some j.
func nearGridCount(w uint64, b int) uint64 {
	var c uint64
	for k := range w {
		r := (k << b) % w
		if min(r, w-r) < 1<<b {
			c++
		}
	}
	return c
}

// TestGridLimitIntExact checks the limit against the share of cells near each grid, counted
// cell by cell, on ranges whose width is a power of two, odd, or neither: the tail at the
// limit is at most alpha, and one grid finer is above it.
func TestGridLimitIntExact(t *testing.T) {
	for _, w := range []uint64{4, 16, 100, 1000, 1024, 3000, 4097} {
		for _, n := range []int{1, 2, 3, 5, 10} {
			for _, alpha := range []float64{1e-9, 1e-3, 0.2} {
				b, method, err := GridLimitInt(w, n, alpha)
				var small *TooSmallError
				if errors.As(err, &small) {
					q := float64(nearGridCount(w, 1)) / float64(w)
					if math.Pow(q, float64(n)) <= alpha {
						t.Errorf("W = %d, n = %d, alpha = %g: too small, but grid 2^1 has tail %g", w, n, alpha, math.Pow(q, float64(n)))
					}
					continue
				}
				if err != nil || !strings.Contains(method, "exact") {
					t.Fatalf("GridLimitInt(%d, %d, %g): %v, %q", w, n, alpha, err, method)
				}
				if tail := math.Pow(float64(nearGridCount(w, b))/float64(w), float64(n)); tail > alpha {
					t.Errorf("GridLimitInt(%d, %d, %g) = %d: tail %g", w, n, alpha, b, tail)
				}
				if finer := b + 1; uint64(1)<<(finer+1) <= w {
					if tail := math.Pow(float64(nearGridCount(w, finer))/float64(w), float64(n)); tail <= alpha*(1-1e-9) {
						t.Errorf("GridLimitInt(%d, %d, %g) = %d: grid 2^%d meets alpha too (%g)", w, n, alpha, b, finer, tail)
					}
				}
			}
		}
	}
}

// TestGridLimitIntSimulation draws seeded samples of 3 values from 1000 cells and counts how
// often every value lies within one cell of the grid at the limit for alpha = 0.01: about as
// often as the exact tail says.
func TestGridLimitIntSimulation(t *testing.T) {
	const w, n, alpha, trials = 1000, 3, 0.01, 200000
	b, _, err := GridLimitInt(w, n, alpha)
	if err != nil {
		t.Fatal(err)
	}
	p := math.Pow(float64(nearGridCount(w, b))/w, n)
	r := rand.New(rand.NewPCG(3, 4))
	hits := 0
	for range trials {
		all := true
		for range n {
			k := r.Uint64N(w)
			rem := (k << b) % w
			all = all && min(rem, w-rem) < 1<<b
		}
		if all {
			hits++
		}
	}
	sd := math.Sqrt(p * (1 - p) / trials)
	if got := float64(hits) / trials; math.Abs(got-p) > 4.5*sd || p > alpha {
		t.Errorf("grid 2^%d held every value in %.5f of runs; exact %.5f, alpha %g", b, got, p, alpha)
	}
}

// TestGridLimitCatchesFewBits: on nanoseconds over a second, a 16-bit generator's values lie
// within a nanosecond of the grid of 2^16 points, and the limit at n = 3 and 1e-10 is a grid
// of 2^17: three values suffice. On floats with the resolution of rand.Float64 (2^-24 and
// some), the limit admits the same generator from 6 values.
func TestGridLimitCatchesFewBits(t *testing.T) {
	if b, _, err := GridLimitInt(1e9, 3, 1e-10); err != nil || b < 16 {
		t.Errorf("GridLimitInt(1e9, 3, 1e-10) = %d, %v; want >= 16", b, err)
	}
	if b, _, err := GridLimitInt(1e9, 2, 1e-10); err != nil || b >= 16 {
		t.Errorf("GridLimitInt(1e9, 2, 1e-10) = %d, %v; want < 16", b, err)
	}
	res := 0x1p-24 + 4*0x1p-53
	if b, _, err := GridLimit(res, 6, 1e-10); err != nil || b < 16 {
		t.Errorf("GridLimit(2^-24, 6, 1e-10) = %d, %v; want >= 16", b, err)
	}
}

// TestGridLimitBoundsFloatSources checks the bound 2^(b+2) res on the share of a float32
// source's values (k/2^24, widened to float64) near each grid, with res = 2^-24 + 4 ulp,
// counted value by value over one period of the grid (the 2^(24-b) values between two of its
// points).
func TestGridLimitBoundsFloatSources(t *testing.T) {
	res := 0x1p-24 + 4*0x1p-53
	for b := 1; math.Ldexp(res, b+2) < 1; b++ {
		scale, tol := math.Ldexp(1, b), math.Ldexp(res, b)
		period := 1 << (24 - b)
		near := 0
		for k := range period {
			x := float64(float32(k)/(1<<24)) * scale
			if math.Abs(x-math.Round(x)) <= tol {
				near++
			}
		}
		if share, bound := float64(near)/float64(period), math.Ldexp(res, b+2); share > bound {
			t.Errorf("b = %d: %.3g of the float32 values near the grid, bound %.3g", b, share, bound)
		}
	}
}

// TestGridLimitErrors: bad input gets an error, a small sample the n it needs.
func TestGridLimitErrors(t *testing.T) {
	for _, w := range []uint64{0, 1, 3} {
		if _, _, err := GridLimitInt(w, 10, 1e-9); !isInput(err) {
			t.Errorf("GridLimitInt(%d): %v, want an *InputError", w, err)
		}
	}
	for _, res := range []float64{0, -1, 0.125, 1, math.NaN(), math.Inf(1)} {
		if _, _, err := GridLimit(res, 10, 1e-9); !isInput(err) {
			t.Errorf("GridLimit(%v): %v, want an *InputError", res, err)
		}
	}
	_, _, err := GridLimitInt(1000, 2, 1e-9)
	var small *TooSmallError
	if !errors.As(err, &small) {
		t.Fatalf("GridLimitInt(1000, 2, 1e-9): %v, want a TooSmallError", err)
	}
	if _, _, err := GridLimitInt(1000, small.Need, 1e-9); err != nil {
		t.Errorf("n = Need = %d: %v", small.Need, err)
	}
	if _, _, err := GridLimitInt(1000, small.Need-1, 1e-9); err == nil {
		t.Errorf("n = Need-1 = %d works", small.Need-1)
	}
}

// TestGridLimitProperties: the limit never falls as n grows or alpha rises, and stays in range.
func TestGridLimitProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Uint64Range(4, math.MaxUint64).Draw(t, "w")
		n := rapid.IntRange(1, 1e6).Draw(t, "n")
		alpha := rapid.Float64Range(1e-300, 0.5).Draw(t, "alpha")
		b, _, err := GridLimitInt(w, n, alpha)
		if err != nil {
			var small *TooSmallError
			if !errors.As(err, &small) || small.Need <= n {
				t.Fatalf("GridLimitInt(%d, %d, %g): %v", w, n, alpha, err)
			}
			return
		}
		if b < 1 || uint64(1)<<(b+1) > w {
			t.Fatalf("GridLimitInt(%d, %d, %g) = %d", w, n, alpha, b)
		}
		if b2, _, err := GridLimitInt(w, n+1, alpha); err != nil || b2 < b {
			t.Fatalf("GridLimitInt(%d, %d+1, %g) = %d, %v below %d", w, n, alpha, b2, err, b)
		}
		if b2, _, err := GridLimitInt(w, n, min(2*alpha, 0.9)); err != nil || b2 < b {
			t.Fatalf("GridLimitInt(%d, %d, 2 x %g) = %d, %v below %d", w, n, alpha, b2, err, b)
		}
	})
}

// TestGridLimitFinestGrid: b ranges over every b with 2^(b+2) res < 1, so a resolution that is
// no power of two gets its finest grid too: at res = 0.1, b = 1 (8 res = 0.8); at res = 0.0009,
// b = 8 (2^10 res = 0.92). Both had been left out (the top was floor(-log2 res) - 3), and
// GridLimit(0.111, ...) said the sample was too small. The fuzzer found it (FuzzGrid).
func TestGridLimitFinestGrid(t *testing.T) {
	for _, c := range []struct {
		res  float64
		want int
	}{{0.1, 1}, {0.1111111111111111, 1}, {0.0009, 8}, {0x1p-10, 7}, {0x1p-10 * 0.98, 8}} {
		b, _, err := GridLimit(c.res, 2000, 1e-10)
		if err != nil || b != c.want {
			t.Errorf("GridLimit(%v, 2000, 1e-10) = %d, %v; want %d, the finest grid with 2^(b+2) res < 1", c.res, b, err, c.want)
		}
	}
}

// TestNeedBeyondMaxN: when the n a check needs lies beyond 2^53, the answer is an *InputError
// (no sample will do), not a *TooSmallError whose Need, 2^53 + 1 rounded through float64 to
// 2^53, is no sample's need (and equals N at n = 2^53). The fuzzer found GridLimit's.
func TestNeedBeyondMaxN(t *testing.T) {
	if _, _, err := GridLimit(0.125*(1-1e-15), 1000, 1e-9); !isInput(err) {
		t.Errorf("GridLimit(1/8 - ulps, 1000, 1e-9): %v, want an *InputError", err)
	}
	if _, err := StuckBitsLimit(1, 1000, 1e-9, 1-1e-15); !isInput(err) {
		t.Errorf("StuckBitsLimit(1, 1000, 1e-9, 1 - 1e-15): %v, want an *InputError", err)
	}
	if _, err := StuckBitsLimit(1, MaxN, 1e-9, 1-1e-15); !isInput(err) {
		t.Errorf("StuckBitsLimit(1, 2^53, 1e-9, 1 - 1e-15): %v, want an *InputError", err)
	}
}
