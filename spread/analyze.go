package spread

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// Analyze runs the default battery of checks (bounds, distinct, mean, coverage, fit, lattice,
// independence) on xs against the declared distribution and returns the report, without
// failing any test; Only runs some of them. Each statistic's limit is sized so that all of
// them together fail a correct implementation with probability at most the false-failure rate
// (default 1e-9; see FalseFailureRate).
//
// Analyze returns an error, and no verdict, for input it cannot judge: an empty sample, NaN or
// infinite values, an invalid declaration or option, or a sample too small to size a check at
// the requested rate (the error names the n each check needs).
func Analyze[T Number](xs []T, want Dist[T], opts ...Option) (r Report, err error) {
	return analyze(xs, want.d, opts)
}

// analyze is Analyze on a declaration of any type.
func analyze[T Number](xs []T, want dist, opts []Option) (r Report, err error) {
	if !want.uniform {
		defer recoverDist(want, &r, &err)
	}
	c, err := newConfig(opts)
	if err != nil {
		return Report{Dist: want.String(), N: len(xs)}, err
	}
	s, err := newSample(xs, want, c)
	if err != nil {
		return Report{Dist: want.String(), N: len(xs), FalseFailureRate: c.alpha}, err
	}
	return s.analyze(c.checks(), c.alpha)
}

// recoverDist turns a panic inside a declared distribution's methods (gonum's panic on
// parameters out of bounds, for one) into an error: bad input never panics.
func recoverDist(want dist, r *Report, err *error) {
	if p := recover(); p != nil {
		*r = Report{Dist: want.String()}
		*err = fmt.Errorf("spread: %s panicked: %v: check the distribution's parameters", want, p)
	}
}

// analyze runs the named checks, sharing alpha between those that can fail by chance.
func (s *sample) analyze(checks []SampleCheck, alpha float64) (Report, error) {
	r := Report{Dist: s.dist.String(), N: s.n, FalseFailureRate: alpha}
	chance := 0
	for _, name := range checks {
		if name != CheckBounds && s.skipReason(name) == "" {
			chance++
		}
	}
	part := alpha - s.slack
	if s.slack > alpha/2 {
		return r, fmt.Errorf("spread: %d values on the whole range of a 64-bit type: at most %.3g (alpha 2^63) at FalseFailureRate(%g), whose share the merged top cell would take", s.n, alpha*0x1p63, alpha)
	}
	if chance > 1 {
		var err error
		if part, err = share(part, chance); err != nil {
			return r, err
		}
	}
	var tooSmall []tooSmallCheck
	for _, name := range checks {
		if reason := s.skipReason(name); reason != "" {
			r.Results = append(r.Results, Result{Check: name, N: s.n, Skipped: skipped("%s", reason)})
			continue
		}
		results, err := s.run(name, part)
		var small *sizing.TooSmallError
		switch {
		case errors.As(err, &small):
			tooSmall = append(tooSmall, tooSmallCheck{name, small})
		case err != nil:
			return r, fmt.Errorf("spread: %s: %w", name, err)
		}
		r.Results = append(r.Results, results...)
	}
	r.histogram = s.histogram()
	blameTheShift(r.Results)
	if len(tooSmall) > 0 {
		return r, &tooFewError{n: s.n, alpha: alpha, checks: tooSmall}
	}
	return r, nil
}

// blameTheShift points a failing serial-correlation statistic at what the mean check saw
// when the order patterns pass: the lag-1 products are centred on the middle of the range, so
// a sample whose values sit off it (a collapse, a one-sided offset) fails them without any
// serial correlation.
func blameTheShift(results []Result) {
	var serial, mean *Result
	for i := range results {
		switch r := &results[i]; {
		case r.Check == CheckIndependence && r.Statistic == "serial-correlation":
			serial = r
		case r.Check == CheckMean:
			mean = r
		case r.Check == CheckIndependence && r.Failed:
			return // an order pattern fails too: the sequence is to blame
		}
	}
	if serial != nil && mean != nil && serial.Failed && mean.Failed {
		serial.Suspects = mean.Suspects
		serial.why = "the values sit off the centre of the range (see mean), which moves the products too"
	}
}

// share returns the rate of each of k statistics of one sample: Bonferroni's alpha/k, which
// holds for dependent statistics (their rates add up to at most alpha by the union bound).
func share(alpha float64, k int) (float64, error) {
	a, err := sizing.Bonferroni(alpha, k)
	if err != nil {
		return 0, fmt.Errorf("spread: FalseFailureRate(%g) cannot be split %d ways: %w", alpha, k, err)
	}
	return a, nil
}

// run runs one check at its share of the false-failure rate.
func (s *sample) run(name SampleCheck, alpha float64) ([]Result, error) {
	one := func(r Result, err error) ([]Result, error) {
		if err != nil {
			return nil, err
		}
		return []Result{r}, nil
	}
	switch name {
	case CheckBounds:
		return []Result{s.checkBounds()}, nil
	case CheckDistinct:
		return one(s.checkDistinct(alpha))
	case CheckLattice:
		return s.checkLattice(alpha)
	case CheckMean:
		return one(s.checkMean(alpha))
	case CheckCoverage:
		return s.checkCoverage(alpha)
	case CheckFit:
		return s.checkFit(alpha)
	case CheckIndependence:
		return s.checkIndependence(alpha)
	}
	return nil, fmt.Errorf("no such check %q", name)
}

// skipReason says why a check does not apply to this declaration, or "" when it does.
func (s *sample) skipReason(name SampleCheck) string {
	if name == CheckBounds {
		if s.dist.like != nil {
			return "a reference declares no range: the two-sample extremes compare the ends"
		}
		return ""
	}
	if s.discrete && s.cells == 1 {
		return "the declared range holds a single value: only bounds can fail"
	}
	if s.dist.like != nil {
		switch name {
		case CheckDistinct, CheckMean, CheckLattice:
			return "a reference declares no range or grid: the two-sample fit and extremes compare the spread"
		}
		return ""
	}
	switch name {
	case CheckDistinct:
		if l := s.dist.law; !s.dist.uniform && (l == nil || l.w == 0) {
			return "the values of this distribution are not equally likely, so no repeat count is sized"
		}
	case CheckLattice:
		if !s.dist.uniform {
			return "the lattice check reads the digits of a uniform declaration's range"
		}
		if j, _ := s.latticeBits(); j < 1 {
			return "the range holds too few values to read the digits of their positions"
		}
	case CheckMean:
		if s.dist.uniform {
			return ""
		}
		if l := s.dist.law; l != nil && math.IsNaN(l.mean) {
			return "no finite-sample bound holds for the mean of a discrete distribution without a declared bounded support; fit checks location"
		}
		if _, _, ok := s.dist.moments(); !ok {
			return "the distribution declares no Mean and Variance methods"
		}
		if !s.dist.bounded() {
			return "no finite-sample bound holds for the mean of an unbounded distribution at this rate; fit checks location"
		}
	}
	return ""
}

// tooSmallCheck is a check that the sample is too small to size, with sizing's error.
type tooSmallCheck struct {
	name SampleCheck
	err  *sizing.TooSmallError
}

// tooFewError reports the checks a sample is too small to size; it unwraps to their
// *sizing.TooSmallError values.
type tooFewError struct {
	n      int
	alpha  float64
	checks []tooSmallCheck
}

func (e *tooFewError) Error() string {
	need := 0
	var parts []string
	for _, c := range e.checks {
		parts = append(parts, fmt.Sprintf("%s needs n >= %d", c.name, c.err.Need))
		need = max(need, c.err.Need)
	}
	return fmt.Sprintf("spread: n = %d values are too few to size every check at a false-failure rate of %s: %s. Draw at least %d values, raise FalseFailureRate, or leave those checks out with Only",
		e.n, trimFloat(e.alpha), strings.Join(parts, "; "), need)
}

func (e *tooFewError) Unwrap() []error {
	out := make([]error, len(e.checks))
	for i, c := range e.checks {
		out[i] = c.err
	}
	return out
}
