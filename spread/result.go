package spread

import (
	"fmt"
	"strings"
)

// A Result is the outcome of one statistic of one check.
type Result struct {
	// Name is the check, or "check/statistic" for a check with several statistics,
	// e.g. "mean" or "coverage/max".
	Name string
	// Statistic is the observed value the check judged, in the unit Observed describes.
	Statistic float64
	// Limit is where the statistic would fail, in the same unit.
	Limit float64
	// Alpha is the probability that this statistic fails on a correct implementation
	// (0 for an exact check, such as bounds, that a correct implementation never fails).
	Alpha float64
	// N is the number of values checked.
	N int
	// Method says how the limit was derived: formula, inputs and whether it is exact or a bound.
	Method string
	// Margin is how far the statistic lies inside its limit (positive) or outside it
	// (negative), in the same unit as Statistic.
	Margin float64
	// Failed reports whether the statistic is outside its limit.
	Failed bool
	// Skipped, when not empty, says why the check did not run (it then neither passes nor fails).
	Skipped string
	// Observed describes the statistic in the sample's own units, e.g. "max 499.8ms".
	Observed string
	// Want describes the limit in the sample's own units, e.g. "max >= 979.5ms".
	Want string
	// Distance describes, for a failed statistic, how far outside its limit it lies, in the
	// sample's own units, e.g. "477.3ms short of the limit"; it is empty for a pass.
	Distance string
	// Suggests names the kind of broken randomness a failure points to, e.g. "constant",
	// "collapsed-range", "sign-flip", "clock-derived".
	Suggests string
}

// String returns the result on one line.
func (r Result) String() string {
	switch {
	case r.Skipped != "":
		return fmt.Sprintf("%-28s skipped: %s", r.Name, r.Skipped)
	case r.Failed:
		return fmt.Sprintf("%-28s FAIL  %s; want %s [%s]", r.Name, r.Observed, r.Want, alphaText(r.Alpha))
	default:
		return fmt.Sprintf("%-28s ok    %s; want %s [%s]", r.Name, r.Observed, r.Want, alphaText(r.Alpha))
	}
}

// A Report is the outcome of a call: one Result per statistic, in battery order.
type Report struct {
	// Dist is the declared distribution, e.g. "Uniform[0s, 1s)".
	Dist string
	// N is the number of values checked.
	N int
	// FalseFailureRate is the probability that the whole call fails on a correct
	// implementation; the results' Alpha values share it.
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

// Diagnosis names the kind of broken randomness the failures point to most strongly, or ""
// when nothing failed: "constant", "sign-flip", "overshoot", "clock-derived", "quantized",
// "collapsed-range" or "wrong shape".
func (r Report) Diagnosis() string {
	byName := map[string]Result{}
	for _, res := range r.Failures() {
		byName[res.Name] = res
	}
	if len(byName) == 0 {
		return ""
	}
	first := func(names ...string) (Result, bool) {
		for _, name := range names {
			if res, ok := byName[name]; ok {
				return res, true
			}
		}
		return Result{}, false
	}
	if res, ok := byName[CheckDistinct]; ok && strings.HasPrefix(res.Suggests, "constant") {
		return "constant"
	}
	if res, ok := byName[CheckBounds]; ok {
		return strings.Fields(res.Suggests)[0]
	}
	if _, ok := first(CheckIndependence+"/ascents", CheckIndependence+"/turning-points"); ok {
		return "clock-derived"
	}
	if _, ok := byName[CheckDistinct]; ok {
		return "quantized or clock-derived"
	}
	if _, ok := first(CheckCoverage+"/max", CheckCoverage+"/min", CheckCoverage+"/range"); ok {
		return "collapsed-range"
	}
	return "wrong shape"
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

// String returns the report: a headline, then every failing statistic explained (what was
// observed, the limit, its false-failure rate and how it was derived, how far outside it is and
// what it suggests), a histogram of the sample against the declared range, then every result on
// one line.
func (r Report) String() string {
	var b strings.Builder
	fails := r.Failures()
	if len(fails) == 0 {
		fmt.Fprintf(&b, "spread: all %d statistics pass on n = %d values against %s (false-failure rate %s for the call)\n",
			r.ran(), r.N, r.Dist, trimFloat(r.FalseFailureRate))
	} else {
		fmt.Fprintf(&b, "spread: %d of %d statistics fail on n = %d values against %s (false-failure rate %s for the call)\n",
			len(fails), r.ran(), r.N, r.Dist, trimFloat(r.FalseFailureRate))
		if d := r.Diagnosis(); d != "" {
			fmt.Fprintf(&b, "  most likely: %s\n", d)
		}
	}
	for _, f := range fails {
		explain(&b, f)
	}
	if r.histogram != "" {
		b.WriteString(r.histogram)
	}
	b.WriteString("  all statistics:\n")
	for _, res := range r.Results {
		fmt.Fprintf(&b, "    %s\n", res)
	}
	return b.String()
}

func (r Report) ran() int {
	n := 0
	for _, res := range r.Results {
		if res.Skipped == "" {
			n++
		}
	}
	return n
}

// explain writes one failing result in full.
func explain(b *strings.Builder, f Result) {
	fmt.Fprintf(b, "  FAIL %s: %s; want %s\n", f.Name, f.Observed, f.Want)
	if f.Alpha > 0 {
		fmt.Fprintf(b, "       limit sized for a false-failure rate of %s by %s\n", alphaText(f.Alpha), f.Method)
	} else {
		fmt.Fprintf(b, "       exact: %s\n", f.Method)
	}
	fmt.Fprintf(b, "       outside the limit: %s", f.Distance)
	if f.Suggests != "" {
		fmt.Fprintf(b, "; suggests: %s", f.Suggests)
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
