package spread

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
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

// checkLattice runs the lattice check's two statistics, each at half its rate: the leading
// digits on which every value agrees, and the coarsest grid every value lies next to.
func (s *sample) checkLattice(alpha float64) ([]Result, error) {
	part, err := share(alpha, 2)
	if err != nil {
		return nil, err
	}
	digits, err := s.stuckDigits(part)
	if err != nil {
		return nil, err
	}
	grid, err := s.latticeGrid(part)
	if err != nil {
		return nil, err
	}
	return []Result{digits, grid}, nil
}

// stuckDigits fails when too many of the leading digits of the values' positions agree
// across the whole sample.
func (s *sample) stuckDigits(alpha float64) (Result, error) {
	j, slack := s.latticeBits()
	b, err := sizing.StuckBitsLimit(j, s.n, alpha, slack)
	if err != nil {
		return Result{}, err
	}
	and, or := s.digitMasks(j)
	stuck := j - bits.OnesCount64(and^or)
	r := Result{
		Check: CheckLattice, Statistic: "digits",
		N:      s.n,
		Value:  float64(stuck),
		Limit:  float64(b),
		Alpha:  alpha,
		Margin: float64(b - stuck),
		Failed: stuck >= b,
		Method: Method{Formula: fmt.Sprintf("union bound over the sets of %d of the %d digits: P(B >= %d) <= C(%d, %d) (2^-%d (1 + %.3g))^(n-1)", b, j, b, j, b, b, slack),
			Inputs: fmt.Sprintf("n = %d", s.n)},
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

// latticeGrid fails when every value lies within the sample's resolution (one cell of a
// discrete declaration, the float resolution otherwise) of a grid of 2^b points over the
// range, for a b small enough that a correct sample does so with probability at most alpha: a
// generator with too few random bits, scaled to the range, lands next to its own grid without
// fixing any binary digit of the positions.
func (s *sample) latticeGrid(alpha float64) (Result, error) {
	var limit, top int
	var method, unit string
	var err error
	if s.discrete {
		limit, method, err = sizing.GridLimitInt(s.cells, s.n, alpha)
		top, unit = bits.Len64(s.cells)-2, "one step"
	} else {
		limit, method, err = sizing.GridLimit(s.res, s.n, alpha)
		top, unit = 0, fmt.Sprintf("%.3g of the range", s.res)
		for top < 62 && math.Ldexp(s.res, top+3) < 1 { // the largest b with 2^(b+2) res < 1
			top++
		}
	}
	if err != nil {
		return Result{}, err
	}
	g := top + 1 // none
	for b := 1; b <= top; b++ {
		if s.nearGrid(b) {
			g = b
			break
		}
	}
	r := Result{
		Check: CheckLattice, Statistic: "grid", N: s.n, Alpha: alpha,
		Value: float64(g), Limit: float64(limit), Margin: float64(g - limit), Failed: g <= limit,
		Method:   sized(method, ""),
		Observed: fmt.Sprintf("coarsest grid over the range holding every value within %s: none of up to 2^%d points", unit, top),
		Want:     fmt.Sprintf("none of up to 2^%d points", limit),
	}
	if g <= top {
		r.Observed = fmt.Sprintf("coarsest grid over the range holding every value within %s: 2^%d points", unit, g)
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("a grid 2^%d times coarser than the limit", limit-g+1)
		r.Suspects = []Suspect{SuspectQuantized}
		r.why = fmt.Sprintf("the values sit next to a grid of 2^%d points: a generator with %d random bits, scaled to the range", g, g)
	}
	return r, nil
}

// nearGrid reports whether every value lies within the resolution of the grid of 2^b points
// over the range (a value outside the range is near none): for a discrete sample, a cell k within one cell of a point j W / 2^b, that is
// |k 2^b - j W| < 2^b, in 128-bit integers; for a float sample, a position u with
// |u 2^b - round(u 2^b)| <= res 2^b, exact in float64 (scaling by 2^b is).
func (s *sample) nearGrid(b int) bool {
	if s.below > 0 || s.above > 0 {
		return false // a value outside the range is near no grid over it (bounds fails it)
	}
	if s.discrete {
		w, unit := s.cells, uint64(1)<<b
		for _, k := range s.sortedCells {
			hi, lo := bits.Mul64(k, unit)
			_, r := bits.Div64(hi, lo, w) // hi < w as k < w
			if min(r, w-r) >= unit {
				return false
			}
		}
		return true
	}
	scale := math.Ldexp(1, b)
	tol := s.res * scale
	for _, p := range s.sortedPos {
		x := p * scale
		if math.Abs(x-math.Round(x)) > tol {
			return false
		}
	}
	return true
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
