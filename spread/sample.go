package spread

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
)

// sample is a sample prepared for the checks. Every sample has its values' keys, in draw
// order, for the order-pattern and distinct checks: integers and floats map to uint64 keys in
// the same order, so comparisons are exact. Then one of three views:
//
//   - discrete (an integer uniform, or a float uniform with a Step): the cell k of each value
//     on the declared grid of W cells, as integers, for exact discrete checks;
//   - continuous uniform (a float uniform): the position (x - lo)/(hi - lo) of each value, and
//     the resolution that the checks allow for;
//   - general (Continuous, Discrete): the values as float64, for the distribution's CDF.
type sample struct {
	dist dist
	kind numKind // the sample's type
	n    int

	keys       []uint64 // order-preserving keys of the values, in draw order
	sortedKeys []uint64 // the keys, ascending (nil for an integer uniform, which sorts its cells)
	min, max   string   // the smallest and largest value, printed exactly

	discrete    bool
	cells       uint64    // discrete: W, the number of cells
	step        uint64    // discrete integers: the declared step
	stepF       float64   // discrete floats: the declared step
	stepText    string    // discrete: the step as declared
	sortedCells []uint64  // discrete: cell of each value, clamped into [0, W-1], ascending
	cellSum     [2]uint64 // discrete: the sum of the cells of the values inside the range
	outSum      big.Int   // discrete: the sum of floor((x - lo)/step) of the values outside it
	// slack is the share of the false-failure rate that the cells give up, 0 but on the whole
	// range of a 64-bit type (UniformClosed(0, math.MaxUint64) and its signed kin): its 2^64
	// values are one more than a uint64 counts, so the checks see 2^64 - 1 cells, the top one
	// holding the two largest values. Each value then falls in a cell with probability within
	// 2^-64 (in total variation) of the uniform over the cells, n values within n 2^-64, so
	// every statistic of the cells fails at most n 2^-64 more often than its rate: the checks
	// share alpha - slack, and the call fails at most at alpha, exactly.
	slack float64

	sortedPos []float64 // continuous: positions in [0, 1] (for Continuous, the CDF), ascending
	res       float64   // continuous uniform: the resolution allowed for, in positions

	sorted []float64 // general: the values, ascending

	refSorted []uint64 // Like: the reference's keys, ascending

	below, above, offGrid, offSupport int
}

// newSample validates xs against want and prepares it.
func newSample[T Number](xs []T, want dist, c config) (*sample, error) {
	if err := want.validate(); err != nil {
		return nil, err
	}
	k := kindOf[T]() // the declaration's type too: Dist[T] takes only samples of type T
	if len(xs) == 0 {
		return nil, fmt.Errorf("spread: the sample is empty: draw values first, e.g. spread.Draw(1000, f)")
	}
	s := &sample{dist: want, kind: k, n: len(xs), keys: make([]uint64, len(xs))}
	if k.integer {
		for i, x := range xs {
			s.keys[i] = intKey(x, k.signed)
		}
		s.min, s.max = k.formatKey(slices.Min(s.keys)), k.formatKey(slices.Max(s.keys))
		if want.integer() {
			return s, s.prepareInt(want.step)
		}
	} else {
		for i, x := range xs {
			f := float64(x)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("spread: xs[%d] = %v: the checks take finite numbers only", i, f)
			}
			s.keys[i] = floatKey(f)
		}
	}
	// Every other view reads the values in increasing order: sort the keys once.
	s.sortedKeys = sortedCopy(s.keys)
	sorted := make([]float64, s.n)
	for i, key := range s.sortedKeys {
		sorted[i] = s.keyValue(key)
	}
	if !k.integer {
		s.min, s.max = formatFloat(sorted[0], k.float32), formatFloat(sorted[s.n-1], k.float32)
	}
	switch {
	case want.like != nil:
		return s, s.prepareLike()
	case want.law != nil:
		return s, s.prepareLaw()
	case want.uniform && want.step.set:
		return s, s.prepareGrid(sorted, want.step)
	case want.uniform:
		return s, s.prepareContinuous(sorted)
	}
	return s, s.prepareGeneral(sorted)
}

// keyValue returns the value of a key of the sample's type as a float64.
func (s *sample) keyValue(key uint64) float64 {
	switch {
	case !s.kind.integer:
		if key>>63 == 1 {
			return math.Float64frombits(key &^ (1 << 63))
		}
		return math.Float64frombits(^key)
	case s.kind.signed:
		return float64(int64(key ^ 1<<63))
	}
	return float64(key)
}

// prepareInt maps an integer sample onto the cells of its declared range: offsets from lo in
// the keys' integers, exact over the whole range of every integer type.
func (s *sample) prepareInt(st step) error {
	d := s.dist
	s.discrete, s.step, s.stepText = true, 1, "1"
	if st.set {
		if !st.whole {
			return fmt.Errorf("spread: Step(%s): an integer sample needs a whole step", st.text)
		}
		s.step, s.stepText = st.u, st.text
	}
	// The range holds span+1 values, lo to last; on a grid of step s, last is a grid point of
	// a closed range and one short of one for a half-open range.
	span := d.lastKey - d.loKey
	end := span % s.step
	if d.closed && end != 0 || !d.closed && end != s.step-1 {
		return fmt.Errorf("spread: Step(%s) does not divide the width of %s", s.stepText, d)
	}
	s.cells = span/s.step + 1
	if s.cells == 0 { // every value of a 64-bit type, 2^64 cells: see slack
		s.cells, s.slack = math.MaxUint64, float64(s.n)*0x1p-64
	}
	cells := make([]uint64, s.n)
	for i, k := range s.keys {
		switch {
		case k < d.loKey:
			s.below++
			s.addOutside(k)
		case k > d.lastKey:
			s.above, cells[i] = s.above+1, s.cells-1
			s.addOutside(k)
		default:
			off := k - d.loKey
			if off%s.step != 0 {
				s.offGrid++
			}
			cells[i] = min(off/s.step, s.cells-1)
			s.addCell(cells[i])
		}
	}
	slices.Sort(cells)
	s.sortedCells = cells
	return nil
}

// addCell adds a cell to the 128-bit sum of the cells.
func (s *sample) addCell(k uint64) {
	var carry uint64
	s.cellSum[1], carry = bits.Add64(s.cellSum[1], k, 0)
	s.cellSum[0] += carry
}

// addOutside adds floor((x - lo)/step) of an integer value outside the range, in big
// integers, whose sum may pass 2^128.
func (s *sample) addOutside(key uint64) {
	x, lo := keyInt(key, s.kind.signed), keyInt(s.dist.loKey, s.kind.signed)
	off := x.Sub(x, lo)
	q, _ := new(big.Int).DivMod(off, new(big.Int).SetUint64(s.step), new(big.Int)) // Euclidean: floor for a positive step
	s.outSum.Add(&s.outSum, q)
}

// keyInt returns the integer value of a key as a big.Int.
func keyInt(key uint64, signed bool) *big.Int {
	if signed {
		return big.NewInt(int64(key ^ 1<<63))
	}
	return new(big.Int).SetUint64(key)
}

// The limits on a float grid: float64 must resolve an eighth of a step at the values, and
// count the cells exactly.
const (
	gridUlps     = 32
	gridMaxCells = 1 << 47
)

// prepareGrid maps a float sample with a declared Step onto the cells of its grid; vals are
// the values, ascending.
func (s *sample) prepareGrid(vals []float64, st step) error {
	d := s.dist
	sz := st.f
	top := max(math.Abs(d.lo), math.Abs(d.hi))
	if sz < gridUlps*ulp(top, s.kind.float32) {
		return fmt.Errorf("spread: Step(%s) is finer than the floats near %s can resolve (they lie %g apart): declare a coarser step, or none", st.text, formatFloat(top, false), ulp(top, s.kind.float32))
	}
	wf := (d.hi - d.lo) / sz
	w := math.Round(wf)
	if math.IsInf(wf, 0) || w < 1 || w > gridMaxCells || math.Abs(wf-w) > 1e-6*w {
		return fmt.Errorf("spread: Step(%s) does not divide the width of %s into at most 2^47 cells", st.text, d)
	}
	if d.closed {
		w++ // hi is a grid point too
	}
	s.discrete, s.cells, s.stepText, s.stepF = true, uint64(w), st.text, sz
	cells := make([]uint64, s.n)
	for i, x := range vals {
		switch {
		case x < d.lo:
			s.below++
			s.addOutsideFloat((x/2 - d.lo/2) / sz * 2)
		case d.above(x):
			s.above, cells[i] = s.above+1, s.cells-1
			s.addOutsideFloat((x/2 - d.lo/2) / sz * 2)
		default:
			t := (x - d.lo) / sz
			k := math.Round(t)
			if math.Abs(t-k) > 0.125 || k >= w {
				s.offGrid++
			}
			cells[i] = min(uint64(k), s.cells-1)
			s.addCell(cells[i])
		}
	}
	s.sortedCells = cells // ascending with the values
	return nil
}

// addOutsideFloat adds floor(t) of a float value outside the range, t its offset in steps.
func (s *sample) addOutsideFloat(t float64) {
	if math.IsInf(t, 0) { // beyond float64 in steps: as far as float64 goes
		t = math.Copysign(math.MaxFloat64, t)
	}
	q, _ := new(big.Float).SetFloat64(math.Floor(t)).Int(nil)
	s.outSum.Add(&s.outSum, q)
}

// prepareContinuous maps a float sample onto positions in the declared range; vals are the
// values, ascending, so the positions are too.
func (s *sample) prepareContinuous(vals []float64) error {
	d := s.dist
	s.res = floatResolution(d.lo, d.hi, s.kind.float32)
	if s.res > maxResolution {
		return fmt.Errorf("spread: %s holds too few %s values for a continuous check (each may carry %.2g of the range): declare the grid with Step, or use an integer type", d, s.kind.name, s.res)
	}
	s.sortedPos = make([]float64, s.n)
	for i, x := range vals {
		switch {
		case x < d.lo:
			s.below++
		case d.above(x):
			s.above++
		}
		s.sortedPos[i] = position(x, d.lo, d.hi)
	}
	return nil
}

// position returns (x - lo)/(hi - lo), computed in halves where the width would overflow.
func position(x, lo, hi float64) float64 {
	if w := hi - lo; !math.IsInf(w, 0) {
		return (x - lo) / w
	}
	return (x/2 - lo/2) / (hi/2 - lo/2)
}

// maxResolution is the coarsest resolution, as a share of the range, at which a float sample is
// still checked as continuous.
const maxResolution = 1.0 / 64

// floatResolution bounds, as a share of the width of [lo, hi), both the largest probability
// of one float value and the distance |position(X) - U| between a value's position and the
// continuous uniform U it stands for, for the common sources of random floats:
//
//   - lo + w*r.Float64(): 2^53 equally likely u = k/2^53;
//   - lo + w*float64(r.Float32()): 2^24 equally likely u (a float32 has 24 bits);
//   - d.Seconds() of durations drawn to the nanosecond: one value per nanosecond, w*1e9 of them;
//
// each rounded to the floats of the range, whose spacing is at most U = ulp(max(|lo|, |hi|)):
// the values of u that round to one float lie within 3U of each other (the rounding of w*u
// and of lo + w*u), which a value of u of the source's own spacing can cover only so often.
// So the bound is max(2^-24, 1/floor(w*1e9)) + 4U/w, and 2^-50 for the rounding of the
// position itself.
func floatResolution(lo, hi float64, f32 bool) float64 {
	half := hi/2 - lo/2 // half the width, without overflow
	u := ulp(max(math.Abs(lo), math.Abs(hi)), f32)
	source := 0x1p-24
	if ns := math.Floor(2 * half * 1e9); ns < 1 {
		source = 1
	} else if !math.IsInf(ns, 0) {
		source = max(source, 1/ns)
	}
	return source + 2*(u/half) + 0x1p-50
}

// prepareGeneral keeps the values of a sample from Continuous as float64 and their
// positions, the CDF at each; vals are the values, ascending.
func (s *sample) prepareGeneral(vals []float64) error {
	d := s.dist
	res := generalResolution(d.cont, s.kind.float32)
	if res > maxResolution {
		return fmt.Errorf("spread: %s is too narrow for the %s values near it: one value may carry %.2g of the probability, too much for a continuous check", d, s.kind.name, res)
	}
	if res > generalMinResolution { // each position lies within res of its continuous one
		s.res = res
	}
	s.sorted = vals
	for _, x := range s.sorted {
		switch {
		case x < d.lo:
			s.below++
		case x > d.hi:
			s.above++
		}
		p := d.cont.CDF(x)
		if math.IsNaN(p) || p < 0 || p > 1 {
			return fmt.Errorf("spread: the CDF of %s is %v at %v, not a probability: check the distribution's parameters", d, p, x)
		}
		s.sortedPos = append(s.sortedPos, p) // the coverage and fit checks read positions
	}
	return nil
}

// generalMinResolution is the resolution below which a general continuous sample counts as
// continuous: its floats' rounding is that of the positions themselves.
const generalMinResolution = 0x1p-40

// generalResolution estimates the largest probability that one float value of a continuous
// distribution carries, the mass that rounds to it, by half the mass between the floats on
// either side, at the quantiles 0, 1/64, ..., 1: a distribution narrower than the floats near
// it (a Normal whose sigma is below the spacing of floats at its mean) has its values on a few
// floats, and every check of a continuous shape would fail a correct sample.
func generalResolution(c continuousDist, f32 bool) float64 {
	next := func(x, toward float64) float64 { return math.Nextafter(x, toward) }
	if f32 {
		next = func(x, toward float64) float64 { return float64(math.Nextafter32(float32(x), float32(toward))) }
	}
	var res float64
	for i := range 65 {
		x := c.Quantile(float64(i) / 64)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		if m := (c.CDF(next(x, math.Inf(1))) - c.CDF(next(x, math.Inf(-1)))) / 2; m > res {
			res = m
		}
	}
	return res
}

// prepareLaw keeps the coordinates of a sample from a law, ascending, and counts the values
// the law never takes.
func (s *sample) prepareLaw() error {
	l := s.dist.law
	s.res = l.res
	s.sorted = make([]float64, s.n)
	for i, key := range s.sortedKeys {
		c := l.coord(s, key)
		s.sorted[i] = c
		if !l.in(c) {
			s.offSupport++
		}
		below, at := l.cdf(c)
		if math.IsNaN(below) || math.IsNaN(at) || below < 0 || at > 1 || below > at {
			return fmt.Errorf("spread: the CDF of %s is [%v, %v] at %v, not a probability: check the distribution's parameters", s.dist, below, at, l.text(c))
		}
	}
	return nil
}

// cellOf returns the cell of a value of a discrete sample, given its key, clamped into the
// range.
func (s *sample) cellOf(key uint64) uint64 {
	d := s.dist
	if d.integer() {
		switch {
		case key < d.loKey:
			return 0
		case key > d.lastKey:
			return s.cells - 1
		}
		return min((key-d.loKey)/s.step, s.cells-1)
	}
	t := math.Round(position(s.keyValue(key), d.lo, d.hi) * float64(s.cells-btoi(d.closed)))
	return uint64(min(max(t, 0), float64(s.cells-1)))
}

func btoi(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// width is the width of the declared uniform range, in the sample's units, as a float64 (for
// reports; it may round, never overflows to a wrong sign).
func (s *sample) width() float64 {
	if s.dist.integer() {
		return float64(s.dist.lastKey-s.dist.loKey) + 1
	}
	return s.dist.hi - s.dist.lo
}

// value prints the value at position p of a continuous declaration, for a limit.
func (s *sample) value(p float64) string {
	if d := s.dist; d.uniform {
		return s.kind.formatApprox(d.lo*(1-p) + d.hi*p)
	}
	return s.kind.formatApprox(s.dist.cont.Quantile(p))
}

// cellValue prints the value of cell k of a discrete declaration: exactly for an integer.
func (s *sample) cellValue(k uint64) string {
	if s.dist.integer() {
		return s.dist.kind.formatKey(s.dist.loKey + k*s.step)
	}
	return s.kind.formatApprox(s.dist.lo + float64(k)*s.stepF)
}

// steps prints a distance of m cells in the sample's units.
func (s *sample) steps(m float64) string {
	if s.dist.integer() {
		return s.kind.formatApprox(m * float64(s.step))
	}
	return s.kind.formatApprox(m * s.stepF)
}
