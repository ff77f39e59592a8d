package spread

import (
	"fmt"
	"slices"

	"github.com/spreadcheck/spreadcheck/sizing"
)

// checkIndependence fails when the order of the values betrays a pattern: values read from a
// clock rise step by step (too many ascents), or alternate when the clock steps by about half
// the range (too many turning points), or run in long monotone stretches (too few). Both counts
// have exact distributions for independent draws (Eulerian numbers; alternating runs), whatever
// the distribution, once ties are broken at random. The two share the check's rate by
// Bonferroni.
func (s *sample) checkIndependence(alpha float64) ([]Result, error) {
	part, err := share(alpha, 2)
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
	asc := countResult(string(CheckIndependence)+"/ascents", s.n, ascents, aLo, aHi, part)
	asc.Method = fmt.Sprintf("acceptance interval of the ascent count, %s, n = %d%s", aMethod, s.n, tieNote)
	asc.Observed = fmt.Sprintf("%d ascents in %d steps (expected %.1f)", ascents, s.n-1, float64(s.n-1)/2)
	if asc.Failed {
		asc.why = "the values rise step by step, as a clock does"
		if ascents < aLo {
			asc.why = "the values fall step by step"
		}
	}
	tp := countResult(string(CheckIndependence)+"/turning-points", s.n, turns, tLo, tHi, part)
	tp.Method = fmt.Sprintf("acceptance interval of the turning-point count, %s, n = %d%s", tMethod, s.n, tieNote)
	tp.Observed = fmt.Sprintf("%d turning points in %d inner values (expected %.1f)", turns, max(s.n-2, 0), 2*float64(s.n-2)/3)
	if tp.Failed {
		tp.why = "long rising or falling runs: serially correlated values"
		if turns > tHi {
			tp.why = "values alternate high and low: a step of about half the range"
		}
	}
	return []Result{asc, tp}, nil
}

// countResult judges a count against the acceptance interval [lo, hi].
func countResult(name string, n, count, lo, hi int, alpha float64) Result {
	margin := min(count-lo, hi-count)
	r := Result{
		Name: name, Check: CheckIndependence, N: n, Alpha: alpha,
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
