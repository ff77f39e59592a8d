package spread

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// tailsMaxResolution is the coarsest resolution, as a share of the range, at which the
// order-statistic tails run: on a coarser grid (a few values, a discrete distribution) each
// position is known only to within its wide cell, the tails can hardly fail, and their share of
// the rate goes to Kolmogorov-Smirnov instead.
const tailsMaxResolution = 1.0 / 1024

// positionBounds returns a function bounding the sorted positions of the values in [0, 1],
// for the order-statistic tails: lower <= U_(r) <= upper for the r-th smallest, U the
// continuous uniform position each value stands for (the cell [k/W, (k+1)/W) of a discrete
// value, the float position within its resolution, the CDF of a continuous distribution
// exactly). It returns nil where the tails do not run: a declaration that is not continuous or
// finely divided.
func (s *sample) positionBounds() func(r int) (lower, upper float64) {
	switch {
	case s.discrete:
		if float64(s.cells) < 1/tailsMaxResolution {
			return nil
		}
		w := float64(s.cells)
		return func(r int) (float64, float64) {
			k := float64(s.sortedCells[r-1])
			return k / w, math.Min(1, (k+1)/w)
		}
	case s.dist.uniform:
		if s.res > tailsMaxResolution {
			return nil
		}
		return func(r int) (float64, float64) {
			p := s.sortedPos[r-1]
			return clamp01(p - s.res), clamp01(p + s.res)
		}
	case s.dist.cont != nil:
		if s.res > tailsMaxResolution {
			return nil
		}
		return func(r int) (float64, float64) { p := s.sortedPos[r-1]; return clamp01(p - s.res), clamp01(p + s.res) }
	case s.dist.law != nil && s.dist.law.fine:
		return func(r int) (float64, float64) { return s.dist.law.stretch(s.sorted[r-1]) }
	}
	return nil
}

// foldedBounds returns bounds on the sorted distances |2U - 1| of the positions from the
// middle of the range at the given ranks, given bounds on the sorted positions: each value's
// distance lies between the distances of the ends of its interval (0 if the interval holds the
// middle), and the r-th smallest of values each bounded below (above) is bounded by the r-th
// smallest bound. The bounds fall over the positions below the middle and rise over those
// above, so their sorted order is a merge of the two runs (and of the few intervals across the
// middle), without a sort.
func foldedBounds(n int, bounds func(r int) (float64, float64), ranks []int) func(r int) (float64, float64) {
	lower := func(i int) float64 { l, _ := bounds(i + 1); return l }
	upper := func(i int) float64 { _, u := bounds(i + 1); return u }
	a := sort.Search(n, func(i int) bool { return upper(i) > 0.5 })          // upper <= 0.5 below a
	b := max(a, sort.Search(n, func(i int) bool { return lower(i) >= 0.5 })) // lower >= 0.5 from b on
	var cross []float64                                                      // the upper bounds across the middle
	for i := a; i < b; i++ {
		cross = append(cross, math.Max(1-2*lower(i), 2*upper(i)-1))
	}
	slices.Sort(cross)
	fl := atRanks(ranks, sortedRun{b - a, func(int) float64 { return 0 }}, sortedRun{a, func(i int) float64 { return 1 - 2*upper(a-1-i) }},
		sortedRun{n - b, func(i int) float64 { return 2*lower(b+i) - 1 }})
	fu := atRanks(ranks, sortedRun{len(cross), func(i int) float64 { return cross[i] }}, sortedRun{a, func(i int) float64 { return 1 - 2*lower(a-1-i) }},
		sortedRun{n - b, func(i int) float64 { return 2*upper(b+i) - 1 }})
	return func(r int) (float64, float64) {
		j, _ := slices.BinarySearch(ranks, r)
		return fl[j], fu[j]
	}
}

// sortedRun is an increasing run of values, read by index.
type sortedRun struct {
	n  int
	at func(i int) float64
}

// atRanks merges increasing runs and returns the values at the given ranks (1-based,
// increasing), reading each value once: O(n), n the values of all runs. (Selecting each rank
// by binary search, O(log^2 n) a rank, was ten times slower at n = 1,000 and saved a tenth at
// n = 10^6.)
func atRanks(ranks []int, runs ...sortedRun) []float64 {
	heads, next := make([]float64, len(runs)), make([]int, len(runs))
	for k, x := range runs {
		heads[k] = math.Inf(1)
		if x.n > 0 {
			heads[k] = x.at(0)
		}
	}
	out := make([]float64, 0, len(ranks))
	for r := 1; len(out) < len(ranks); r++ {
		k := 0
		for m := range heads {
			if heads[m] < heads[k] {
				k = m
			}
		}
		if r == ranks[len(out)] {
			out = append(out, heads[k])
		}
		if next[k]++; next[k] < runs[k].n {
			heads[k] = runs[k].at(next[k])
		} else {
			heads[k] = math.Inf(1)
		}
	}
	return out
}

// orderTails fails when an order statistic of the positions (or, folded, of their distances
// from the middle) lies further out in its own Beta tail than the judged ranks together may at
// alpha:
// where Kolmogorov-Smirnov weighs every deviation of the CDF alike, this sees an excess near an
// end of the range, where the CDF can stray only a little.
func (s *sample) orderTails(bounds func(r int) (float64, float64), alpha float64, folded bool) (Result, error) {
	c, method, err := sizing.OrderTailsLimit(s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	p, rank, low, err := sizing.OrderTails(s.n, bounds)
	if err != nil {
		return Result{}, err
	}
	at := rank - 1
	var shownAt string
	if folded {
		l, u := bounds(rank)
		shownAt = fmt.Sprintf("%.4g of the half-width", (l+u)/2)
	} else {
		shownAt = s.sortedValue(at)
	}
	name, what, whats := "tails", "value", "values"
	if folded {
		name, what, whats = "spread", "distance from the middle", "distances from the middle"
	}
	shown := max(p, tailsFloor) // a tail below float64's normal range prints as its floor
	r := Result{
		Check: CheckFit, Statistic: Statistic(name), N: s.n, Alpha: alpha,
		Value: p, Limit: c, Failed: p <= c,
		Margin:   math.Log10(shown) - math.Log10(c),
		Method:   sized(method, fmt.Sprintf("n = %d", s.n)),
		Observed: fmt.Sprintf("smallest tail probability of an order statistic of the %s %s: %s", whats, probText(p), tailsWhere(at, s.n, low, what, shownAt)),
		Want:     fmt.Sprintf("every tail probability > %.3g", c),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%.2g times less likely than the limit", c/shown)
		r.Suspects, r.why = tailsSuspects(folded, low, s.dist.uniform)
	}
	return r, nil
}

// tailsFloor is the smallest tail probability a report prints as a number.
const tailsFloor = 1e-300

// probText prints a tail probability, "< 1e-300" below the floor.
func probText(p float64) string {
	if p < tailsFloor {
		return "< 1e-300"
	}
	return fmt.Sprintf("%.3g", p)
}

// tailsWhere says which order statistic holds the smallest tail, where it lies, and on which
// side of where it should.
func tailsWhere(at, n int, low bool, what, value string) string {
	rank := fmt.Sprintf("the %ssmallest %s (%s)", ordinal(at+1), what, value)
	if at+1 > n/2 {
		rank = fmt.Sprintf("the %slargest %s (%s)", ordinal(n-at), what, value)
	}
	if low {
		return rank + " lies too low"
	}
	return rank + " lies too high"
}

// sortedValue prints the i-th smallest value of the sample.
func (s *sample) sortedValue(i int) string {
	switch {
	case s.dist.integer():
		return s.cellValue(s.sortedCells[i])
	case s.kind.integer:
		return s.kind.formatKey(s.sortedKeys[i])
	}
	return formatFloat(s.keyValue(s.sortedKeys[i]), s.kind.float32)
}

// tailsSuspects names what a failing tail points to: for the positions, values piled at one
// end or missing from it; for the distances from the middle, a spread too narrow (a collapse
// around the middle) or too wide (heavy ends).
func tailsSuspects(folded, low, uniform bool) ([]Suspect, string) {
	switch {
	case folded && low:
		return []Suspect{SuspectCollapsedRange, SuspectIgnoresBase, SuspectWrongShape}, "the values crowd the middle of the range: a spread too narrow"
	case folded:
		return []Suspect{SuspectWrongShape}, "the values crowd the ends of the range: ends heavier than declared"
	case uniform:
		return []Suspect{SuspectCollapsedRange, SuspectSignFlip, SuspectWrongShape}, "too many values at one end of the range, or too few at the other"
	}
	return []Suspect{SuspectWrongShape}, "too many values at one end of the distribution, or too few at the other"
}

// ordinal prints "", "2nd ", "3rd ", "4th ", ..., "11th ", "21st ": the rank before
// "smallest" or "largest", none for the first.
func ordinal(k int) string {
	if k == 1 {
		return ""
	}
	suffix := "th"
	if k%100 < 11 || k%100 > 13 {
		switch k % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(k) + suffix + " "
}
