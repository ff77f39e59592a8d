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

// A CheckName names one check of the battery, for Only and Result.Check.
type CheckName string

// The checks, in the order they run and report. A check with several statistics names each
// Result "check/statistic", e.g. "coverage/max".
const (
	CheckBounds       CheckName = "bounds"
	CheckDistinct     CheckName = "distinct"
	CheckMean         CheckName = "mean"
	CheckCoverage     CheckName = "coverage"
	CheckFit          CheckName = "fit"
	CheckLattice      CheckName = "lattice"
	CheckIndependence CheckName = "independence"
)

// battery lists the default checks in the order they run and report.
var battery = []CheckName{CheckBounds, CheckDistinct, CheckMean, CheckCoverage, CheckFit, CheckLattice, CheckIndependence}

// An Option configures Check and Analyze: FalseFailureRate, Step and Only.
type Option struct{ apply func(*config) }

type config struct {
	alpha float64
	step  step
	only  []CheckName
	errs  []error
	time  timeConfig // the options of the checks on event times (loop.go)
}

// step is a declared grid: a whole number of the unit for an integer sample, any positive
// float for a float sample.
type step struct {
	set   bool
	whole bool    // f is a whole number >= 1 below 2^64, held exactly in u
	u     uint64  // the step, when whole
	f     float64 // the step
	text  string  // as the user wrote it
}

// FalseFailureRate sets the probability that the whole call fails on a correct implementation
// in one run. The default is DefaultFalseFailureRate (1e-9). The rate is split across the
// statistics the call runs by Bonferroni (each gets its share alpha/k), which holds whatever
// their dependence, so that together they fail a correct implementation with probability at
// most alpha. Larger rates give sharper checks; a suite run many times in CI can size its rate
// with sizing.SuiteAlpha.
func FalseFailureRate(alpha float64) Option {
	return Option{func(c *config) {
		if math.IsNaN(alpha) || alpha <= 0 || alpha >= 1 {
			c.errs = append(c.errs, fmt.Errorf("spread: FalseFailureRate(%v): the rate must be in (0, 1)", alpha))
			return
		}
		c.alpha = alpha
	}}
}

// Step declares the grid of a uniform sample: the values are lo, lo+s, lo+2s, ... up to hi
// (exclusive), each equally likely, and a value off the grid fails the bounds check.
//
// For an integer sample the step is a whole number of its unit, for example
// Step(time.Millisecond) for durations rounded to milliseconds; without it every integer in
// [lo, hi) is a possible value. For a float sample it is the sample's resolution, for example
// Step(0.001) for seconds with millisecond precision or Step(0x1p-24) for rand.Float32, and the
// values count as on the grid within an eighth of a step; the checks then treat the sample as
// discrete, exactly. Without it a float sample is continuous, and the checks allow for the
// resolution of the common sources (see the package documentation).
func Step[T Number](s T) Option {
	k := kindOf[T]()
	f := float64(s)
	st := step{set: true, f: f}
	if k.integer {
		st.text = k.formatKey(intKey(s, k.signed))
	} else {
		st.text = formatFloat(f, k.float32)
	}
	return Option{func(c *config) {
		if !(f > 0) || math.IsInf(f, 0) || k.integer && k.signed && int64(s) <= 0 {
			c.errs = append(c.errs, fmt.Errorf("spread: Step(%s): the step must be a finite number > 0", st.text))
			return
		}
		if k.integer {
			st.whole, st.u = true, intKey(s, false)
		} else if f == math.Trunc(f) && f < 1<<64 {
			st.whole, st.u = true, uint64(f)
		}
		c.step = st
	}}
}

// Only restricts a call to the named checks (CheckBounds, CheckMean, ...), which then share the
// whole false-failure rate between them.
func Only(checks ...CheckName) Option {
	return Option{func(c *config) {
		for _, name := range checks {
			if !slices.Contains(battery, name) {
				c.errs = append(c.errs, fmt.Errorf("spread: Only(%q): no such check; the checks are %s", name, batteryText()))
				continue
			}
			if !slices.Contains(c.only, name) {
				c.only = append(c.only, name)
			}
		}
		if len(checks) == 0 {
			c.errs = append(c.errs, fmt.Errorf("spread: Only(): name at least one check"))
		}
	}}
}

func batteryText() string {
	names := make([]string, len(battery))
	for i, b := range battery {
		names[i] = string(b)
	}
	return strings.Join(names, ", ")
}

func newConfig(opts []Option) (config, error) {
	c := config{alpha: DefaultFalseFailureRate}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	if len(c.errs) > 0 {
		return c, joinErrors(c.errs)
	}
	return c, nil
}

// checks returns the checks the call runs, in battery order.
func (c config) checks() []CheckName {
	if len(c.only) == 0 {
		return battery
	}
	var out []CheckName
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
