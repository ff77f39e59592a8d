package spread

// A Suspect is a kind of broken randomness that a failing statistic points to. The names are
// the class names of package mutants, which builds each kind on purpose (its tests check that
// the two agree), and SuspectWrongShape for a declared distribution whose shape the sample
// does not have.
type Suspect string

// The suspects.
const (
	// SuspectConstant: one value on every call.
	SuspectConstant Suspect = "constant"
	// SuspectSignFlip: the random offset applied the wrong way from the anchor, so that the
	// values fall on one side of it.
	SuspectSignFlip Suspect = "sign-flip"
	// SuspectClockDerived: the "random" number read from a clock: a constant on a coarse one, a
	// stepped, serially correlated sequence on a fine one.
	SuspectClockDerived Suspect = "clock-derived"
	// SuspectCollapsedRange: a healthy random number over a range shrunk by a factor.
	SuspectCollapsedRange Suspect = "collapsed-range"
	// SuspectOvershoot: values past the ceiling of the range.
	SuspectOvershoot Suspect = "overshoot"
	// SuspectQuantized: values snapped to a coarse step.
	SuspectQuantized Suspect = "quantized"
	// SuspectIgnoresBase: the spread of a fixed base, whatever the base: too narrow for a
	// larger one, past the range for a smaller one.
	SuspectIgnoresBase Suspect = "ignores-base"
	// SuspectTruncated: a factor below 1 truncated to an integer, as in time.Duration(f) * d:
	// the anchor on every call.
	SuspectTruncated Suspect = "truncated"
	// SuspectWrongShape: a declared distribution whose shape the sample does not have.
	SuspectWrongShape Suspect = "wrong-shape"
)

// Suspects returns every suspect, in the order of package mutants' classes.
func Suspects() []Suspect {
	return []Suspect{SuspectConstant, SuspectSignFlip, SuspectClockDerived, SuspectCollapsedRange,
		SuspectOvershoot, SuspectQuantized, SuspectIgnoresBase, SuspectTruncated, SuspectWrongShape}
}
