package sizing

import (
	"fmt"
	"math"
	"math/bits"
)

// GridLimitInt sizes the grid statistic of the lattice check on n draws from w equally likely
// cells 0..w-1: G is the smallest b for which every value lies within one cell (closer than
// one) of a point j w / 2^b of the grid of 2^b points. A generator with too few random bits,
// scaled to the range, lands that close to its own grid without ever fixing a binary digit
// (a 16-bit generator on nanoseconds: floor(k 10^9 / 2^16)). It returns the largest b with
// P(G <= b) <= alpha: the check fails when G <= b.
//
// The limit is exact. The grids are nested (each holds the points of the coarser ones), so
// G <= b exactly when every value lies within one cell of the grid of 2^b points, and
// P(G <= b) = (c_b / w)^n with c_b = 2^(b+1) - 2^min(b, v) the cells within one of a grid
// point (two per point, one where the point is a cell: 2^min(b, v) of them, 2^v the largest
// power of two dividing w). b ranges over 1..B with 2^(B+1) <= w, so that grid points lie at
// least two cells apart. method gives the tail at the limit. It returns a *TooSmallError when
// no b meets alpha, and an *InputError for w < 4.
func GridLimitInt(w uint64, n int, alpha float64) (b int, method string, err error) {
	if err := checkN("GridLimitInt", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("GridLimitInt", alpha); err != nil {
		return 0, "", err
	}
	if w < 4 {
		return 0, "", inputErr("GridLimitInt", "w = %d cells, want w >= 4: no grid of two or more points lies two cells apart", w)
	}
	v := bits.TrailingZeros64(w)
	share := func(b int) float64 {
		c := float64(uint64(1)<<(b+1) - uint64(1)<<min(b, v))
		return c / float64(w)
	}
	top := bits.Len64(w) - 2 // the largest B with 2^(B+1) <= w
	b, q, err := gridSearch("GridLimitInt", top, n, alpha, share)
	if err != nil {
		return 0, "", err
	}
	return b, fmt.Sprintf("P(G <= %d) = (c/W)^n = %.3g for the %d of W = %d cells within one of a point of the grid, n = %d, exact", b, math.Pow(q, float64(n)), uint64(math.Round(q*float64(w))), w, n), nil
}

// GridLimit sizes the grid statistic of the lattice check on n positions in [0, 1], each within
// res of a continuous uniform position (the resolution of a float sample, see package
// spread): G is the smallest b for which every position lies within res of a point j / 2^b. It
// returns the largest b with P(G <= b) <= alpha: the check fails when G <= b.
//
// The limit is proven: the grids are nested, so P(G <= b) is the probability that every
// position lies within res of the grid of 2^b intervals; a position that does has its uniform
// within 2 res of a grid point, which happens with probability at most 2^(b+2) res (the 2^b + 1
// points, the two ends counting half). So P(G <= b) <= (2^(b+2) res)^n. b ranges over the b
// with 2^(b+2) res < 1. It returns a *TooSmallError when no b meets alpha, and an *InputError
// for res outside (0, 1/8).
func GridLimit(res float64, n int, alpha float64) (b int, method string, err error) {
	if err := checkN("GridLimit", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("GridLimit", alpha); err != nil {
		return 0, "", err
	}
	if math.IsNaN(res) || res <= 0 || res >= 0.125 {
		return 0, "", inputErr("GridLimit", "res = %v, want a resolution in (0, 1/8)", res)
	}
	share := func(b int) float64 { return math.Ldexp(res, b+2) }
	top := min(int(math.Ceil(-math.Log2(res)))-3, 62) // the largest B with 2^(B+2) res < 1
	for top > 1 && share(top) >= 1 {
		top--
	}
	b, q, err := gridSearch("GridLimit", top, n, alpha, share)
	if err != nil {
		return 0, "", err
	}
	return b, fmt.Sprintf("P(G <= %d) <= (2^(b+2) res)^n = %.3g for a resolution of %.3g, n = %d", b, math.Pow(q, float64(n)), res, n), nil
}

// gridSearch returns the largest b in 1..top with share(b)^n <= alpha (share rises with b),
// and share(b), or a *TooSmallError when even b = 1 is too likely.
func gridSearch(fn string, top, n int, alpha float64, share func(int) float64) (int, float64, error) {
	la := math.Log(alpha) - logMargin
	ok := func(b int) bool { return float64(n)*math.Log(share(b)) <= la }
	if top < 1 || !ok(1) {
		need := math.Inf(1)
		if top >= 1 {
			need = math.Ceil(la / math.Log(share(1)))
		}
		return 0, 0, tooSmall(fn, "lattice grid", n, needInt(need), alpha)
	}
	b := firstInt(1, top, func(b int) bool { return !ok(b + 1) })
	return b, share(b), nil
}
