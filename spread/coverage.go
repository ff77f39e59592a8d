package spread

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// checkCoverage fails when the extremes of the sample stay too far from the ends of the
// declared range, or the sample's range is too narrow. For a range collapsed towards one end the
// max (or min) statistic is the likelihood-ratio test; for a range collapsed around any point the
// range statistic is. The three share the check's rate by Bonferroni.
func (s *sample) checkCoverage(alpha float64) ([]Result, error) {
	if s.dist.like != nil {
		part, err := share(alpha, 2)
		if err != nil {
			return nil, err
		}
		return s.coverageLike(part)
	}
	if s.dist.law != nil {
		part, err := share(alpha, 2)
		if err != nil {
			return nil, err
		}
		return s.coverageLaw(part)
	}
	part, err := share(alpha, 3)
	if err != nil {
		return nil, err
	}
	if s.discrete {
		return s.coverageDiscrete(part)
	}
	return s.coverageContinuous(part)
}

// The failures of the coverage statistics point to these suspects.
var (
	collapsedTop    = []Suspect{SuspectCollapsedRange, SuspectSignFlip, SuspectIgnoresBase}
	collapsedBottom = []Suspect{SuspectCollapsedRange, SuspectSignFlip, SuspectIgnoresBase}
	collapsedBoth   = []Suspect{SuspectCollapsedRange, SuspectIgnoresBase}
)

const (
	whyNoTop    = "the values never come near the top of the range"
	whyNoBottom = "the values never come near the bottom of the range"
	whyNarrow   = "the values crowd into a narrow band"
)

// coverageContinuous checks the positions of a float sample. A value's position lies within
// the resolution res of the continuous uniform it stands for, so each limit moves by res (the
// range by 2 res) on the side of passing.
func (s *sample) coverageContinuous(alpha float64) ([]Result, error) {
	eps, err := sizing.CoverageGap(s.n, alpha)
	if err != nil {
		return nil, err
	}
	r, err := sizing.RangeLimit(s.n, alpha)
	if err != nil {
		return nil, err
	}
	gap, span := eps+s.res, r-2*s.res
	if gap >= 1 || span <= 0 {
		need := smallestN(func(n int) bool {
			e, err1 := sizing.CoverageGap(n, alpha)
			r, err2 := sizing.RangeLimit(n, alpha)
			return err1 == nil && err2 == nil && e+s.res < 1 && r-2*s.res > 0
		})
		return nil, &sizing.TooSmallError{Check: string(CheckCoverage), N: s.n, Need: max(need, s.n+1), Alpha: alpha}
	}
	ulo, uhi := s.sortedPos[0], s.sortedPos[s.n-1]
	res := ""
	if s.res > 0 {
		res = fmt.Sprintf(", plus %.3g of the width for the resolution of the floats", s.res)
	}
	gapMethod := Method{Formula: "P(max < hi - eps w) = (1 - eps)^n for n correct draws: eps = 1 - alpha^(1/n)",
		Inputs: fmt.Sprintf("n = %d, eps = %.4g%s", s.n, eps, res), Exact: true}
	top := Result{
		Check: CheckCoverage, Statistic: "max", N: s.n, Alpha: alpha,
		Value: 1 - uhi, Limit: gap, Margin: gap - (1 - uhi), Failed: 1-uhi > gap,
		Method:   gapMethod,
		Observed: fmt.Sprintf("max %s", s.max),
		Want:     fmt.Sprintf("max >= %s", s.value(1-gap)),
	}
	bottom := Result{
		Check: CheckCoverage, Statistic: "min", N: s.n, Alpha: alpha,
		Value: ulo, Limit: gap, Margin: gap - ulo, Failed: ulo > gap,
		Method:   gapMethod,
		Observed: fmt.Sprintf("min %s", s.min),
		Want:     fmt.Sprintf("min <= %s", s.value(gap)),
	}
	spanRes := Result{
		Check: CheckCoverage, Statistic: "range", N: s.n, Alpha: alpha,
		Value: uhi - ulo, Limit: span, Margin: (uhi - ulo) - span, Failed: uhi-ulo <= span,
		Method: Method{Formula: "P(range <= r w) = n r^(n-1) - (n-1) r^n for n correct draws",
			Inputs: fmt.Sprintf("n = %d, r = %.4g%s", s.n, r, res), Exact: true},
		Observed: fmt.Sprintf("range %s (%.4g of the width)", s.kind.formatApprox((uhi-ulo)*s.width()), uhi-ulo),
		Want:     fmt.Sprintf("range > %.4g of the width", span),
	}
	unit := 0.0 // a general distribution: margins in probability
	if s.dist.uniform {
		unit = s.width()
	} else {
		spanRes.Observed = fmt.Sprintf("range %.4g of the probability scale", uhi-ulo)
		spanRes.Want = fmt.Sprintf("range > %.4g of the probability scale", span)
	}
	s.coverageFailures(&top, &bottom, &spanRes, unit)
	return []Result{bottom, top, spanRes}, nil
}

// coverageDiscrete checks the cells of a discrete sample, exactly in integers.
func (s *sample) coverageDiscrete(alpha float64) ([]Result, error) {
	w := s.cells
	j, err := sizing.CoverageGapInt(w, s.n, alpha)
	if err != nil {
		return nil, err
	}
	r, err := sizing.RangeLimitInt(w, s.n, alpha)
	if err != nil {
		return nil, err
	}
	kmin, kmax := s.sortedCells[0], s.sortedCells[s.n-1]
	cells := fmt.Sprintf("W = %d", w)
	gapMethod := Method{Formula: fmt.Sprintf("P(max <= hi - %d steps) = P(min >= lo + %d steps) = ((W - %d)/W)^n for n draws from W equally likely values", j+1, j, j),
		Inputs: fmt.Sprintf("n = %d, %s", s.n, cells), Exact: true}
	top := Result{
		Check: CheckCoverage, Statistic: "max", N: s.n, Alpha: alpha,
		Value: float64(w - 1 - kmax), Limit: float64(j), Margin: float64(j) - float64(w-1-kmax), Failed: kmax <= w-1-j,
		Method:   gapMethod,
		Observed: fmt.Sprintf("max %s", s.max),
		Want:     fmt.Sprintf("max >= %s", s.cellValue(w-j)),
	}
	bottom := Result{
		Check: CheckCoverage, Statistic: "min", N: s.n, Alpha: alpha,
		Value: float64(kmin), Limit: float64(j), Margin: float64(j) - float64(kmin), Failed: kmin >= j,
		Method:   gapMethod,
		Observed: fmt.Sprintf("min %s", s.min),
		Want:     fmt.Sprintf("min <= %s", s.cellValue(j-1)),
	}
	spanRes := Result{
		Check: CheckCoverage, Statistic: "range", N: s.n, Alpha: alpha,
		Value: float64(kmax - kmin), Limit: float64(r), Margin: float64(kmax-kmin) - float64(r), Failed: kmax-kmin <= r,
		Method: Method{Formula: "P(range <= L-1) = (W-L+1)(L/W)^n - (W-L)((L-1)/W)^n for n draws from W equally likely values",
			Inputs: fmt.Sprintf("n = %d, %s", s.n, cells), Exact: true},
		Observed: fmt.Sprintf("range %s", s.steps(float64(kmax-kmin))),
		Want:     fmt.Sprintf("range > %s", s.steps(float64(r))),
	}
	s.coverageFailures(&top, &bottom, &spanRes, s.cellUnit())
	return []Result{bottom, top, spanRes}, nil
}

// coverageLaw checks the extremes of a sample from a law on the probability scale: for n draws
// from any distribution, P(P(X <= max) <= 1 - eps) <= (1 - eps)^n, and the same for
// P(X >= min). The range has no such distribution-free law there, so it is left out.
func (s *sample) coverageLaw(alpha float64) ([]Result, error) {
	eps, err := sizing.CoverageGap(s.n, alpha)
	if err != nil {
		return nil, err
	}
	l := s.dist.law
	_, below := l.stretch(s.sorted[s.n-1]) // P(X <= max), and the resolution of a float law
	lowest, _ := l.stretch(s.sorted[0])
	above := 1 - lowest // P(X >= min)
	method := Method{Formula: "P(P(X <= max) <= 1 - eps) <= (1 - eps)^n for n draws of any distribution (exact on a continuous one): eps = 1 - alpha^(1/n)",
		Inputs: fmt.Sprintf("n = %d, eps = %.4g", s.n, eps)}
	top := Result{
		Check: CheckCoverage, Statistic: "max", N: s.n, Alpha: alpha,
		Value: 1 - below, Limit: eps, Margin: eps - (1 - below), Failed: below <= 1-eps,
		Method:   method,
		Observed: fmt.Sprintf("max %s, P(X <= max) = %.4g", s.max, below),
		Want:     fmt.Sprintf("P(X <= max) > %.4g", 1-eps),
	}
	bottom := Result{
		Check: CheckCoverage, Statistic: "min", N: s.n, Alpha: alpha,
		Value: 1 - above, Limit: eps, Margin: eps - (1 - above), Failed: above <= 1-eps,
		Method:   method,
		Observed: fmt.Sprintf("min %s, P(X >= min) = %.4g", s.min, above),
		Want:     fmt.Sprintf("P(X >= min) > %.4g", 1-eps),
	}
	span := Result{Check: CheckCoverage, Statistic: "range", N: s.n, Skipped: skipped("no distribution-free law of the range for a distribution with atoms")}
	s.coverageFailures(&top, &bottom, &span, 0)
	return []Result{bottom, top, span}, nil
}

// coverageFailures fills in the distance and the suspects of the failing statistics; unit
// turns a margin into the sample's units (0: the margin is a probability).
func (s *sample) coverageFailures(top, bottom, span *Result, unit float64) {
	for _, r := range []*Result{top, bottom, span} {
		r.Check = CheckCoverage
	}
	distance := func(m float64) string {
		if unit == 0 {
			return fmt.Sprintf("%.4g in probability", m)
		}
		return s.kind.formatApprox(m * unit)
	}
	switch {
	case top.Failed && bottom.Failed:
		top.Suspects, bottom.Suspects = collapsedBoth, collapsedBoth
	case top.Failed:
		top.Suspects = collapsedTop
	case bottom.Failed:
		bottom.Suspects = collapsedBottom
	}
	if top.Failed {
		top.why, top.Distance = whyNoTop, distance(-top.Margin)+" short of the limit"
	}
	if bottom.Failed {
		bottom.why, bottom.Distance = whyNoBottom, distance(-bottom.Margin)+" above the limit"
	}
	if span.Failed {
		span.Suspects, span.why = collapsedBoth, whyNarrow
		span.Distance = distance(-span.Margin) + " narrower than the limit"
	}
}
