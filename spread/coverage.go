package spread

import (
	"fmt"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// checkCoverage fails when the extremes of the sample stay too far from the ends of the
// declared range, or the sample's range is too narrow. For a range collapsed towards one end the
// max (or min) statistic is the likelihood-ratio test; for a range collapsed around any point the
// range statistic is. The three share the check's rate.
func (s *sample) checkCoverage(alpha float64) ([]Result, error) {
	if s.dist.disc != nil {
		part, err := sizing.Sidak(alpha, 2)
		if err != nil {
			return nil, err
		}
		return s.coverageDiscreteDist(part)
	}
	part, err := sizing.Sidak(alpha, 3)
	if err != nil {
		return nil, err
	}
	if s.discrete {
		return s.coverageDiscrete(part)
	}
	return s.coverageContinuous(part)
}

const (
	suggestNoTop    = "collapsed-range (the values never come near the top of the range)"
	suggestNoBottom = "collapsed-range or sign-flip (the values never come near the bottom of the range)"
	suggestNarrow   = "collapsed-range (the values crowd into a narrow band)"
)

func (s *sample) coverageContinuous(alpha float64) ([]Result, error) {
	eps, err := sizing.CoverageGap(s.n, alpha)
	if err != nil {
		return nil, err
	}
	r, err := sizing.RangeLimit(s.n, alpha)
	if err != nil {
		return nil, err
	}
	lo, hi := s.sorted[0], s.sorted[s.n-1]
	ulo, uhi := s.pos(lo), s.pos(hi)
	unit := s.unitText()
	gapMethod := fmt.Sprintf("P(%s < %s) = (1 - eps)^n for n = %d correct draws: eps = 1 - alpha^(1/n) = %.4g, exact", unit, "1 - eps", s.n, eps)
	top := Result{
		Name: CheckCoverage + "/max", N: s.n, Alpha: alpha,
		Statistic: 1 - uhi, Limit: eps, Margin: eps - (1 - uhi), Failed: uhi < 1-eps,
		Method:   gapMethod,
		Observed: fmt.Sprintf("max %s", s.format(hi)),
		Want:     fmt.Sprintf("max >= %s", s.at(1-eps)),
	}
	bottom := Result{
		Name: CheckCoverage + "/min", N: s.n, Alpha: alpha,
		Statistic: ulo, Limit: eps, Margin: eps - ulo, Failed: ulo > eps,
		Method:   gapMethod,
		Observed: fmt.Sprintf("min %s", s.format(lo)),
		Want:     fmt.Sprintf("min <= %s", s.at(eps)),
	}
	spanRes := Result{
		Name: CheckCoverage + "/range", N: s.n, Alpha: alpha,
		Statistic: uhi - ulo, Limit: r, Margin: (uhi - ulo) - r, Failed: uhi-ulo <= r,
		Method:   fmt.Sprintf("P(range <= r) = n r^(n-1) - (n-1) r^n for n = %d correct draws, r = %.4g of the %s, exact", s.n, r, unit),
		Observed: fmt.Sprintf("range %s (%.4g of the %s)", s.format(hi-lo), uhi-ulo, unit),
		Want:     fmt.Sprintf("range > %.4g of the %s", r, unit),
	}
	s.coverageFailures(&top, &bottom, &spanRes)
	return []Result{bottom, top, spanRes}, nil
}

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
	kmin, kmax := s.sortedK[0], s.sortedK[s.n-1]
	step := float64(s.step)
	cell := func(k int64) float64 { return s.dist.lo + float64(k)*step }
	gapMethod := fmt.Sprintf("P(max <= hi - %d steps) = P(min >= lo + %d steps) = ((W - %d)/W)^n for n = %d draws from W = %s equally likely values, exact",
		j+1, j, j, s.n, supportText(float64(w), true))
	top := Result{
		Name: CheckCoverage + "/max", N: s.n, Alpha: alpha,
		Statistic: float64(w - 1 - kmax), Limit: float64(j), Margin: float64(j - (w - 1 - kmax)), Failed: kmax <= w-1-j,
		Method:   gapMethod,
		Observed: fmt.Sprintf("max %s", s.format(s.sorted[s.n-1])),
		Want:     fmt.Sprintf("max >= %s", s.format(cell(w-j))),
	}
	bottom := Result{
		Name: CheckCoverage + "/min", N: s.n, Alpha: alpha,
		Statistic: float64(kmin), Limit: float64(j), Margin: float64(j - kmin), Failed: kmin >= j,
		Method:   gapMethod,
		Observed: fmt.Sprintf("min %s", s.format(s.sorted[0])),
		Want:     fmt.Sprintf("min <= %s", s.format(cell(j-1))),
	}
	spanRes := Result{
		Name: CheckCoverage + "/range", N: s.n, Alpha: alpha,
		Statistic: float64(kmax - kmin), Limit: float64(r), Margin: float64(kmax - kmin - r), Failed: kmax-kmin <= r,
		Method:   fmt.Sprintf("P(range <= L-1) = (W-L+1)(L/W)^n - (W-L)((L-1)/W)^n for n = %d draws from W = %s values, exact", s.n, supportText(float64(w), true)),
		Observed: fmt.Sprintf("range %s", s.format(float64(kmax-kmin)*step)),
		Want:     fmt.Sprintf("range > %s", s.format(float64(r)*step)),
	}
	s.coverageFailures(&top, &bottom, &spanRes)
	return []Result{bottom, top, spanRes}, nil
}

// coverageDiscreteDist checks the extremes of a sample from a general distribution over the
// integers on the probability scale: for n draws from any distribution,
// P(P(X <= max) <= 1 - eps) <= (1 - eps)^n, and the same for P(X >= min). The range has no such
// distribution-free law there, so it is left out.
func (s *sample) coverageDiscreteDist(alpha float64) ([]Result, error) {
	eps, err := sizing.CoverageGap(s.n, alpha)
	if err != nil {
		return nil, err
	}
	lo, hi := s.sorted[0], s.sorted[s.n-1]
	below := s.dist.disc.CDF(hi)       // P(X <= max)
	above := 1 - s.dist.disc.CDF(lo-1) // P(X >= min), on the integers
	method := fmt.Sprintf("P(P(X <= max) <= 1 - eps) <= (1 - eps)^n for n = %d draws of any distribution: eps = 1 - alpha^(1/n) = %.4g, conservative on a discrete support", s.n, eps)
	top := Result{
		Name: CheckCoverage + "/max", N: s.n, Alpha: alpha,
		Statistic: 1 - below, Limit: eps, Margin: eps - (1 - below), Failed: below <= 1-eps,
		Method:   method,
		Observed: fmt.Sprintf("max %s, P(X <= max) = %.4g", s.format(hi), below),
		Want:     fmt.Sprintf("P(X <= max) > %.4g", 1-eps),
	}
	bottom := Result{
		Name: CheckCoverage + "/min", N: s.n, Alpha: alpha,
		Statistic: 1 - above, Limit: eps, Margin: eps - (1 - above), Failed: above <= 1-eps,
		Method:   method,
		Observed: fmt.Sprintf("min %s, P(X >= min) = %.4g", s.format(lo), above),
		Want:     fmt.Sprintf("P(X >= min) > %.4g", 1-eps),
	}
	span := Result{Name: CheckCoverage + "/range", N: s.n, Skipped: "no distribution-free law of the range for a discrete distribution"}
	s.coverageFailures(&top, &bottom, &span)
	return []Result{bottom, top, span}, nil
}

// coverageFailures fills in the distance and the suggestion of the failing statistics.
func (s *sample) coverageFailures(top, bottom, span *Result) {
	if top.Failed {
		top.Suggests = suggestNoTop
		top.Distance = fmt.Sprintf("%s short of the limit", s.distance(-top.Margin))
	}
	if bottom.Failed {
		bottom.Suggests = suggestNoBottom
		bottom.Distance = fmt.Sprintf("%s above the limit", s.distance(-bottom.Margin))
	}
	if span.Failed {
		span.Suggests = suggestNarrow
		span.Distance = fmt.Sprintf("%s narrower than the limit", s.distance(-span.Margin))
	}
}

// unitText names the scale the coverage statistics are measured on.
func (s *sample) unitText() string {
	if s.dist.uniform {
		return "width"
	}
	return "probability scale F(x)"
}

// at returns the value at position p of the declared distribution, printed.
func (s *sample) at(p float64) string {
	if s.dist.uniform {
		return s.format(s.dist.lo + p*s.width())
	}
	return s.format(s.dist.cont.Quantile(p))
}

// distance prints a margin measured on the coverage scale in the sample's units.
func (s *sample) distance(m float64) string {
	switch {
	case s.discrete:
		return s.format(m * float64(s.step))
	case s.dist.uniform:
		return s.format(m * s.width())
	case s.dist.disc != nil:
		return fmt.Sprintf("%.4g in probability", m)
	default:
		return fmt.Sprintf("%.4g on the probability scale", m)
	}
}
