package spread

import (
	"fmt"
	"math"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// checkIndependence fails when the order of the values betrays a pattern: values read from a
// clock rise step by step (too many ascents), or alternate when the clock steps by about half
// the range (too many turning points), or run in long monotone stretches (too few). Both counts
// have exact distributions for independent draws (Eulerian numbers; alternating runs), whatever
// the distribution, once ties are broken at random.
func (s *sample) checkIndependence(alpha float64) ([]Result, error) {
	part, err := sizing.Sidak(alpha, 2)
	if err != nil {
		return nil, err
	}
	o := newOrder(s.xs)
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
	asc := countResult(CheckIndependence+"/ascents", s.n, ascents, aLo, aHi, part)
	asc.Method = fmt.Sprintf("acceptance interval of the ascent count, %s, n = %d%s", aMethod, s.n, tieNote)
	asc.Observed = fmt.Sprintf("%d ascents in %d steps (expected %.1f)", ascents, s.n-1, float64(s.n-1)/2)
	if asc.Failed {
		asc.Suggests = "clock-derived (the values rise step by step, as a clock does)"
		if ascents < aLo {
			asc.Suggests = "clock-derived (the values fall step by step)"
		}
	}
	tp := countResult(CheckIndependence+"/turning-points", s.n, turns, tLo, tHi, part)
	tp.Method = fmt.Sprintf("acceptance interval of the turning-point count, %s, n = %d%s", tMethod, s.n, tieNote)
	tp.Observed = fmt.Sprintf("%d turning points in %d inner values (expected %.1f)", turns, max(s.n-2, 0), 2*float64(s.n-2)/3)
	if tp.Failed {
		tp.Suggests = "clock-derived (long rising or falling runs: serially correlated values)"
		if turns > tHi {
			tp.Suggests = "clock-derived (values alternate high and low: a step of about half the range)"
		}
	}
	return []Result{asc, tp}, nil
}

// countResult judges a count against the acceptance interval [lo, hi].
func countResult(name string, n, count, lo, hi int, alpha float64) Result {
	margin := min(count-lo, hi-count)
	r := Result{
		Name: name, N: n, Alpha: alpha,
		Statistic: float64(count),
		Limit:     float64(hi),
		Margin:    float64(margin),
		Failed:    count < lo || count > hi,
		Want:      fmt.Sprintf("between %d and %d", lo, hi),
	}
	if count < lo {
		r.Limit = float64(lo)
	}
	if r.Failed {
		r.Distance = fmt.Sprintf("%d outside the interval", -margin)
	}
	return r
}

// order compares neighbouring values, breaking ties with noise that is seeded by the sample
// itself, so that the verdict is the same on every run of the same sample.
type order struct {
	xs   []float64
	seed uint64
	ties int
}

func newOrder(xs []float64) order {
	o := order{xs: xs, seed: uint64(len(xs))}
	for i, x := range xs {
		o.seed = splitmix(o.seed ^ math.Float64bits(x))
		if i > 0 && x == xs[i-1] {
			o.ties++
		}
	}
	return o
}

// less reports whether the i-th value comes before the j-th: by value, then by noise.
func (o order) less(i, j int) bool {
	if o.xs[i] != o.xs[j] {
		return o.xs[i] < o.xs[j]
	}
	return splitmix(o.seed+uint64(i)) < splitmix(o.seed+uint64(j))
}

func (o order) ascents() int {
	n := 0
	for i := 0; i+1 < len(o.xs); i++ {
		if o.less(i, i+1) {
			n++
		}
	}
	return n
}

func (o order) turningPoints() int {
	n := 0
	for i := 1; i+1 < len(o.xs); i++ {
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
