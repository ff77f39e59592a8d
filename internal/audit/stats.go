package audit

import (
	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// looks returns the cumulative run counts after which a mutant's results are examined: R/8,
// R/4, R/2 and R, rounded up, without repeats. A mutant stops at the first look where it is
// killed; the false-kill rate is split across the looks (Bonferroni), so stopping early costs
// no validity.
func looks(r int) []int {
	var out []int
	for _, d := range []int{8, 4, 2, 1} {
		m := (r + d - 1) / d
		if len(out) == 0 || m > out[len(out)-1] {
			out = append(out, m)
		}
	}
	return out
}

// cannotKill reports whether a mutant with a failures in m runs, compared with b failures in
// n baseline runs, stays above the level even if every one of the rest of its r runs fails:
// its survival is then certain, and running on would change nothing.
func cannotKill(a, m, r, b, n int, level float64) bool {
	return fisherGreater(a+(r-m), r, b, n) > level
}

// fisherGreater and fisherLess are sizing's one-sided Fisher tests with an error read as no
// evidence, p = 1. The counts are this audit's runs, valid by construction; were one ever not,
// the p-value of 0 that comes with the error would kill a mutant that nothing showed.
func fisherGreater(x1, n1, x2, n2 int) float64 {
	p, err := sizing.FisherGreater(x1, n1, x2, n2)
	if err != nil {
		return 1
	}
	return p
}

func fisherLess(x1, n1, x2, n2 int) float64 {
	p, err := sizing.FisherLess(x1, n1, x2, n2)
	if err != nil {
		return 1
	}
	return p
}
