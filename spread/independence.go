package spread

import (
	"fmt"
	"math"
	"slices"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// checkIndependence fails when the order of the values betrays a pattern: values read from a
// clock rise step by step (too many ascents), or alternate when the clock steps by about half
// the range (too many turning points), or run in long monotone stretches (too few). Both counts
// have exact distributions for independent draws (Eulerian numbers; alternating runs), whatever
// the distribution, once ties are broken at random. A third statistic, the lag-1 product sum
// of the positions, sees a smooth correlation sooner. The three share the check's rate by
// Bonferroni.
func (s *sample) checkIndependence(alpha float64) ([]Result, error) {
	stats := 3
	if s.dist.like != nil {
		stats = 2 // no positions without a CDF: the order patterns only
	}
	part, err := share(alpha, stats)
	if err != nil {
		return nil, err
	}
	o := newOrder(s.keys)
	ascents, turns := o.ascents(), o.turningPoints()
	aLo, aHi, aMethod, err := sizing.AscentsInterval(s.n, part)
	if err != nil {
		return nil, err
	}
	tLo, tHi, tMethod, err := sizing.TurningPointsInterval(s.n, part)
	if err != nil {
		return nil, err
	}
	tieNote := ""
	if o.ties > 0 {
		tieNote = fmt.Sprintf("; %d ties between neighbours broken by seeded noise, which keeps the null distribution exact", o.ties)
	}
	asc := countResult("ascents", s.n, ascents, aLo, aHi, part)
	asc.Method = sized(aMethod, fmt.Sprintf("n = %d%s", s.n, tieNote))
	asc.Method.Formula = "acceptance interval of the ascent count, " + asc.Method.Formula
	asc.Observed = fmt.Sprintf("%d ascents in %d steps (expected %.1f)", ascents, s.n-1, float64(s.n-1)/2)
	if asc.Failed {
		asc.why = "the values rise step by step, as a clock does"
		if ascents < aLo {
			asc.why = "the values fall step by step"
		}
	}
	tp := countResult("turning-points", s.n, turns, tLo, tHi, part)
	tp.Method = sized(tMethod, fmt.Sprintf("n = %d%s", s.n, tieNote))
	tp.Method.Formula = "acceptance interval of the turning-point count, " + tp.Method.Formula
	tp.Observed = fmt.Sprintf("%d turning points in %d inner values (expected %.1f)", turns, max(s.n-2, 0), 2*float64(s.n-2)/3)
	if tp.Failed {
		tp.why = "long rising or falling runs: serially correlated values"
		if turns > tHi {
			tp.why = "values alternate high and low: a step of about half the range"
		}
	}
	if stats == 2 {
		return []Result{asc, tp}, nil
	}
	serial, err := s.serialCorrelation(part)
	if err != nil {
		return nil, err
	}
	return []Result{asc, tp, serial}, nil
}

// serialCorrelation checks the lag-1 products of the positions in draw order: values that
// follow their predecessor (a smooth, correlated sequence with the right spread) pile up
// products of one sign, which the counts of ascents and turning points see only slowly.
func (s *sample) serialCorrelation(alpha float64) (Result, error) {
	u, sigma2, bias := s.drawPositions()
	var sum, sq float64
	for i := 0; i+1 < len(u); i++ {
		sum += (u[i] - 0.5) * (u[i+1] - 0.5)
		sq += (u[i] - 0.5) * (u[i] - 0.5)
	}
	lim, method, err := sizing.LagProductLimit(s.n, min(sq, float64(s.n-1)/4), sigma2, bias, alpha)
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Check: CheckIndependence, Statistic: "serial-correlation", N: s.n, Alpha: alpha,
		Value: sum, Limit: lim, Margin: lim - math.Abs(sum), Failed: math.Abs(sum) >= lim,
		Method:   sized(method, fmt.Sprintf("n = %d", s.n)),
		Observed: fmt.Sprintf("lag-1 product sum %.4g of the positions centred on the middle of the range", sum),
		Want:     fmt.Sprintf("|sum| < %.4g", lim),
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%.4g past the limit", math.Abs(sum)-lim)
		r.Suspects, r.why = []Suspect{SuspectClockDerived}, "each value follows the one before: serially correlated values"
		if sum < 0 {
			r.why = "each value leans away from the one before"
		}
	}
	return r, nil
}

// drawPositions returns the positions in [0, 1] of the values in draw order, with a bound on
// E[(u - 1/2)^2] and on |E[u] - 1/2| for a correct sample: cells at their midpoints (mean 1/2
// exactly), floats by their position (within the resolution of a uniform), a general
// distribution by its CDF (one with atoms by the middle of each value's step, mean 1/2
// exactly, within the resolution of a float).
func (s *sample) drawPositions() (u []float64, sigma2, bias float64) {
	u = make([]float64, s.n)
	d := s.dist
	switch {
	case s.discrete:
		w := float64(s.cells)
		for i, key := range s.keys {
			u[i] = (float64(s.cellOf(key)) + 0.5) / w
		}
		return u, (1 - 1/(w*w)) / 12, 0
	case d.uniform:
		for i, key := range s.keys {
			u[i] = clamp01(position(s.keyValue(key), d.lo, d.hi))
		}
		return u, math.Pow(math.Sqrt(1.0/12)+s.res, 2), s.res
	case d.law != nil:
		for i, key := range s.keys {
			below, at := d.law.cdf(d.law.coord(s, key))
			u[i] = clamp01((below + at) / 2)
		}
		return u, math.Pow(math.Sqrt(1.0/12)+s.res, 2), s.res
	}
	for i, key := range s.keys {
		u[i] = clamp01(d.cont.CDF(s.keyValue(key)))
	}
	return u, 1.0 / 12, 0
}

// countResult judges a count against the acceptance interval [lo, hi].
func countResult(name Statistic, n, count, lo, hi int, alpha float64) Result {
	margin := min(count-lo, hi-count)
	r := Result{
		Check: CheckIndependence, Statistic: name, N: n, Alpha: alpha,
		Value:  float64(count),
		Limit:  float64(hi),
		Margin: float64(margin),
		Failed: count < lo || count > hi,
		Want:   fmt.Sprintf("between %d and %d", lo, hi),
	}
	if count < lo {
		r.Limit = float64(lo)
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%d outside the interval", -margin)
		r.Suspects = []Suspect{SuspectClockDerived}
	}
	return r
}

// order compares neighbouring values by their keys, exactly, breaking ties with noise that is
// seeded by the sample itself, so that the verdict is the same on every run of the same sample.
type order struct {
	keys []uint64
	seed uint64
	ties int
}

func newOrder(keys []uint64) order {
	o := order{keys: keys, seed: uint64(len(keys))}
	for i, k := range keys {
		o.seed = splitmix(o.seed ^ k)
		if i > 0 && k == keys[i-1] {
			o.ties++
		}
	}
	return o
}

// less reports whether the i-th value comes before the j-th: by value, then by noise.
func (o order) less(i, j int) bool {
	if o.keys[i] != o.keys[j] {
		return o.keys[i] < o.keys[j]
	}
	return splitmix(o.seed+uint64(i)) < splitmix(o.seed+uint64(j))
}

func (o order) ascents() int {
	n := 0
	for i := 0; i+1 < len(o.keys); i++ {
		if o.less(i, i+1) {
			n++
		}
	}
	return n
}

func (o order) turningPoints() int {
	n := 0
	for i := 1; i+1 < len(o.keys); i++ {
		if o.less(i-1, i) == o.less(i+1, i) {
			n++ // a peak (both neighbours below) or a trough (both above)
		}
	}
	return n
}

// splitmix is the SplitMix64 finaliser: a cheap, well-mixed hash of a 64-bit word.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// sortedCopy returns the keys in increasing order, leaving keys as they are.
func sortedCopy(keys []uint64) []uint64 {
	out := slices.Clone(keys)
	slices.Sort(out)
	return out
}
