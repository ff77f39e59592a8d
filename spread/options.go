package spread

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// DefaultFalseFailureRate is the probability that one Check or Analyze call, all of its checks
// together, fails on a correct implementation, unless FalseFailureRate says otherwise.
const DefaultFalseFailureRate = 1e-9

// The names of the checks, for Only and for Result.Name (a check with several statistics names
// each one "check/statistic", e.g. "coverage/max").
const (
	CheckBounds       = "bounds"
	CheckDistinct     = "distinct"
	CheckMean         = "mean"
	CheckCoverage     = "coverage"
	CheckFit          = "fit"
	CheckIndependence = "independence"
)

// battery lists the default checks in the order they run and report.
var battery = []string{CheckBounds, CheckDistinct, CheckMean, CheckCoverage, CheckFit, CheckIndependence}

// An Option configures Check, Analyze and the single checks.
type Option func(*config)

type config struct {
	alpha float64
	step  float64 // declared granularity of an integer sample; 0 means 1
	only  []string
	errs  []error
}

// FalseFailureRate sets the probability that the whole call fails on a correct implementation
// in one run. The default is DefaultFalseFailureRate (1e-9). The rate is split across the checks
// the call runs (Sidak), so that together they fail a correct implementation with probability
// at most alpha. Larger rates give sharper checks; a suite run many times in CI can size its
// rate with sizing.SuiteAlpha.
func FalseFailureRate(alpha float64) Option {
	return func(c *config) {
		if math.IsNaN(alpha) || alpha <= 0 || alpha >= 1 {
			c.errs = append(c.errs, fmt.Errorf("spread: FalseFailureRate(%v): the rate must be in (0, 1)", alpha))
			return
		}
		c.alpha = alpha
	}
}

// Step declares the granularity of an integer sample: the values are lo, lo+s, lo+2s, ... up
// to hi (exclusive), each equally likely. For example Step(time.Millisecond) for durations
// rounded to milliseconds. Without it every integer in [lo, hi) is a possible value. A value
// off the grid fails the bounds check.
func Step[T Number](s T) Option {
	return func(c *config) {
		f := float64(s)
		if !(f >= 1) || f != math.Trunc(f) || f > 1<<62 {
			c.errs = append(c.errs, fmt.Errorf("spread: Step(%v): the step must be a whole number >= 1 of the sample's unit", s))
			return
		}
		c.step = f
	}
}

// Only restricts a call to the named checks (CheckBounds, CheckMean, ...), which then share the
// whole false-failure rate between them.
func Only(checks ...string) Option {
	return func(c *config) {
		for _, name := range checks {
			if !slices.Contains(battery, name) {
				c.errs = append(c.errs, fmt.Errorf("spread: Only(%q): no such check; the checks are %s", name, strings.Join(battery, ", ")))
				continue
			}
			if !slices.Contains(c.only, name) {
				c.only = append(c.only, name)
			}
		}
		if len(checks) == 0 {
			c.errs = append(c.errs, fmt.Errorf("spread: Only(): name at least one check"))
		}
	}
}

func newConfig(opts []Option) (config, error) {
	c := config{alpha: DefaultFalseFailureRate}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if len(c.errs) > 0 {
		return c, joinErrors(c.errs)
	}
	return c, nil
}

// checks returns the checks the call runs, in battery order.
func (c config) checks() []string {
	if len(c.only) == 0 {
		return battery
	}
	var out []string
	for _, name := range battery {
		if slices.Contains(c.only, name) {
			out = append(out, name)
		}
	}
	return out
}

// joinErrors joins errors one per line, without the noise of errors.Join's empty lines.
func joinErrors(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}
