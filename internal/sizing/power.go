package sizing

import (
	"math"
)

// CollapseOptimalN returns the sample size ceil(ln(1/alpha)/ln c) that the optimal
// (Neyman-Pearson) test needs to detect a range collapsed by a factor c > 1 at false-failure
// rate alpha: the probability that n correct draws all fall in a given 1/c of the range is
// c^-n. It is 30 for c = 2 and 9 for c = 10 at alpha = 1e-9; no check can do better.
func CollapseOptimalN(c, alpha float64) (int, error) {
	if math.IsNaN(c) || math.IsInf(c, 0) || c <= 1 {
		return 0, inputErr("CollapseOptimalN", "c = %v, want a finite factor > 1", c)
	}
	if err := checkAlpha("CollapseOptimalN", alpha); err != nil {
		return 0, err
	}
	x := -math.Log(alpha) / math.Log1p(c-1)
	// Forgive rounding in the last bits, so that c = 10, alpha = 1e-9 gives 9, not 10.
	x = math.Ceil(x * (1 - 1e-12))
	if !(x <= MaxN) {
		return 0, inputErr("CollapseOptimalN", "n = %.3g is beyond MaxN for c = %v", x, c)
	}
	return max(1, int(x)), nil
}
