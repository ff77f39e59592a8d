package spread

import (
	"fmt"
	"math"
)

// checkBounds fails when any value lies outside the declared range or off its step grid. It is
// exact: a correct implementation never fails it, so it takes no share of the false-failure rate.
func (s *sample) checkBounds() Result {
	bad := s.below + s.above + s.offGrid + s.offSupport
	r := Result{
		Check:    CheckBounds,
		N:        s.n,
		Value:    float64(bad),
		Margin:   -float64(bad),
		Failed:   bad > 0,
		Method:   Method{Formula: "a correct implementation never leaves the declared range", Exact: true},
		Want:     s.rangeText(),
		Observed: fmt.Sprintf("min %s, max %s", s.min, s.max),
	}
	if !r.Failed {
		r.Observed += ", all inside"
		return r
	}
	r.Observed += fmt.Sprintf(": %d of %d values outside", bad, s.n)
	r.Distance = fmt.Sprintf("%d values", bad)
	switch {
	case s.below > 0 && s.above > 0:
		r.Suspects, r.why = []Suspect{SuspectOvershoot, SuspectSignFlip, SuspectIgnoresBase}, "values past both ends of the range"
	case s.below > 0:
		r.Suspects, r.why = []Suspect{SuspectSignFlip}, "values below the floor: the random offset applied the wrong way"
	case s.above > 0:
		r.Suspects, r.why = []Suspect{SuspectOvershoot, SuspectIgnoresBase}, "values past the ceiling"
	case s.offSupport > 0:
		r.Suspects, r.why = []Suspect{SuspectWrongShape}, "values the declared distribution never produces"
	default:
		r.Suspects, r.why = []Suspect{SuspectQuantized}, "values off the declared grid"
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
		parts += fmt.Sprintf(", %d off the grid of step %s", s.offGrid, s.stepText)
	}
	r.Observed += " (" + parts[2:] + ")"
	return r
}

// rangeText describes where every value must lie.
func (s *sample) rangeText() string {
	d := s.dist
	switch {
	case s.discrete && s.stepText != "1":
		return fmt.Sprintf("every value in %s on a grid of step %s", d.name[len("Uniform"):], s.stepText)
	case d.uniform:
		return fmt.Sprintf("every value in %s", d.name[len("Uniform"):])
	case d.law != nil && math.IsInf(d.law.lo, 0):
		return "every value of probability > 0 under the declared distribution"
	case d.law != nil:
		return fmt.Sprintf("every value %s takes, in [%s, %s]", d.name, d.law.text(d.law.lo), d.law.text(d.law.hi))
	default:
		return fmt.Sprintf("every value in the support [%s, %s]", s.kind.formatApprox(d.lo), s.kind.formatApprox(d.hi))
	}
}
