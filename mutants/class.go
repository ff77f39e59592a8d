package mutants

import "github.com/spreadcheck/spreadcheck/spread"

// The classes of broken jitter are the kinds of broken randomness that package spread's
// reports name: a Mutant's Class is a spread.Suspect, and a suite whose checks fail on a
// mutant should name its class among Report.Diagnosis. Of builds one mutant of each of
// spread.SuspectConstant, SuspectSignFlip, SuspectClockDerived (two: a coarse and a fine
// clock) and SuspectCollapsedRange; Extended adds SuspectOvershoot, SuspectQuantized,
// SuspectIgnoresBase and SuspectTruncated.

// classDoc says what each class's mutant does, starting with a verb, for a survivor's report.
var classDoc = map[spread.Suspect]string{
	spread.SuspectConstant:       "returns one value on every call: the midpoint of the range, so that only the spread can tell",
	spread.SuspectSignFlip:       "applies the random offset in the wrong direction from the anchor: anchor - |x - anchor|",
	spread.SuspectClockDerived:   "reads its number from a clock instead of a random source: the fraction of the current second",
	spread.SuspectCollapsedRange: "draws a healthy random number over the range shrunk towards the anchor by a factor (default 1/2)",
	spread.SuspectOvershoot:      "draws a healthy random number over a range that runs a quarter of its width past the ceiling",
	spread.SuspectQuantized:      "snaps a healthy random number down to a coarse step, a tenth of the range",
	spread.SuspectIgnoresBase:    "keeps the same spread whatever the base: the offsets of a fixed reference base (default 100ms)",
	spread.SuspectTruncated:      "converts a factor below 1 to an integer, as in time.Duration(f) * d: the anchor, always",
}
