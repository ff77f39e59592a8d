package sizing

import (
	"errors"
	"math"
	"math/bits"
	"testing"
)

// stuckBitsExact returns P(B >= b), b = 0..J, for n draws from W equally likely cells, where B
// counts the first J binary digits of the position k/W on which all n draws agree: by summing
// over every n-tuple of the digit patterns, weighted by how many cells have each.
func stuckBitsExact(w uint64, J, n int) []float64 {
	cnt := make([]float64, 1<<J)
	for k := range w {
		cnt[(k<<J)/w]++
	}
	tail := make([]float64, J+1)
	ps := make([]int, n)
	for {
		p := 1.0
		and, or := (1<<J)-1, 0
		for _, x := range ps {
			p *= cnt[x] / float64(w)
			and &= x
			or |= x
		}
		agree := J - bits.OnesCount(uint(and^or))
		for b := 0; b <= agree; b++ {
			tail[b] += p
		}
		i := 0
		for i < n && ps[i] == (1<<J)-1 {
			ps[i] = 0
			i++
		}
		if i == n {
			return tail
		}
		ps[i]++
	}
}

// TestStuckBitsBoundHolds checks the bound against the exact tail on grids of W cells,
// powers of two and others, with the slack 2^(J+1)/W.
func TestStuckBitsBoundHolds(t *testing.T) {
	for _, w := range []uint64{16, 100, 1000, 1024, 3000} {
		for _, J := range []int{2, 3, 4} {
			if 1<<(J+1) > w {
				continue
			}
			slack := float64(uint64(1)<<(J+1)) / float64(w)
			if slack >= 1 {
				continue
			}
			for _, n := range []int{1, 2, 3, 4} {
				exact := stuckBitsExact(w, J, n)
				for b := 1; b <= J; b++ {
					bound := must(StuckBitsTail(J, n, b, slack))
					if exact[b] > bound*(1+1e-12) {
						t.Errorf("W = %d, J = %d, n = %d: P(B >= %d) = %g above the bound %g", w, J, n, b, exact[b], bound)
					}
				}
			}
		}
	}
}

// TestStuckBitsLimit checks the limit against its bound, and its errors.
func TestStuckBitsLimit(t *testing.T) {
	for _, c := range []struct {
		bits, n int
		alpha   float64
	}{{21, 1000, 2e-10}, {21, 38, 2e-10}, {44, 6, 2e-10}, {10, 40, 1e-9}} {
		b, err := StuckBitsLimit(c.bits, c.n, c.alpha, 1.0/128)
		if err != nil {
			t.Fatalf("StuckBitsLimit(%d, %d, %g): %v", c.bits, c.n, c.alpha, err)
		}
		if p := must(StuckBitsTail(c.bits, c.n, b, 1.0/128)); p > c.alpha {
			t.Errorf("StuckBitsLimit(%d, %d, %g) = %d: tail %g", c.bits, c.n, c.alpha, b, p)
		}
		if b > 1 {
			if p := must(StuckBitsTail(c.bits, c.n, b-1, 1.0/128)); p <= c.alpha*(1-1e-9) {
				t.Errorf("StuckBitsLimit(%d, %d, %g) = %d: b-1 meets alpha too", c.bits, c.n, c.alpha, b)
			}
		}
	}
	// At n = 1000 a single stuck bit fails; two values agree on all 21 bits too often to tell.
	if b, _ := StuckBitsLimit(21, 1000, 2e-10, 0); b != 1 {
		t.Errorf("StuckBitsLimit(21, 1000) = %d, want 1", b)
	}
	_, err := StuckBitsLimit(21, 2, 2e-10, 1.0/128)
	var small *TooSmallError
	if !errors.As(err, &small) {
		t.Fatalf("StuckBitsLimit(21, 2): %v, want a TooSmallError", err)
	}
	if _, err := StuckBitsLimit(21, small.Need, 2e-10, 1.0/128); err != nil {
		t.Errorf("n = Need = %d: %v", small.Need, err)
	}
	if _, err := StuckBitsLimit(21, small.Need-1, 2e-10, 1.0/128); err == nil {
		t.Errorf("n = Need-1 = %d works", small.Need-1)
	}
	for _, c := range []struct {
		bits  int
		slack float64
	}{{0, 0}, {65, 0}, {10, 1}, {10, -0.1}, {10, math.NaN()}} {
		if _, err := StuckBitsLimit(c.bits, 100, 1e-9, c.slack); !isInput(err) {
			t.Errorf("StuckBitsLimit(%d, 100, 1e-9, %v): %v, want an *InputError", c.bits, c.slack, err)
		}
	}
}
