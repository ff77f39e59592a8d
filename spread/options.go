package spread

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// defaultFalseFailureRate is the probability that one Check or Analyze call, all of its checks
// together, fails on a correct implementation, unless FalseFailureRate says otherwise.
const defaultFalseFailureRate = 1e-9

// A CheckName names one check, in Result.Check: a SampleCheck (the checks of Check and
// Analyze) or a TimeCheck (the checks of event times). Compare it with the constants:
// r.Check == CheckMean.
type CheckName interface{ checkName() }

// A SampleCheck names one check of a sample's battery, for Only.
type SampleCheck string

func (SampleCheck) checkName() {}

// The checks of a sample, in the order they run and report. A check with several statistics
// names each Result "check/statistic", e.g. "coverage/max".
const (
	CheckBounds       SampleCheck = "bounds"
	CheckDistinct     SampleCheck = "distinct"
	CheckMean         SampleCheck = "mean"
	CheckCoverage     SampleCheck = "coverage"
	CheckFit          SampleCheck = "fit"
	CheckLattice      SampleCheck = "lattice"
	CheckIndependence SampleCheck = "independence"
)

// battery lists the default checks in the order they run and report.
var battery = []SampleCheck{CheckBounds, CheckDistinct, CheckMean, CheckCoverage, CheckFit, CheckLattice, CheckIndependence}

// An Option configures Check and Analyze: FalseFailureRate and Only. The checks of event
// times take a TimeOption instead, so that an option of one kind passed to the other does not
// compile. (A sample's grid is part of its declaration: see Dist.Step.)
type Option interface{ sample(*config) }

// A TimeOption configures CheckLoop, AnalyzeLoop, CheckFleet, AnalyzeFleet and
// NewFleetStream: FalseFailureRate, WarmUp, Buckets and LoopStarts.
type TimeOption interface{ times(*config) }

// sampleOption and timeOption are the options of one kind.
type (
	sampleOption func(*config)
	timeOption   func(*config)
)

func (o sampleOption) sample(c *config) { o(c) }
func (o timeOption) times(c *config)    { o(c) }

type config struct {
	alpha float64
	only  []SampleCheck
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

// FalseFailureRate is an option of every check, sample or event times: the probability that
// the whole call fails on a correct implementation in one run, written
// spread.FalseFailureRate(1e-6). The default is defaultFalseFailureRate (1e-9); a rate
// outside (0, 1) is an error of the call. The rate is split across the statistics the call
// runs by Bonferroni (each gets its share alpha/k), which holds whatever their dependence, so
// that together they fail a correct implementation with probability at most alpha. Larger
// rates give sharper checks; a suite run many times in CI can size its rate with
// sizing.SuiteAlpha.
type FalseFailureRate float64

func (a FalseFailureRate) sample(c *config) { a.apply(c) }
func (a FalseFailureRate) times(c *config)  { a.apply(c) }

func (a FalseFailureRate) apply(c *config) {
	alpha := float64(a)
	if math.IsNaN(alpha) || alpha <= 0 || alpha >= 1 {
		c.errs = append(c.errs, fmt.Errorf("spread: FalseFailureRate(%v): the rate must be in (0, 1)", alpha))
		return
	}
	c.alpha = alpha
}

// newStep checks a declared grid: s must be a finite number > 0.
func newStep[T Number](s T) (step, error) {
	k := kindOf[T]()
	f := float64(s)
	st := step{set: true, f: f}
	if k.integer {
		st.text = k.formatKey(intKey(s, k.signed))
	} else {
		st.text = formatFloat(f, k.float32)
	}
	if !(f > 0) || math.IsInf(f, 0) || k.integer && k.signed && int64(s) <= 0 {
		return st, fmt.Errorf("spread: Step(%s): the step must be a finite number > 0", st.text)
	}
	if k.integer {
		st.whole, st.u = true, intKey(s, false)
	} else if f == math.Trunc(f) && f < 1<<64 {
		st.whole, st.u = true, uint64(f)
	}
	return st, nil
}

// Only restricts a call to the named checks (CheckBounds, CheckMean, ...), which then share the
// whole false-failure rate between them.
func Only(checks ...SampleCheck) Option {
	return sampleOption(func(c *config) {
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
	})
}

func batteryText() string {
	names := make([]string, len(battery))
	for i, b := range battery {
		names[i] = string(b)
	}
	return strings.Join(names, ", ")
}

// newConfig applies a sample's options.
func newConfig(opts []Option) (config, error) {
	c := config{alpha: defaultFalseFailureRate}
	for _, o := range opts {
		if o != nil {
			o.sample(&c)
		}
	}
	return c, c.err()
}

// newTimeConfig applies the options of a check of event times.
func newTimeConfig(opts []TimeOption) (config, error) {
	c := config{alpha: defaultFalseFailureRate}
	for _, o := range opts {
		if o != nil {
			o.times(&c)
		}
	}
	return c, c.err()
}

func (c config) err() error {
	if len(c.errs) > 0 {
		return joinErrors(c.errs)
	}
	return nil
}

// checks returns the checks the call runs, in battery order.
func (c config) checks() []SampleCheck {
	if len(c.only) == 0 {
		return battery
	}
	var out []SampleCheck
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
