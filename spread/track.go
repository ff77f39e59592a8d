package spread

import (
	"math"
)

// A tracker follows one loop's events as they arrive, in O(1) memory: the gap and the event
// nearest to (or furthest outside) their exact limits, the largest drift of a sleep-anchored
// loop, and the runs of its draws. The stream checks order and range before add.
type tracker struct {
	start int64 // the loop's start, from the fleet's
	n     int64 // events so far
	m, j  int64 // the next event's batch and place in it
	last  int64 // the last event's time, from the loop's start

	gap      nearest // the gap nearest to, or furthest outside, its limits
	min, max extreme // the smallest and largest gap between two events
	pace     nearest // ticker-anchored: the event nearest to, or furthest outside, its window
	drift    drift   // sleep-anchored: the largest drift against sqrt(draws)
	runs     runs    // runs of short and long draws
	phase    int64   // fleet: the offset into its interval of the first event after the warm-up, or -1
}

// nearest remembers the value with the smallest margin to its allowed range [lo, hi]
// (negative outside), and how many values fell outside.
type nearest struct {
	set           bool
	k, at         int64 // the event that showed it, and its time
	value, lo, hi int64
	margin        int64
	outside       int64
}

func (w *nearest) see(k, at, v, lo, hi int64) {
	m := min(sub(v, lo), sub(hi, v))
	if m < 0 {
		w.outside++
	}
	if !w.set || m < w.margin {
		*w = nearest{true, k, at, v, lo, hi, m, w.outside}
	}
}

// sub returns a - b, saturated at the ends of int64.
func sub(a, b int64) int64 {
	d := a - b
	if (a >= 0) != (b >= 0) && (d >= 0) != (a >= 0) {
		if a >= 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return d
}

// extreme is a gap and the event it ends at.
type extreme struct {
	set  bool
	k, v int64
}

// drift is the largest |D_m| / sqrt(K) seen, D_m the time of batch m's start less its mean
// after K draws; last is the latest, which the rate check judges.
type drift struct {
	set          bool
	k, draws, at int64 // the event, the draws before it and its time
	dev, ratio   float64
	last         struct {
		k, draws int64
		dev      float64
	}
}

func (d *drift) see(k, draws, at int64, dev float64) {
	d.last.k, d.last.draws, d.last.dev = k, draws, dev
	r := math.Abs(dev) / math.Sqrt(float64(draws))
	if !d.set || r > d.ratio {
		d.set, d.k, d.draws, d.at, d.dev, d.ratio = true, k, draws, at, dev, r
	}
}

// runs follows the runs of short and long draws.
type runs struct {
	draws, lost   int64 // draws seen, and draws that fell outside the window
	short         bool  // the kind of the current run
	cur, curStart int64 // its length and first event
	best          [2]run
}

// run is the longest run of one kind: its length and the events it spans.
type run struct{ length, first, last int64 }

func (r *runs) see(k int64, short bool) {
	if r.draws == 0 || short != r.short {
		r.short, r.cur, r.curStart = short, 0, k
	}
	r.draws++
	r.cur++
	i := kindIndex(short)
	if r.cur > r.best[i].length {
		r.best[i] = run{r.cur, r.curStart, k}
	}
}

func kindIndex(short bool) int {
	if short {
		return 0
	}
	return 1
}

// add takes the loop's next event at t.
func (l *tracker) add(s *Schedule, t int64) {
	k, m, j := l.n, l.m, l.j
	if l.j++; l.j == s.batch {
		l.m, l.j = l.m+1, 0
	}
	if s.anchored {
		l.addAnchored(s, k, m, j, t)
	} else {
		l.addSleep(s, k, m, j, t)
	}
	if k > 0 {
		g := t - l.last
		if !l.min.set || g < l.min.v {
			l.min = extreme{true, k, g}
		}
		if !l.max.set || g > l.max.v {
			l.max = extreme{true, k, g}
		}
	}
	l.last = t
	l.n++
}

// addAnchored checks event k (batch m, place j) of a ticker-anchored loop against its window
// and its gap against the exact range, and takes the draw a batch's first event shows.
func (l *tracker) addAnchored(s *Schedule, k, m, j, t int64) {
	lo, hi := s.window0(m, j)
	l.pace.see(k, t, t, lo, hi)
	if k > 0 {
		glo, ghi := s.gapRange(j)
		l.gap.see(k, t, t-l.last, glo, ghi)
	}
	if j == 0 && s.random() {
		l.draw(s, k, t-lo, t >= lo && t <= hi)
	}
}

// addSleep checks event k of a sleep-anchored loop: its gap against the exact range, the draw
// it shows, and at a batch's start the drift of the loop's pace.
func (l *tracker) addSleep(s *Schedule, k, m, j, t int64) {
	var g, glo, ghi int64
	switch {
	case k == 0 && s.sleepFirst: // the first draw, from the start
		g, glo, ghi = t, 0, s.window-1
	case k == 0: // the first event, at the start
		g, glo, ghi = t, 0, 0
	default:
		g = t - l.last
		glo, ghi = s.gapRange(j)
	}
	l.gap.see(k, t, g, glo, ghi)
	if j == 0 && (k > 0 || s.sleepFirst) {
		l.draw(s, k, g-glo, g >= glo && g <= ghi)
		draws := m
		if s.sleepFirst {
			draws++
		}
		l.drift.see(k, draws, t, float64(t)-float64(m)*float64(s.period)-float64(draws)*s.mean())
	}
}

// draw takes the draw u that event k shows, if it lies in the window.
func (l *tracker) draw(s *Schedule, k, u int64, ok bool) {
	if !ok {
		l.runs.lost++
		return
	}
	l.runs.see(k, 2*u < s.window)
}

// window0 returns the window [lo, hi] of event j of batch m on a ticker-anchored schedule:
// [m*period + j*I, ... + window-1]; past the end of int64 it is empty at the top.
func (s *Schedule) window0(m, j int64) (lo, hi int64) {
	if m > s.lastBatch {
		return math.MaxInt64, math.MaxInt64
	}
	lo = m*s.period + j*s.interval
	return lo, lo + max(s.window-1, 0)
}

// gapRange returns the exact range of the gap before an event at place j of its batch: one
// interval inside a batch; between batches, the fixed part plus the draws' difference
// (ticker-anchored) or the draw (sleep-anchored).
func (s *Schedule) gapRange(j int64) (lo, hi int64) {
	if j > 0 {
		return s.interval, s.interval
	}
	d := max(s.window-1, 0)
	if s.anchored {
		base := s.period - (s.batch-1)*s.interval
		return base - d, base + d
	}
	return s.sleepGap(), s.sleepGap() + d
}

// latestNext returns the latest time the event after the last one may come at: past it, an
// event is missing.
func (l *tracker) latestNext(s *Schedule) int64 {
	m, j := l.m, l.j
	if s.anchored {
		_, hi := s.window0(m, j)
		return hi
	}
	if l.n == 0 {
		if s.sleepFirst {
			return s.window - 1
		}
		return 0
	}
	_, ghi := s.gapRange(j)
	if l.last > math.MaxInt64-ghi {
		return math.MaxInt64
	}
	return l.last + ghi
}
