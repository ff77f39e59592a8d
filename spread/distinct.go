package spread

import (
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// checkDistinct fails when the sample repeats values more often than n draws from the declared
// number of equally likely values allow: a constant, a coarse clock or a value quantized to a
// coarse step repeats far too often.
func (s *sample) checkDistinct(alpha float64) (Result, error) {
	// Repeats are equal values, exactly: equal keys. (On a float grid two computations of one
	// grid point may differ in the last bit; counting them apart only errs on the side of
	// passing.)
	sorted := s.sortedKeys
	switch {
	case sorted != nil:
	case s.below+s.above+s.offGrid == 0:
		// Inside an integer range, on its grid, values and cells correspond one to one, and
		// the cells are sorted already.
		sorted = s.sortedCells
	default:
		sorted = sortedCopy(s.keys)
	}
	repeats, atoms := 0, 0
	for i := 1; i < s.n; i++ {
		if sorted[i] == sorted[i-1] {
			if s.atom(sorted[i]) {
				atoms++ // a repeat of an atom, as a clamp's end: left out
			} else {
				repeats++
			}
		}
	}
	distinct := s.n - repeats - atoms
	w, note := s.support()
	m, method, err := sizing.RepeatsLimit(w, s.n, alpha)
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Check:    CheckDistinct,
		N:        s.n,
		Value:    float64(repeats),
		Limit:    float64(m),
		Alpha:    alpha,
		Margin:   float64(m - repeats),
		Failed:   repeats >= m,
		Method:   sized(method+note, ""),
		Observed: fmt.Sprintf("%d distinct %s, %d repeats", distinct, plural(distinct, "value", "values"), repeats),
		Want:     fmt.Sprintf("fewer than %d repeats", m),
	}
	if atoms > 0 {
		r.Observed += fmt.Sprintf(" (and %d repeats of the clamped ends, left out)", atoms)
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%d repeats too many", repeats-m+1)
		r.Suspects, r.why = []Suspect{SuspectQuantized, SuspectClockDerived}, "far too few distinct values"
		if distinct == 1 {
			r.Suspects, r.why = s.constantSuspects(), "one value on every call"
		}
	}
	return r, nil
}

// atom reports whether a value, given by its key, is an atom of a law: a value of large
// probability, such as a clamp's end, whose repeats the distinct check leaves out.
func (s *sample) atom(key uint64) bool {
	l := s.dist.law
	return l != nil && l.atom != nil && l.atom(l.coord(s, key))
}

// support returns the number w of equally likely values the distinct check assumes, rounded
// down, and a note on where it came from: the cells of a discrete declaration, for a law the
// bound on the probability of each value other than its atoms, or for a float sample
// 1/resolution, which bounds the repeats of the common sources (see floatResolution and
// sizing.RepeatsLimit).
func (s *sample) support() (float64, string) {
	if l := s.dist.law; l != nil {
		note := fmt.Sprintf("; every value of %s of probability at most 1/%.4g", s.dist, l.w)
		if l.atom != nil {
			note = fmt.Sprintf("; every value of %s but its clamped ends (whose repeats are left out) of probability at most 1/%.4g", s.dist, l.w)
		}
		return l.w, note
	}
	if s.discrete {
		w := float64(s.cells)
		if w >= 1<<64 || uint64(w) > s.cells { // rounded up
			w = math.Nextafter(w, 0)
		}
		return w, ""
	}
	w := 1 / s.res
	return w, fmt.Sprintf("; each float value of probability at most %.3g (the resolution of rand.Float32, or of nanoseconds in seconds, over this range), which bounds the repeats of rand.Float64 too", s.res)
}

// constantSuspects names what a sample of one value points to: a constant, a coarse clock, or
// a truncation to the anchor, most likely the end of the range, or its centre for +-p jitter.
func (s *sample) constantSuspects() []Suspect {
	truncatedFirst := s.discrete && s.sortedCells[0] == 0 || !s.discrete && s.sortedPos != nil && s.sortedPos[0] == 0
	if truncatedFirst {
		return []Suspect{SuspectTruncated, SuspectConstant, SuspectClockDerived}
	}
	return []Suspect{SuspectConstant, SuspectClockDerived, SuspectTruncated}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
