package sizing

import (
	"fmt"
	"math"
	"slices"
)

// The order-statistic tails judge each of a set of order statistics of n positions on its own
// scale: U_(r), the r-th smallest of n independent uniform positions, follows Beta(r, n-r+1),
// and the statistic is the smallest one-sided tail probability of the observed U_(r) over the
// ranks r judged. Where Kolmogorov-Smirnov weighs every deviation of the empirical CDF alike,
// this counts an excess of values near an end of the range (where the CDF can stray only a
// little) as much as one in the middle: the Berk-Jones family.
//
// The ranks judged are every rank up to 32 from either end, where each single order statistic
// matters, and between them ranks about 5% apart: neighbouring order statistics move together,
// so judging each of them would spend the rate on near-copies of one event, and a sparse set of
// m ranks buys each a larger share, alpha/2m (m = 166 for n = 1,000, 450 for n = 10^6, where
// every rank would cost alpha/2n).
const (
	orderTailsDense  = 32
	orderTailsGrowth = 1.05
)

// OrderTailsRanks returns the ranks (1 for the smallest, n for the largest) of the order
// statistics among n that OrderTails judges, in increasing order: every rank up to 32 from
// either end, and between them ranks about 5% apart (each at most 1.05 times the one before,
// counted from the nearer end).
func OrderTailsRanks(n int) ([]int, error) {
	if err := checkN("OrderTailsRanks", n); err != nil {
		return nil, err
	}
	return slices.Clone(orderTailsRanks(n).ranks), nil
}

// judgedRanks holds the ranks of OrderTailsRanks and log C(n, r) at each.
type judgedRanks struct {
	ranks []int
	logC  []float64
}

var ranksCache memo[int, judgedRanks]

// orderTailsRanks returns the ranks of OrderTailsRanks with their log C(n, r), cached: the
// caller must not change them.
func orderTailsRanks(n int) judgedRanks {
	return ranksCache.get(n, func() judgedRanks {
		j := judgedRanks{ranks: ranksOf(n)}
		for _, r := range j.ranks {
			j.logC = append(j.logC, logChoose(n, r))
		}
		return j
	})
}

// ranksOf computes the ranks of OrderTailsRanks.
func ranksOf(n int) []int {
	var low, high []int
	for r := 1; r <= (n+1)/2; {
		low = append(low, r)
		if n+1-r != r {
			high = append(high, n+1-r)
		}
		next := int(math.Ceil(float64(r) * orderTailsGrowth))
		if r < orderTailsDense || next <= r {
			next = r + 1
		}
		r = next
	}
	for i := len(high) - 1; i >= 0; i-- {
		low = append(low, high[i])
	}
	return low
}

// OrderTailsLimit sizes the order-statistic tails of n positions: the check fails when the
// smallest one-sided tail probability over the m ranks of OrderTailsRanks is at most c. It
// returns c = alpha / 2m: the check then fails a correct sample with probability at most
// alpha, by the union bound over the 2m events {U_(r) <= a_r} and {U_(r) >= b_r}, each of
// probability exactly c, whatever their dependence. The union bound is the only slack: it
// counts as separate events the crossings of neighbouring order statistics, which come
// together; TestOrderTailsNearExact measures it against the exact crossing probability.
func OrderTailsLimit(n int, alpha float64) (c float64, method string, err error) {
	if err := checkN("OrderTailsLimit", n); err != nil {
		return 0, "", err
	}
	if err := checkAlpha("OrderTailsLimit", alpha); err != nil {
		return 0, "", err
	}
	m := float64(len(orderTailsRanks(n).ranks))
	c = alpha / (2 * m)
	return c, fmt.Sprintf("union bound over the two Beta(r, n-r+1) tails of %d order statistics (every rank to %d from either end, then ranks 5%% apart), each at alpha/%d = %.3g", int(m), orderTailsDense, 2*int(m), c), nil
}

// OrderTails returns the smallest one-sided tail probability of the order statistics of n
// positions in [0, 1] at the ranks of OrderTailsRanks, under independent uniform positions;
// the rank it belongs to; and whether the order statistic lies too low (low: too many values
// at or below it) or too high. bounds(r) bounds the r-th smallest position: lower <= U_(r) <=
// upper (equal for an exact position; the ends of its cell on a grid), each increasing with r.
// The tail of a low U_(r) is taken at its upper bound, P(U_(r) <= upper) = I_upper(r, n-r+1),
// and of a high one at its lower bound, so that a coarse position never looks more extreme than
// it may be.
//
// Each tail is the binomial tail it equals, summed (binomialTail), computed only where it may
// be the smallest: the tail equals a binomial tail, which lies between two
// bounds of a few logarithms each (see orderTailTerm), and at least 1/2 on the side of its
// median. The result is exact when it is below 1/2.
func OrderTails(n int, bounds func(r int) (lower, upper float64)) (p float64, rank int, low bool, err error) {
	if err := checkN("OrderTails", n); err != nil {
		return 0, 0, false, err
	}
	if bounds == nil {
		return 0, 0, false, inputErr("OrderTails", "no bounds")
	}
	judged := orderTailsRanks(n)
	ranks := judged.ranks
	terms := make([]orderTailTerm, 0, 2*len(ranks))
	pl, pu := 0.0, 0.0
	for i, r := range ranks {
		l, u := bounds(r)
		if !(0 <= l && l <= u && u <= 1) || l < pl || u < pu {
			return 0, 0, false, inputErr("OrderTails", "bounds [%v, %v] at rank %d, want 0 <= lower <= upper <= 1, each increasing with the rank", l, u, r)
		}
		pl, pu = l, u
		terms = orderTailTermsAt(terms, n, r, l, u, judged.logC[i])
	}
	// The smallest tail lies at an order statistic whose tail's lower bound is at most the
	// smallest upper bound: compute those exactly.
	best := 0.0
	for _, t := range terms {
		best = min(best, t.logHi())
	}
	best += 1e-9
	p, rank, low = 1, ranks[len(ranks)/2], true
	for _, t := range terms {
		if t.logPMF > best || t.logLo() > best {
			continue
		}
		if q := t.exact(); q < p {
			p, rank, low = q, t.rank, t.low
		}
	}
	return p, rank, low, nil
}

// orderTailTerm is one one-sided tail of one order statistic, as the binomial tail it equals:
// P(U_(r) <= x) = P(Bin(n, x) >= r) for the lower tail, P(U_(r) >= 1-y) = P(Bin(n, y) >= n-r+1)
// for the upper, with the log probability of its first term and the ratio of the second to the
// first.
type orderTailTerm struct {
	rank   int
	low    bool // the lower tail
	n, k   int
	x      float64 // the tail is P(Bin(n, x) >= k), k > nx
	logPMF float64 // log P(Bin(n, x) = k)
	r      float64 // (n-k) x / ((k+1)(1-x)), the ratio of each term to the one before at its largest
}

// orderTailTermsAt appends the tails of the r-th smallest of n positions, in [lower, upper],
// that may be small, given lc = log C(n, r): a tail on the side of a binomial's median
// (k <= nx) is at least 1/2 (its median is floor(nx) or above) and left out.
func orderTailTermsAt(terms []orderTailTerm, n, r int, lower, upper, lc float64) []orderTailTerm {
	nf := float64(n)
	if float64(r) > nf*upper {
		terms = append(terms, newOrderTailTerm(r, true, n, r, upper, lc))
	}
	if k, y := n-r+1, 1-lower; float64(k) > nf*y { // C(n, n-r+1) = C(n, r-1) = C(n, r) r/(n-r+1)
		terms = append(terms, newOrderTailTerm(r, false, n, k, y, lc+math.Log(float64(r)/float64(k))))
	}
	return terms
}

// newOrderTailTerm returns the term of P(Bin(n, x) >= k), given lc = log C(n, k).
func newOrderTailTerm(rank int, low bool, n, k int, x, lc float64) orderTailTerm {
	t := orderTailTerm{rank: rank, low: low, n: n, k: k, x: x}
	kf, nf := float64(k), float64(n)
	switch {
	case x <= 0:
		t.logPMF = math.Inf(-1)
	default: // x < k/n <= 1
		t.logPMF = lc + kf*math.Log(x) + (nf-kf)*math.Log1p(-x)
		t.r = t.ratio(kf)
	}
	return t
}

// ratio returns r_j = (n-j) x / ((j+1)(1-x)), the ratio of term j+1 of the binomial to term j.
func (t orderTailTerm) ratio(j float64) float64 {
	return (float64(t.n) - j) * t.x / ((j + 1) * (1 - t.x))
}

// logHi bounds the log of the tail from above: the ratios r_j fall as j grows, and r_k < 1 as
// k > nx, so the tail is at most P(k) / (1 - r_k).
func (t orderTailTerm) logHi() float64 { return min(0, t.logPMF-math.Log1p(-t.r)) }

// logLo bounds the log of the tail from below by its first M terms, each at least P(k) r*^j,
// r* = r_(k+M-2): P(k) (1 - r*^M) / (1 - r*). With M about 1 / (1 - r_k), the number of terms
// the upper bound's geometric series stands for, the two bounds lie within a small factor.
func (t orderTailTerm) logLo() float64 {
	kf := float64(t.k)
	m := min(float64(t.n)-kf+1, math.Max(1, math.Ceil(1/(1-t.r))))
	if m < 2 {
		return min(t.logPMF, t.logHi())
	}
	rs := t.ratio(kf + m - 2)
	return min(t.logPMF+math.Log(-math.Expm1(m*math.Log(rs)))-math.Log1p(-rs), t.logHi())
}

// exact computes the tail, P(Bin(n, x) >= k), by the sum of its terms (binomialTail): about
// 9 sqrt(n x (1-x)) of them at most, fewer than the n positions it judges.
func (t orderTailTerm) exact() float64 {
	return binomialTail(t.n, t.x, t.k)
}
