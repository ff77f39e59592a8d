package spread

import (
	"fmt"
	"strings"
)

// A Result is the outcome of one statistic of one check.
//
// Its data are Check, Statistic, Value, Limit, Margin, Alpha, N, Method, Failed, Skipped and
// Suspects. Observed, Want and Distance are display text: Value, Limit and Margin written in
// the sample's own units (durations, integers exactly, a float's own digits), with the
// direction of the limit, for a person reading a failure; like the message of a
// testing.T failure, they are not for parsing.
type Result struct {
	// Check is the check the statistic belongs to, e.g. CheckCoverage.
	Check CheckName
	// Statistic names the statistic within a check that has several, e.g. "max" for
	// coverage; it is empty for a check with one. Name joins the two.
	Statistic Statistic
	// Value is the observed value of the statistic, in the unit Observed describes.
	Value float64
	// Limit is where the statistic would fail, in the same unit.
	Limit float64
	// Alpha is the probability that this statistic fails on a correct implementation
	// (0 for an exact check, such as bounds, that a correct implementation never fails).
	Alpha float64
	// N is the number of values checked.
	N int
	// Method says how the limit was derived: formula, inputs and whether it is exact or a bound.
	Method Method
	// Margin is how far the statistic lies inside its limit (positive) or outside it
	// (negative), in the same unit as Value.
	Margin float64
	// Failed reports whether the statistic is outside its limit. It is decided exactly (in
	// integers for an integer sample); Value, Limit and Margin are float64 for reading.
	Failed bool
	// Skipped, when not nil, says why the check did not run (it then neither passes nor
	// fails). A sample too small to size the check at its rate is a *sizing.TooSmallError
	// (errors.As finds it), whose Need is the sample size the check needs.
	Skipped error
	// Observed is display text: Value in the sample's own units, e.g. "max 499.8ms".
	Observed string
	// Want is display text: Limit and its direction in the sample's own units, e.g.
	// "max >= 979.5ms".
	Want string
	// Distance is display text: for a failed statistic, Margin in the sample's own units,
	// e.g. "477.3ms short of the limit"; it is empty for a pass.
	Distance string
	// Suspects lists the kinds of broken randomness a failure points to, most likely first;
	// it is empty for a pass.
	Suspects []Suspect

	why string // what the failure shows, for the report
}

// A Statistic names one of the statistics of a check that has several: "min", "max" and
// "range" of coverage (against a reference, "min" and "max"), "ks", "tails" and "spread" of
// fit, "ascents", "turning-points" and "serial-correlation" of independence, "digits" and
// "grid" of lattice, "short" and "long" of runs.
type Statistic string

// Name returns the statistic's name: the check, or "check/statistic" for a check with
// several statistics, e.g. "mean" or "coverage/max".
func (r Result) Name() string {
	switch {
	case r.Check == nil:
		return string(r.Statistic)
	case r.Statistic == "":
		return fmt.Sprint(r.Check)
	}
	return fmt.Sprintf("%v/%s", r.Check, r.Statistic)
}

// A Method is how a limit was derived: the law and formula, the inputs it was evaluated at,
// and whether the probability it puts at the limit is exact or an upper bound (a limit sized
// by a bound fails a correct implementation less often than its Alpha). Formula and Inputs
// are display text, for a person; Exact is the data.
type Method struct {
	// Formula is the law and the formula of the tail, e.g. "P(max < hi - eps w) = (1 - eps)^n".
	Formula string
	// Inputs are the values the formula was evaluated at, e.g. "n = 1000".
	Inputs string
	// Exact reports that the tail at the limit is computed exactly (to its rounding, on the
	// side of fewer false failures); otherwise it is an upper bound.
	Exact bool
}

// String returns the method on one line: its formula, its inputs, and "exact" or "bound".
func (m Method) String() string {
	s := m.text()
	if m.Exact {
		return s + ", exact"
	}
	return s + ", bound"
}

// text is the method without its kind: a check that never fails a correct implementation says
// "exact" once.
func (m Method) text() string {
	if m.Inputs == "" {
		return m.Formula
	}
	return m.Formula + ", " + m.Inputs
}

// String returns the result on one line.
func (r Result) String() string {
	switch {
	case r.Skipped != nil:
		return fmt.Sprintf("%-28s skipped: %v", r.Name(), r.Skipped)
	case r.Failed:
		return fmt.Sprintf("%-28s FAIL  %s; want %s [%s]", r.Name(), r.Observed, r.Want, alphaText(r.Alpha))
	default:
		return fmt.Sprintf("%-28s ok    %s; want %s [%s]", r.Name(), r.Observed, r.Want, alphaText(r.Alpha))
	}
}

// A Report is the outcome of a call: one Result per statistic, in battery order.
type Report struct {
	// Dist is the declared distribution, e.g. "Uniform[0s, 1s)".
	Dist string
	// N is the number of values checked.
	N int
	// FalseFailureRate is the probability that the whole call fails on a correct
	// implementation; the results' Alpha values add up to it.
	FalseFailureRate float64
	// Results holds one entry per statistic.
	Results []Result

	histogram string
}

// Failed reports whether any result failed.
func (r Report) Failed() bool {
	for _, res := range r.Results {
		if res.Failed {
			return true
		}
	}
	return false
}

// diagnosisOrder ranks the checks by how directly their failure names a kind of broken
// randomness: a sample of one value first (distinct, with one value), then values outside the
// range, an order pattern, repeats, the extremes, the mean, the digits (a collapse pins the
// leading ones too, and the extremes name it better), and the shape; on event times, a fleet's
// load and phases, then a loop's schedule, then its draws.
var diagnosisOrder = []CheckName{CheckBounds, CheckIndependence, CheckDistinct, CheckCoverage, CheckMean, CheckLattice, CheckFit,
	CheckLoad, CheckPhases, CheckGaps, CheckPace, CheckRate, CheckRuns}

// Diagnosis returns the kinds of broken randomness the failures point to most strongly, most
// likely first, or nil when nothing failed. One sample cannot always tell them apart: a
// constant may be a coarse clock or a truncation to the anchor, and a range collapsed around a
// point looks like a spread that ignores the base; Diagnosis then names each of them.
func (r Report) Diagnosis() []Suspect {
	fails := r.Failures()
	for _, f := range fails {
		if f.Check == CheckDistinct && len(f.Suspects) > 0 && f.Suspects[0] != SuspectQuantized {
			return f.Suspects // one value on every call
		}
	}
	for _, check := range diagnosisOrder {
		var out []Suspect
		for _, f := range fails {
			if f.Check != check {
				continue
			}
			for _, s := range f.Suspects {
				if !contains(out, s) {
					out = append(out, s)
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Failures returns the results that failed.
func (r Report) Failures() []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Failed {
			out = append(out, res)
		}
	}
	return out
}

// String returns the report: a headline, the most likely kinds of broken randomness, every
// failing statistic explained (what was observed, the limit, its false-failure rate and how it
// was derived, how far outside it is and what it suggests), a histogram of the sample against
// the declared range, then the other statistics, one per line.
func (r Report) String() string {
	var b strings.Builder
	fails := r.Failures()
	if len(fails) == 0 {
		fmt.Fprintf(&b, "spread: all %d statistics pass on n = %d values against %s (false-failure rate %s for the call, split by Bonferroni)\n",
			r.ran(), r.N, r.Dist, trimFloat(r.FalseFailureRate))
	} else {
		fmt.Fprintf(&b, "spread: %d of %d statistics fail on n = %d values against %s (false-failure rate %s for the call, split by Bonferroni)\n",
			len(fails), r.ran(), r.N, r.Dist, trimFloat(r.FalseFailureRate))
		if d := r.Diagnosis(); len(d) > 0 {
			fmt.Fprintf(&b, "  most likely: %s\n", suspectsText(d))
		}
	}
	for _, f := range fails {
		explain(&b, f)
	}
	b.WriteString(r.histogram)
	others := "the other statistics"
	if len(fails) == 0 {
		others = "the statistics"
	}
	fmt.Fprintf(&b, "  %s:\n", others)
	for _, res := range r.Results {
		if !res.Failed {
			fmt.Fprintf(&b, "    %s\n", res)
		}
	}
	return b.String()
}

// suspectsText prints suspects as "a (or b, c)".
func suspectsText(s []Suspect) string {
	if len(s) == 1 {
		return string(s[0])
	}
	rest := make([]string, len(s)-1)
	for i, x := range s[1:] {
		rest[i] = string(x)
	}
	return fmt.Sprintf("%s (or %s)", s[0], strings.Join(rest, ", "))
}

func (r Report) ran() int {
	n := 0
	for _, res := range r.Results {
		if res.Skipped == nil {
			n++
		}
	}
	return n
}

// explain writes one failing result in full.
func explain(b *strings.Builder, f Result) {
	fmt.Fprintf(b, "  FAIL %s: %s; want %s\n", f.Name(), f.Observed, f.Want)
	if f.Alpha > 0 {
		fmt.Fprintf(b, "       limit sized for a false-failure rate of %s by %s\n", alphaText(f.Alpha), f.Method)
	} else {
		fmt.Fprintf(b, "       exact: %s\n", f.Method.text())
	}
	fmt.Fprintf(b, "       outside the limit: %s", f.Distance)
	if len(f.Suspects) > 0 {
		fmt.Fprintf(b, "; suggests: %s", suspectsText(f.Suspects))
		if f.why != "" {
			fmt.Fprintf(b, ": %s", f.why)
		}
	}
	b.WriteString("\n")
}

func alphaText(a float64) string {
	if a == 0 {
		return "exact"
	}
	return "alpha " + trimFloat(a)
}

func trimFloat(x float64) string {
	return strings.Replace(fmt.Sprintf("%.3g", x), "e-0", "e-", 1)
}

// sized turns the method string of a sizing function into a Method with inputs: the sizing
// functions name an exact tail "exact (formula)" or "exact formula", and anything else is a
// bound (their tests hold them to it).
func sized(method, inputs string) Method {
	m := Method{Formula: method, Inputs: inputs}
	switch {
	case strings.HasPrefix(method, "exact ("):
		inner := strings.TrimPrefix(method, "exact (")
		if i := strings.Index(inner, ")"); i >= 0 {
			inner = inner[:i] + inner[i+1:]
		}
		m.Formula, m.Exact = inner, true
	case strings.HasPrefix(method, "exact "):
		m.Formula, m.Exact = strings.TrimPrefix(method, "exact "), true
	}
	return m
}

// A skip is why a check did not run; it wraps the *sizing.TooSmallError of a sample too small.
type skip struct {
	reason string
	err    error
}

func (s *skip) Error() string { return s.reason }
func (s *skip) Unwrap() error { return s.err }

// skipped returns a Skipped reason.
func skipped(format string, args ...any) error { return &skip{reason: fmt.Sprintf(format, args...)} }
