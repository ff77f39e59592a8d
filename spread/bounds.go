package spread

import "fmt"

// checkBounds fails when any value lies outside the declared range or off its step grid. It is
// exact: a correct implementation never fails it, so it takes no share of the false-failure rate.
func (s *sample) checkBounds() Result {
	bad := s.below + s.above + s.offGrid + s.offSupport
	r := Result{
		Name:      CheckBounds,
		N:         s.n,
		Statistic: float64(bad),
		Margin:    -float64(bad),
		Failed:    bad > 0,
		Method:    "a correct implementation never leaves the declared range",
		Want:      s.rangeText(),
		Observed:  fmt.Sprintf("min %s, max %s", s.format(s.sorted[0]), s.format(s.sorted[s.n-1])),
	}
	if !r.Failed {
		r.Observed += ", all inside"
		return r
	}
	r.Observed += fmt.Sprintf(": %d of %d values outside", bad, s.n)
	r.Distance = fmt.Sprintf("%d values", bad)
	switch {
	case s.below > 0 && s.above > 0:
		r.Suggests = "overshoot and sign-flip (values past both ends of the range)"
	case s.below > 0:
		r.Suggests = "sign-flip (values below the floor: the random offset applied the wrong way)"
	case s.above > 0:
		r.Suggests = "overshoot (values past the ceiling)"
	case s.offSupport > 0:
		r.Suggests = "wrong shape (values the declared distribution never produces)"
	default:
		r.Suggests = "quantized to the wrong step"
	}
	parts := ""
	if s.below > 0 {
		parts += fmt.Sprintf(", %d below", s.below)
	}
	if s.above > 0 {
		parts += fmt.Sprintf(", %d at or past the end", s.above)
	}
	if s.offSupport > 0 {
		parts += fmt.Sprintf(", %d of probability zero", s.offSupport)
	}
	if s.offGrid > 0 {
		parts += fmt.Sprintf(", %d off the %s grid", s.offGrid, s.format(float64(s.step)))
	}
	r.Observed += " (" + parts[2:] + ")"
	return r
}

// rangeText describes where every value must lie.
func (s *sample) rangeText() string {
	d := s.dist
	switch {
	case s.discrete && s.step > 1:
		return fmt.Sprintf("every value in [%s, %s) on a grid of step %s", s.format(d.lo), s.format(d.hi), s.format(float64(s.step)))
	case d.uniform:
		return fmt.Sprintf("every value in [%s, %s)", s.format(d.lo), s.format(d.hi))
	case d.disc != nil:
		return "every value of probability > 0 under the declared distribution"
	case !d.bounded():
		return fmt.Sprintf("every value in the support [%s, %s]", s.format(d.lo), s.format(d.hi))
	default:
		return fmt.Sprintf("every value in [%s, %s]", s.format(d.lo), s.format(d.hi))
	}
}
