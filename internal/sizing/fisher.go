package sizing

import (
	"math"
)

// Fisher's exact test compares two samples of runs, x1 failures in n1 runs and x2 in n2: given
// the failures in all, x1 + x2, and equal rates, the failures in the first sample are
// hypergeometric. The p-values below sum that distribution term by term (the first term from
// log-gamma, its neighbours by their ratio, summed relative to the first so that tails below
// 1e-300 come out as 0, not as a NaN). A p-value is never below the exact sum by
// construction: it is an upper bound summed with every rounding directed (hyperTail), rounded
// up to a float64; only beyond 2^20 factors or terms (millions of runs) is it the float64 sum
// rounded up by a bound on its error (see hyper.up). A sample of no runs says nothing: every
// p-value is 1.
//
// The counts are runs: n1 + n2 up to 2^32, so that no sum takes long. A sum needs about ten
// standard deviations of terms, at most about 330,000.

// FisherGreater returns the one-sided p-value of Fisher's exact test that the first sample
// fails more often than the second: the probability, under equal rates and given the total
// failures, of x1 or more failures in the first. It is R's fisher.test(matrix(c(x1, n1-x1, x2,
// n2-x2), 2), alternative = "greater")$p.value. It returns an *InputError unless
// 0 <= x1 <= n1, 0 <= x2 <= n2 and n1 + n2 <= 2^32.
func FisherGreater(x1, n1, x2, n2 int) (float64, error) {
	h, err := newHyper("FisherGreater", x1, n1, x2, n2)
	if err != nil {
		return 0, err
	}
	return h.tail(x1, 1), nil
}

// FisherLess returns the other one-sided p-value: the probability, under equal rates and given
// the total failures, of x1 or fewer failures in the first sample (alternative = "less").
func FisherLess(x1, n1, x2, n2 int) (float64, error) {
	h, err := newHyper("FisherLess", x1, n1, x2, n2)
	if err != nil {
		return 0, err
	}
	return h.tail(x1, -1), nil
}

// FisherTwoSided returns the two-sided p-value of Fisher's exact test that the two samples fail
// at the same rate: the probability of every table at most as likely as the one observed, with
// R's relative tolerance of 1e-7 for ties (alternative = "two.sided").
func FisherTwoSided(x1, n1, x2, n2 int) (float64, error) {
	h, err := newHyper("FisherTwoSided", x1, n1, x2, n2)
	if err != nil {
		return 0, err
	}
	if h.lo == h.hi {
		return 1, nil
	}
	limit := h.logProb(x1) + math.Log1p(1e-7)
	m := h.mode()
	// The terms rise to the mode and fall after it: the tables at most as likely as the one
	// observed are the two ends, up to l and from r.
	l := firstInt(h.lo, m, func(x int) bool { return h.logProb(x) > limit }) - 1
	r := firstInt(m, h.hi+1, func(x int) bool { return h.logProb(x) <= limit })
	return min(1, math.Nextafter(h.tail(l, -1)+h.tail(r, 1), 2)), nil // the sum rounded up
}

// tail returns P(X >= x) (step 1) or P(X <= x) (step -1) on the safe side, never below the
// exact sum: the verified upper bound of hyperTail rounded up to a float64, or, where that
// costs too much (more than 2^20 factors or terms, at millions of runs), the float64 sum
// rounded up by up's bound.
func (h hyper) tail(x, step int) float64 {
	switch {
	case step > 0 && x <= h.lo, step < 0 && x >= h.hi:
		return 1
	case step > 0 && x > h.hi, step < 0 && x < h.lo:
		return 0
	}
	if v, ok := h.hyperTail(x, step, true); ok {
		return min(1, roundUp(v))
	}
	if step > 0 {
		return h.up(h.upper(x))
	}
	return h.up(h.lower(x))
}

// up rounds a p-value up by the bound on its rounding, so that it is never below the exact
// sum: a p-value that rounds down makes a test fail more often than its rate. The terms come
// from log-gamma of values up to N = n1 + n2, whose logarithm is good to a few ulps of
// N ln N, and from ratios over at most 330,000 terms: the bound 16 (N + 2)(ln(N + 2) + 1) 2^-52
// is 2.7e-10 at N = 7,660, where p-values measured 2.2e-11 below exact sums in big floats,
// and 3.5e-4 at 2^32 runs.
func (h hyper) up(p float64) float64 {
	n := float64(h.n1+h.n2) + 2
	return min(1, p*(1+16*n*(math.Log(n)+1)*0x1p-52))
}

// hyper is the distribution of the failures in the first sample, x1 + x2 = t failures among
// n1 + n2 runs: the null distribution of Fisher's exact test. Its support is [lo, hi].
type hyper struct{ n1, n2, t, lo, hi int }

func newHyper(fn string, x1, n1, x2, n2 int) (hyper, error) {
	if n1 < 0 || n2 < 0 || x1 < 0 || x2 < 0 || x1 > n1 || x2 > n2 {
		return hyper{}, inputErr(fn, "%d failures in %d runs against %d in %d: want 0 <= failures <= runs", x1, n1, x2, n2)
	}
	if n1 > maxRuns || n2 > maxRuns-n1 {
		return hyper{}, inputErr(fn, "%d + %d runs: want at most 2^32 in all", n1, n2)
	}
	t := x1 + x2
	return hyper{n1, n2, t, max(0, t-n2), min(t, n1)}, nil
}

func (h hyper) logProb(x int) float64 {
	return logChoose(h.n1, x) + logChoose(h.n2, h.t-x) - logChoose(h.n1+h.n2, h.t)
}

// mode returns the most likely count, clamped to the support.
func (h hyper) mode() int {
	m := int(float64(h.n1+1) * float64(h.t+1) / float64(h.n1+h.n2+2))
	return min(max(m, h.lo), h.hi)
}

// ratio returns P(x+1) / P(x).
func (h hyper) ratio(x int) float64 {
	return float64(h.n1-x) * float64(h.t-x) / (float64(x+1) * float64(h.n2-h.t+x+1))
}

// upper returns P(X >= x).
func (h hyper) upper(x int) float64 {
	switch {
	case x <= h.lo:
		return 1
	case x > h.hi:
		return 0
	case x <= h.mode():
		return max(0, 1-h.lower(x-1)) // the other tail, which does not hold the mode, is summed
	}
	s, term := 0.0, 1.0 // in units of P(x)
	for y := x; y <= h.hi && term > 1e-17*s; y++ {
		s += term
		term *= h.ratio(y)
	}
	return min(1, math.Exp(h.logProb(x))*s)
}

// lower returns P(X <= x).
func (h hyper) lower(x int) float64 {
	switch {
	case x >= h.hi:
		return 1
	case x < h.lo:
		return 0
	case x >= h.mode():
		return max(0, 1-h.upper(x+1))
	}
	s, term := 0.0, 1.0
	for y := x; y >= h.lo && term > 1e-17*s; y-- {
		s += term
		if y > h.lo {
			term /= h.ratio(y - 1)
		}
	}
	return min(1, math.Exp(h.logProb(x))*s)
}
