package spread

import (
	"fmt"
	"math"
	"slices"
)

// sample is a sample prepared for the checks: its values as float64, and for a discrete
// uniform declaration their cell numbers k = (x - lo) / step.
type sample struct {
	dist Dist
	kind numKind
	n    int

	xs     []float64 // the values, in draw order
	sorted []float64 // the values, ascending

	discrete bool
	step     int64   // discrete: the declared granularity
	cells    int64   // discrete: number of possible values W
	sortedK  []int64 // discrete: cell numbers, ascending

	support float64 // the number of equally likely values the distinct check assumes (0: not uniform)
	below   int     // values below the declared range
	above   int     // values at or above the declared range's end
	offGrid int     // discrete values not on the declared step grid

	offSupport int // values a Discrete distribution gives probability zero
}

// newSample validates xs against want and prepares it.
func newSample[T Number](xs []T, want Dist, c config) (*sample, error) {
	if err := want.validate(); err != nil {
		return nil, err
	}
	k := kindOf[T]()
	if want.disc == nil {
		if err := compatible(k, want); err != nil {
			return nil, err
		}
	}
	if len(xs) == 0 {
		return nil, fmt.Errorf("spread: the sample is empty: draw values first, e.g. spread.Draw(1000, f)")
	}
	if c.step != 0 && !(want.uniform && k.integer) {
		return nil, fmt.Errorf("spread: Step applies to integer samples declared with Uniform")
	}
	s := &sample{dist: want, kind: k, n: len(xs), xs: make([]float64, len(xs))}
	for i, x := range xs {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("spread: %s: the checks take finite numbers only", describeValue(xs, i))
		}
		s.xs[i] = f
	}
	if want.uniform && k.integer {
		ints := make([]int64, len(xs))
		for i, x := range xs {
			v, ok := toInt64(x)
			if !ok {
				v = math.MaxInt64 // above every declared range
			}
			ints[i] = v
		}
		if err := s.prepareDiscrete(ints, c.step); err != nil {
			return nil, err
		}
	} else {
		s.prepareContinuous()
	}
	if !want.uniform {
		for i, x := range s.xs {
			if p := s.pos(x); math.IsNaN(p) || p < 0 || p > 1 {
				return nil, fmt.Errorf("spread: %s: the CDF of %s is %v there, not a probability: check the distribution's parameters", describeValue(xs, i), want, p)
			}
		}
	}
	return s, nil
}

// compatible rejects a float sample against an integer declaration and the reverse: the two
// mean different distributions (discrete and continuous), and mixing them is almost always an
// untyped constant that defaulted to int.
func compatible(k numKind, want Dist) error {
	if k.integer == want.kind.integer {
		return nil
	}
	if k.integer {
		return fmt.Errorf("spread: the sample is %s (integer) but %s is declared over %s: declare it with the sample's type", k.name, want, want.kind.name)
	}
	return fmt.Errorf("spread: the sample is %s but %s is declared over %s (integers): write the bounds as floats, e.g. Uniform(0.0, 1.0)", k.name, want, want.kind.name)
}

func (s *sample) prepareDiscrete(ints []int64, step float64) error {
	d := s.dist
	s.discrete = true
	s.step = 1
	if step != 0 {
		s.step = int64(step)
	}
	width := d.hiI - d.loI
	if width%s.step != 0 {
		return fmt.Errorf("spread: Step(%s) does not divide the width of %s", s.kind.format(float64(s.step)), d)
	}
	s.cells = width / s.step
	s.support = float64(s.cells)
	sorted := slices.Clone(ints)
	slices.Sort(sorted)
	s.sorted = make([]float64, s.n)
	s.sortedK = make([]int64, s.n)
	for i, x := range sorted {
		off := x - d.loI
		if x < d.loI && off >= 0 {
			off = math.MinInt64 / 2 // the subtraction overflowed: far below the range
		}
		switch {
		case off < 0:
			s.below++
		case off >= width:
			s.above++
		case off%s.step != 0:
			s.offGrid++
		}
		s.sorted[i] = float64(x)
		s.sortedK[i] = floorDiv(off, s.step)
	}
	return nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) {
		q--
	}
	return q
}

func (s *sample) prepareContinuous() {
	d := s.dist
	for _, x := range s.xs {
		switch {
		case d.disc != nil:
			if d.disc.Prob(x) <= 0 {
				s.offSupport++
			}
		case x < d.lo:
			s.below++
		case x > d.hi || (d.uniform && x >= d.hi):
			s.above++
		}
	}
	s.sorted = slices.Clone(s.xs)
	slices.Sort(s.sorted)
	if d.uniform {
		s.support = floatSupport(d.lo, d.hi, s.kind.float32)
	}
}

// floatSupport is the number of equally likely values a correct random float over [lo, hi) can
// take: the floats in the range, capped at the resolution of math/rand/v2 (Float64 draws one of
// 2^53 values, Float32 one of 2^24).
func floatSupport(lo, hi float64, f32 bool) float64 {
	if f32 {
		n := float64(orderedBits32(float32(hi)) - orderedBits32(float32(lo)))
		return math.Min(n, 1<<24)
	}
	n := float64(orderedBits64(hi) - orderedBits64(lo))
	return math.Min(n, 1<<53)
}

// orderedBits64 maps float64 values to integers in the same order, consecutive floats to
// consecutive integers.
func orderedBits64(x float64) int64 {
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return -int64(b &^ (1 << 63))
	}
	return int64(b)
}

func orderedBits32(x float32) int64 {
	b := math.Float32bits(x)
	if b>>31 == 1 {
		return -int64(b &^ (1 << 31))
	}
	return int64(b)
}

// pos maps a value to its position in the declared distribution, in [0, 1) for a value in range:
// (x - lo) / (hi - lo) for a uniform, the CDF otherwise.
func (s *sample) pos(x float64) float64 {
	d := s.dist
	switch {
	case d.uniform:
		return (x - d.lo) / (d.hi - d.lo)
	case d.disc != nil:
		return d.disc.CDF(x)
	}
	return d.cont.CDF(x)
}

// width is the width of the declared range in the sample's units.
func (s *sample) width() float64 { return s.dist.hi - s.dist.lo }

// format prints a value in the sample's type.
func (s *sample) format(x float64) string { return s.kind.format(x) }
