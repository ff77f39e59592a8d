package mutants

// A Class is a kind of broken jitter, defined against a Spec so that it applies to any
// jitter scheme. Classes are values: compare them with ==.
type Class struct {
	Name string // short name as reports show it, such as "sign-flip"
	Doc  string // what the broken jitter does, starting with a verb
}

// String returns the class's name.
func (c Class) String() string { return c.Name }

// The four classes. Of returns one mutant of each (two of ClockDerived).
var (
	Constant = Class{Name: "constant",
		Doc: "returns one value on every call: the midpoint of the range, so that only the spread can tell"}
	SignFlip = Class{Name: "sign-flip",
		Doc: "applies the random offset in the wrong direction from the anchor: anchor - |x - anchor|"}
	ClockDerived = Class{Name: "clock-derived",
		Doc: "reads its number from a clock instead of a random source: the fraction of the current second"}
	CollapsedRange = Class{Name: "collapsed-range",
		Doc: "draws a healthy random number over the range shrunk towards the anchor by a factor (default 1/2)"}
)

// The extended classes: real jitter bugs beyond the four. Of returns them with Extended().
var (
	Overshoot = Class{Name: "overshoot",
		Doc: "draws a healthy random number over a range that runs a quarter of its width past the ceiling"}
	Quantized = Class{Name: "quantized",
		Doc: "snaps a healthy random number down to a coarse step, a tenth of the range"}
	IgnoresBase = Class{Name: "ignores-base",
		Doc: "keeps the same spread whatever the base: the offsets of a fixed reference base (default 100ms)"}
	Truncated = Class{Name: "truncated",
		Doc: "converts a factor below 1 to an integer, as in time.Duration(f) * d: the anchor, always"}
)

// Classes returns the four classes that a suite must reject: Constant, SignFlip,
// ClockDerived and CollapsedRange.
func Classes() []Class {
	return []Class{Constant, SignFlip, ClockDerived, CollapsedRange}
}

// ExtendedClasses returns the classes that Extended adds: Overshoot, Quantized, IgnoresBase
// and Truncated.
func ExtendedClasses() []Class {
	return []Class{Overshoot, Quantized, IgnoresBase, Truncated}
}
