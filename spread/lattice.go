package spread

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// The lattice check reads the first J binary digits of each value's position in the declared
// range, and counts those on which all values agree. A correct sample lets no digit stay put
// for long; a source with a stuck bit pins one digit (the values fall in every other stripe
// of the range), and a generator with too few random bits pins every digit below its last,
// so that the values sit on a lattice the declaration does not have. J leaves room for the
// resolution: 8 digits above the cells of a discrete declaration, 9 above the resolution of a
// float one, so that each pattern of digits keeps its share of the values to within 2^-7.
const (
	latticeCellMargin  = 8
	latticeFloatMargin = 9
)

// latticeBits returns J, the digits the lattice check reads, and the slack of sizing's bound
// (see sizing.StuckBitsLimit); J is 0 when the sample has too few values to read any.
func (s *sample) latticeBits() (j int, slack float64) {
	if s.discrete {
		j = bits.Len64(s.cells) - 1 - latticeCellMargin
		if j < 1 {
			return 0, 0
		}
		return j, math.Ldexp(1, j+1) / float64(s.cells)
	}
	j = int(math.Floor(-math.Log2(s.res))) - latticeFloatMargin
	if j < 1 {
		return 0, 0
	}
	j = min(j, 52)
	return j, math.Ldexp(s.res, j+1)
}

// checkLattice fails when too many of the leading digits of the values' positions agree
// across the whole sample.
func (s *sample) checkLattice(alpha float64) (Result, error) {
	j, slack := s.latticeBits()
	b, err := sizing.StuckBitsLimit(j, s.n, alpha, slack)
	if err != nil {
		return Result{}, err
	}
	and, or := s.digitMasks(j)
	stuck := j - bits.OnesCount64(and^or)
	r := Result{
		Name:      string(CheckLattice),
		Check:     CheckLattice,
		N:         s.n,
		Statistic: float64(stuck),
		Limit:     float64(b),
		Alpha:     alpha,
		Margin:    float64(b - stuck),
		Failed:    stuck >= b,
		Method: fmt.Sprintf("union bound over the sets of %d of the %d digits: P(B >= %d) <= C(%d, %d) (2^-%d (1 + %.3g))^(n-1), n = %d",
			b, j, b, j, b, b, slack, s.n),
		Observed: fmt.Sprintf("%d of the first %d binary digits of the position the same in every value", stuck, j),
		Want:     latticeWant(b),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%d digits too many", stuck-b+1)
		r.Suspects, r.why = []Suspect{SuspectQuantized}, "the values sit on a lattice: a stuck bit of the source, or a generator with too few random bits"
		if lead := uint64(1) << (j - 1); (and^or)&lead == 0 {
			// The leading digit is stuck: half the range is empty, as in a collapse.
			r.Suspects = []Suspect{SuspectCollapsedRange, SuspectSignFlip, SuspectQuantized}
			r.why = "the values keep to one half of the range, or sit on a lattice"
		}
	}
	return r, nil
}

// latticeWant says how many stuck digits a sample may have.
func latticeWant(b int) string {
	if b == 1 {
		return "none"
	}
	return fmt.Sprintf("fewer than %d", b)
}

// digitMasks returns the AND and the OR of the first j binary digits of every value's
// position: a digit is stuck where the two agree.
func (s *sample) digitMasks(j int) (and, or uint64) {
	and = 1<<j - 1
	add := func(p uint64) { and &= p; or |= p }
	if s.discrete {
		for _, k := range s.sortedCells {
			hi, lo := bits.Mul64(k, 1<<j)
			q, _ := bits.Div64(hi, lo, s.cells) // floor(k 2^j / W); hi < W as k < W
			add(q)
		}
		return and, or
	}
	top := math.Ldexp(1, j)
	for _, p := range s.sortedPos {
		add(uint64(math.Min(math.Max(p*top, 0), top-1)))
	}
	return and, or
}
