package spread

// A Suspect is a kind of broken randomness that a failing statistic points to: the one list of
// them. The first eight are the classes of package mutants, which builds each on purpose (a
// mutants.Mutant's Class is a Suspect); SuspectWrongShape is a declared distribution whose
// shape the sample does not have; the last four are what a loop's schedule or a fleet does
// wrong.
type Suspect string

// The suspects of a sample.
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

// The suspects of the checks on event times that no broken random number explains: what a
// loop's schedule or a fleet does wrong. (A loop's draws that stick, alternate or average off
// the middle of their window point to the suspects of package mutants.)
const (
	// SuspectOffSchedule: a loop's events off what its schedule allows: a sleep where a ticker
	// was declared, work that adds to every period, a missing or an extra event.
	SuspectOffSchedule Suspect = "off-schedule"
	// SuspectLockstep: a fleet's loops fire together.
	SuspectLockstep Suspect = "lockstep"
	// SuspectPacked: a fleet's loops fire within part of the interval.
	SuspectPacked Suspect = "packed"
	// SuspectClustered: more of a fleet's loops share a time bucket than independent uniform
	// phases allow.
	SuspectClustered Suspect = "clustered"
)

// Suspects returns every suspect: those of a sample, in the order of package mutants'
// classes, then those of event times.
func Suspects() []Suspect {
	return []Suspect{SuspectConstant, SuspectSignFlip, SuspectClockDerived, SuspectCollapsedRange,
		SuspectOvershoot, SuspectQuantized, SuspectIgnoresBase, SuspectTruncated, SuspectWrongShape,
		SuspectOffSchedule, SuspectLockstep, SuspectPacked, SuspectClustered}
}
