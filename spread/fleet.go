package spread

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// maxLoops is the largest fleet the checks take, in loops: 1<<20 (1,048,576), as many as a
// fakeclock Fleet runs. A loop's state is 384 bytes: 400 MB at the limit.
const maxLoops = 1 << 20

// maxCells caps the load check's bucket counts (intervals times buckets): 256 MB of counts.
const maxCells = 1 << 26

// CheckFleet checks a fleet's event times and fails t with one report that explains every
// failing check (see AnalyzeFleet), with a picture of the load over the interval that holds
// the fullest bucket.
//
// events[i] are the times of loop i's events as offsets from the fleet's start, in order, all of
// them in [0, span] (fakeclock's Fleet returns them so, with span its For). Every loop started
// at the fleet's start (in lockstep, the worst case: after a power cut or a network blip),
// unless LoopStarts says when each started.
func CheckFleet(t testing.TB, events [][]time.Duration, s Schedule, span time.Duration, opts ...TimeOption) {
	needTest(t, "CheckFleet(nil, ...)")
	t.Helper()
	r, err := AnalyzeFleet(events, s, span, opts...)
	fail(t, r, err)
}

// AnalyzeFleet checks a fleet of loops that each follow the schedule s and returns the report:
//
//   - every check of AnalyzeLoop on every loop, each reported for the loop that comes nearest
//     to (or furthest past) its limit, with the number of loops that fail it;
//   - load: after the warm-up (WarmUp, default none), the fleet's events counted in time
//     buckets (Buckets, default 32 per interval); the fullest bucket must hold fewer events
//     than the limit that loops with independent uniform phases meet (the
//     exact binomial tail, a union bound over every bucket). A fleet in lockstep, or packed
//     into half the interval or into a fixed 100 ms window, fails it;
//   - phases: each loop's first event at or after the end of the warm-up, as an offset into its
//     interval, must be uniform over the interval (the fit check: one-sample
//     Kolmogorov-Smirnov). The first event at or after, not the first in that interval: a
//     re-offset loop may skip the interval where a batch ends, and the phases of the loops that
//     do not skip it lean late, while the first events of all of them are uniform.
//
// The load and the phases measure a fleet against the ideal of independent uniform phases. A
// fleet whose schedule cannot spread it (plain tickers started in lockstep) fails them by
// design. For the others the limits are proven: the load limit holds when the loops are
// independent and each puts at most one event in a bucket, with probability at most the
// bucket's share of the interval, and the phases are uniform when each loop's is: true of
// JitterTicker, Reoffset and ReoffsetTicker, whose draws place each loop's phase (Reoffset's
// stays uniform from batch to batch), and of tickers with independent uniform LoopStarts. A
// RandomSleep loop can fire twice within a bucket: for it the load limit is that of an ideally
// spread fleet, not a proven bound. The false-failure
// rate (default 1e-9) is shared by Bonferroni between every loop's statistics that can fail
// by chance, the load and the phases. AnalyzeFleet returns an error, and no verdict, for input
// it cannot judge: no loops, more than 1<<20 (1,048,576) loops (the most whose state fits in
// memory), a loop with no events, events out of order, negative or after span,
// a span without a whole interval after the warm-up.
func AnalyzeFleet(events [][]time.Duration, s Schedule, span time.Duration, opts ...TimeOption) (Report, error) {
	st, err := newStream(len(events), s, span, true, opts)
	if err != nil {
		return Report{Dist: s.String(), N: total(events)}, err
	}
	for i, evs := range events {
		for _, at := range evs {
			if err := st.add(i, at); err != nil {
				return Report{Dist: st.describe(), N: total(events), FalseFailureRate: st.alpha}, err
			}
		}
	}
	r, err := st.report()
	if err == nil && st.worst.set {
		nameLoops(&r, events, st)
	}
	return r, err
}

func total(events [][]time.Duration) int {
	n := 0
	for _, evs := range events {
		n += len(evs)
	}
	return n
}

// A FleetStream checks a fleet's event times as they arrive, one at a time, for fleets too
// large to hold every event: it keeps O(1) per loop and the load's bucket counts, and reports
// what AnalyzeFleet would. It is safe for concurrent use; each loop's events must arrive in
// order. Make one with NewFleetStream: on the zero FleetStream, Add and Report return an error.
type FleetStream struct {
	mu sync.Mutex
	st *stream
}

// NewFleetStream returns a FleetStream for a fleet of loops loops that follow s and run for
// span; see AnalyzeFleet for the checks and the options.
func NewFleetStream(loops int, s Schedule, span time.Duration, opts ...TimeOption) (*FleetStream, error) {
	st, err := newStream(loops, s, span, true, opts)
	if err != nil {
		return nil, err
	}
	return &FleetStream{st: st}, nil
}

// Add takes loop's next event, at the given offset from the fleet's start. It returns an error
// for an event that cannot be judged (a loop out of range, a time before the loop's start or
// its previous event, or after the span); the stream then keeps the error, and Report returns
// it. Add has the signature of a fakeclock Fleet's Sink, which hands a fleet's events over in
// time order as they happen, so that no event is kept.
func (f *FleetStream) Add(loop int, at time.Duration) error {
	if f == nil {
		return errZeroStream
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.st == nil {
		return errZeroStream
	}
	return f.st.add(loop, at)
}

// errZeroStream is the error of a FleetStream not made by NewFleetStream.
var errZeroStream = errors.New("spread: a zero FleetStream has no fleet to check: make it with NewFleetStream")

// Report returns the report on the events added so far, as AnalyzeFleet would, except that it
// cannot name the loops in the fullest bucket.
func (f *FleetStream) Report() (Report, error) {
	if f == nil {
		return Report{}, errZeroStream
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.st == nil {
		return Report{}, errZeroStream
	}
	return f.st.report()
}

// stream is the engine of the checks on event times: it takes events one by one and keeps
// O(1) per loop, plus the load's bucket counts for a fleet.
type stream struct {
	sched Schedule
	span  int64
	alpha float64
	fleet bool
	loops []tracker

	warm, intervals, buckets int64 // the load: buckets per interval, intervals [warm, intervals)
	counts                   []int32
	folded                   []int64 // one loop: its events by place in their interval
	worst                    cell    // set by report: the fullest bucket
	full                     float64 // set by report: the share that counts every statistic
	quiet                    bool    // results without their text, to compare loops fast
	events                   int64
	err                      error
}

// cell is one time bucket: its interval and its place in it.
type cell struct {
	set               bool
	interval, bucket  int64
	count, lo, hi, at int64 // hi: the bucket is [lo, hi)
}

func newStream(n int, s Schedule, span time.Duration, fleet bool, opts []TimeOption) (*stream, error) {
	c, err := newTimeConfig(opts)
	switch {
	case err != nil:
		return nil, err
	case !fleet && len(c.time.fleet) > 0:
		return nil, fmt.Errorf("spread: %s applies to fleets: a single loop has no load or phases to check", c.time.fleet[0])
	case s.check() != nil:
		return nil, s.check()
	case span <= 0:
		return nil, fmt.Errorf("spread: span %v: the loops must run for a positive time", span)
	case n < 1:
		return nil, fmt.Errorf("spread: a fleet of %d loops: there is nothing to check", n)
	case n > maxLoops:
		return nil, fmt.Errorf("spread: a fleet of %d loops: the checks take at most %d (1<<20), beyond which they would not fit in memory", n, maxLoops)
	}
	st := &stream{sched: s, span: int64(span), alpha: c.alpha, fleet: fleet, loops: make([]tracker, n)}
	for i := range st.loops {
		st.loops[i].phase = -1
	}
	if err := st.setStarts(c.time.starts); err != nil {
		return nil, err
	}
	st.buckets = cmp.Or(c.time.buckets, defaultBuckets)
	if !fleet {
		st.folded = make([]int64, defaultBuckets)
		return st, nil
	}
	return st, st.initLoad(c.time.warmUp)
}

// setStarts records each loop's start, from LoopStarts.
func (st *stream) setStarts(starts []time.Duration) error {
	switch {
	case starts == nil:
		return nil
	case !st.fleet:
		return fmt.Errorf("spread: LoopStarts applies to fleets: a loop's events are offsets from its own start")
	case len(starts) != len(st.loops):
		return fmt.Errorf("spread: LoopStarts gives %d starts for a fleet of %d loops", len(starts), len(st.loops))
	}
	for i, s := range starts {
		if s < 0 || int64(s) > st.span {
			return fmt.Errorf("spread: LoopStarts: loop %d starts at %v, outside the span [0s, %v]", i, s, time.Duration(st.span))
		}
		st.loops[i].start = int64(s)
	}
	return nil
}

// initLoad sizes the load's counts: whole intervals from the warm-up to the span.
func (st *stream) initLoad(warm int64) error {
	I := st.sched.interval
	st.warm, st.intervals = warm, st.span/I
	switch {
	case st.buckets > I:
		return fmt.Errorf("spread: Buckets(%d): more buckets than nanoseconds in the %v interval", st.buckets, time.Duration(I))
	case st.warm >= st.intervals:
		return fmt.Errorf("spread: a span of %v holds %d whole intervals of %v, none after a warm-up of %d: run the fleet longer", time.Duration(st.span), st.intervals, time.Duration(I), warm)
	case (st.intervals - st.warm) > maxCells/st.buckets:
		return fmt.Errorf("spread: %d intervals of %d buckets are beyond the %d buckets the load check counts: check a shorter span, or use fewer buckets", st.intervals-st.warm, st.buckets, maxCells)
	}
	st.counts = make([]int32, (st.intervals-st.warm)*st.buckets)
	return nil
}

// describe names what the stream checks, e.g. "1000 loops of Ticker(1s) over [0s, 10s)".
func (st *stream) describe() string {
	if st.fleet {
		return fmt.Sprintf("%d loops of %s over [0s, %v]", len(st.loops), st.sched, time.Duration(st.span))
	}
	return fmt.Sprintf("%s over [0s, %v]", st.sched, time.Duration(st.span))
}

// add takes loop i's next event at at.
func (st *stream) add(i int, at time.Duration) error {
	if st.err != nil {
		return st.err
	}
	if i < 0 || i >= len(st.loops) {
		st.err = fmt.Errorf("spread: an event of loop %d, in a fleet of %d loops", i, len(st.loops))
		return st.err
	}
	l, t := &st.loops[i], int64(at)
	switch {
	case t < 0:
		st.err = fmt.Errorf("spread: loop %d: event %d at %v: event times are offsets from the start, never negative", i, l.n, at)
	case t > st.span:
		st.err = fmt.Errorf("spread: loop %d: event %d at %v is after the end of the span, %v", i, l.n, at, time.Duration(st.span))
	case t < l.start:
		st.err = fmt.Errorf("spread: loop %d: event %d at %v comes before the loop's start at %v", i, l.n, at, time.Duration(l.start))
	case l.n > 0 && t-l.start < l.last:
		st.err = fmt.Errorf("spread: loop %d: event %d at %v comes before event %d at %v: event times must be in order", i, l.n, at, l.n-1, time.Duration(l.last+l.start))
	}
	if st.err != nil {
		return st.err
	}
	I := st.sched.interval
	k, r := t/I, t%I
	if st.fleet {
		if k >= st.warm && l.phase < 0 { // the first event at or after the warm-up
			l.phase = r
		}
		if k >= st.warm && k < st.intervals {
			st.counts[(k-st.warm)*st.buckets+bucketOf(r, st.buckets, I)]++
		}
	} else {
		st.folded[bucketOf(r, defaultBuckets, I)]++
	}
	l.add(&st.sched, t-l.start)
	st.events++
	return nil
}

// bucketOf returns floor(r*b/I) for 0 <= r < I, without overflow: bucket j holds the offsets
// in [ceil(j*I/b), ceil((j+1)*I/b)).
func bucketOf(r, b, I int64) int64 {
	hi, lo := bits.Mul64(uint64(r), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(I))
	return int64(q)
}

// bucketStart returns the first offset of bucket j, ceil(j*I/b).
func bucketStart(j, b, I int64) int64 {
	hi, lo := bits.Mul64(uint64(j), uint64(I))
	q, rem := bits.Div64(hi, lo, uint64(b))
	if rem != 0 {
		q++
	}
	return int64(q)
}

// report returns the report on the events so far.
func (st *stream) report() (Report, error) {
	r := Report{Dist: st.describe(), N: int(st.events), FalseFailureRate: st.alpha}
	if st.err != nil {
		return r, st.err
	}
	if err := st.silentLoops(); err != nil {
		return r, err
	}
	share := st.split()
	if !st.fleet {
		r.Results = st.loopResults(0, share)
		r.histogram = st.foldedPicture()
		return r, nil
	}
	r.Results = append(st.aggregate(share), st.loadResult(share), st.phasesResult(share))
	r.histogram = st.loadPicture()
	return r, nil
}

// split returns the share of the false-failure rate of each statistic that can fail by chance
// (Bonferroni). A statistic that could not be sized even at a share that counts every one
// (too few draws in a loop) is left out of the count, and skipped in the report.
func (st *stream) split() float64 {
	k := 0
	if st.fleet {
		k = 2 // load, phases
	}
	st.full = st.alpha / float64(max(st.sched.chanceStats()*len(st.loops)+k, 1))
	for i := range st.loops {
		k += st.loops[i].chanceStats(&st.sched, st.full)
	}
	return st.alpha / float64(max(k, 1))
}

// silentLoops returns an error naming the loops that made no event.
func (st *stream) silentLoops() error {
	var silent []string
	n := 0
	for i := range st.loops {
		if st.loops[i].n == 0 {
			if n < 5 {
				silent = append(silent, fmt.Sprint(i))
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	more := ""
	if n > len(silent) {
		more = fmt.Sprintf(" and %d more", n-len(silent))
	}
	return fmt.Errorf("spread: loop %s%s made no event in [0s, %v]: a loop that never runs cannot be checked (is the span too short, or the loop stuck?)",
		strings.Join(silent, ", "), more, time.Duration(st.span))
}

// aggregate reports each per-loop statistic for the loop nearest to (or furthest past) its
// limit, with the number of loops that fail it.
func (st *stream) aggregate(share float64) []Result {
	var worst, buf []Result
	var who, fails []int
	st.quiet = true
	for i := range st.loops {
		buf = st.appendLoopResults(buf[:0], i, share)
		for j, r := range buf {
			if j == len(worst) {
				worst, who, fails = append(worst, r), append(who, i), append(fails, 0)
			}
			if r.Failed {
				fails[j]++
			}
			if r.Skipped == nil && (worst[j].Skipped != nil || relMargin(r) < relMargin(worst[j])) {
				worst[j], who[j] = r, i
			}
		}
	}
	st.quiet = false
	for j := range worst {
		worst[j] = st.loopResults(who[j], share)[j] // again, with its text
		r := &worst[j]
		r.Alpha *= float64(len(st.loops)) // the rate this statistic spends over the fleet
		r.Observed = fmt.Sprintf("loop %d: %s", who[j], r.Observed)
		if fails[j] > 0 {
			r.Observed += fmt.Sprintf("; %d of %d loops fail", fails[j], len(st.loops))
		}
		if r.Skipped != nil {
			r.Skipped = &skip{reason: fmt.Sprintf("loop %d: %v", who[j], r.Skipped), err: errors.Unwrap(r.Skipped)}
		}
	}
	return worst
}

// relMargin is a result's margin relative to its limit, to compare loops.
func relMargin(r Result) float64 {
	return r.Margin / math.Max(math.Abs(r.Limit), 1)
}

// loadResult checks the fullest bucket against sizing.LoadLimit.
func (st *stream) loadResult(alpha float64) Result {
	n, I := int64(len(st.loops)), st.sched.interval
	cells := int64(len(st.counts))
	p := float64(bucketStart(1, st.buckets, I)) / float64(I) // the largest bucket's share
	st.worst = st.fullest()
	w := st.worst
	mean := float64(st.countedEvents()) / float64(cells)
	r := Result{Check: CheckLoad, N: int(n), Alpha: alpha, Value: float64(w.count)}
	r.Observed = fmt.Sprintf("fullest bucket [%v, %v) holds %d events, %.3g times the mean %.3g per bucket",
		time.Duration(w.lo), time.Duration(w.hi), w.count, float64(w.count)/math.Max(mean, 1e-300), mean)
	m, err := sizing.LoadLimit(int(n), p, int(cells), alpha)
	if err != nil {
		r.Skipped = tooFew(int(n), "loops", alpha, err)
		return r
	}
	r.Limit, r.Margin, r.Failed = float64(m), float64(int64(m)-1-w.count), w.count >= int64(m)
	r.Method = Method{Formula: "P(Binomial(loops, p) >= m) <= alpha/buckets for each bucket: exact binomial tail, union bound over the buckets; holds for independent loops that each put at most one event in a bucket, with probability at most its share p of the interval",
		Inputs: fmt.Sprintf("%d loops, p = %.4g, m = %d, %d buckets (%d per interval x %d intervals after a warm-up of %d)", n, p, m, cells, st.buckets, st.intervals-st.warm, st.warm)}
	r.Want = fmt.Sprintf("at most %d events in every bucket of %v", m-1, roundDuration(float64(I)/float64(st.buckets)))
	if r.Failed {
		r.Distance = count(w.count-int64(m)+1, "event") + " over the limit"
		r.Suspects, r.why = st.loadSuspects()
	}
	return r
}

// countedEvents returns the events the load counted.
func (st *stream) countedEvents() int64 {
	var s int64
	for _, c := range st.counts {
		s += int64(c)
	}
	return s
}

// fullest returns the bucket with the most events (the first, on a tie).
func (st *stream) fullest() cell {
	best := 0
	for i, c := range st.counts {
		if c > st.counts[best] {
			best = i
		}
	}
	k, j := st.warm+int64(best)/st.buckets, int64(best)%st.buckets
	base := k * st.sched.interval
	return cell{true, k, j, int64(st.counts[best]),
		base + bucketStart(j, st.buckets, st.sched.interval), base + bucketStart(j+1, st.buckets, st.sched.interval), 0}
}

// loadSuspects says how the fullest interval's events are packed.
func (st *stream) loadSuspects() ([]Suspect, string) {
	row := st.counts[(st.worst.interval-st.warm)*st.buckets:][:st.buckets]
	first, last := -1, -1
	for j, c := range row {
		if c > 0 {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	width := float64(last-first+1) / float64(st.buckets)
	switch {
	case first == last:
		return []Suspect{SuspectLockstep}, "the loops fire together, in one bucket (a ticker without jitter, or jitter after the work)"
	case width <= 0.75:
		return []Suspect{SuspectPacked}, fmt.Sprintf("the loops fire within %.0f%% of the interval (a jitter window narrower than the interval)", 100*width)
	}
	return []Suspect{SuspectClustered}, "more loops share a bucket than independent uniform phases allow"
}

// phasesResult checks the loops' phases in the first interval after the warm-up with the
// Kolmogorov-Smirnov statistic of the fit check against Uniform[0, I).
func (st *stream) phasesResult(alpha float64) Result {
	I := time.Duration(st.sched.interval)
	var phases []time.Duration
	for i := range st.loops {
		if p := st.loops[i].phase; p >= 0 {
			phases = append(phases, time.Duration(p))
		}
	}
	r := Result{Check: CheckPhases, N: len(phases), Alpha: alpha}
	where := fmt.Sprintf("first events from %v on", time.Duration(st.warm)*I)
	if len(phases) == 0 {
		r.Skipped = skipped("no loop has an event from %v on", time.Duration(st.warm)*I)
		return r
	}
	s, err := newSample(phases, Uniform(0, I).d, config{alpha: alpha})
	if err == nil {
		r, err = s.ks(alpha)
	}
	if err != nil {
		r = Result{Check: CheckPhases, N: len(phases), Alpha: alpha, Skipped: tooFew(len(phases), "phases", alpha, err)}
		return r
	}
	r.Check, r.Statistic = CheckPhases, ""
	r.Observed = fmt.Sprintf("phases (offsets into their interval) of %d loops' %s: %s", len(phases), where, r.Observed)
	if r.Failed {
		r.Suspects, r.why = []Suspect{SuspectPacked, SuspectLockstep}, "phases not spread over the interval (no jitter, or a jitter window narrower than the interval)"
	}
	return r
}

// nameLoops adds to a failing load result the loops whose events fill the fullest bucket.
func nameLoops(r *Report, events [][]time.Duration, st *stream) {
	i := len(r.Results) - 2 // load, then phases
	if r.Results[i].Check != CheckLoad || !r.Results[i].Failed {
		return
	}
	var names []string
	n := 0
	for l, evs := range events {
		for _, at := range evs {
			if int64(at) >= st.worst.lo && int64(at) < st.worst.hi {
				if n < 5 {
					names = append(names, fmt.Sprint(l))
				}
				n++
				break
			}
		}
	}
	more := ""
	if n > len(names) {
		more = fmt.Sprintf(" and %d more", n-len(names))
	}
	r.Results[i].Observed += fmt.Sprintf(", from loops %s%s", strings.Join(names, ", "), more)
}

// loadPicture draws the load over the interval that holds the fullest bucket.
func (st *stream) loadPicture() string {
	k := st.worst.interval
	row := st.counts[(k-st.warm)*st.buckets:][:st.buckets]
	counts := make([]int64, len(row))
	for j, c := range row {
		counts[j] = int64(c)
	}
	I := time.Duration(st.sched.interval)
	line, top := barLine(counts)
	var b strings.Builder
	fmt.Fprintf(&b, "  load over interval %d, the one with the fullest bucket, in %d buckets of %v (independent uniform phases put about %.3g events in each; fullest here: %d):\n",
		k, st.buckets, roundDuration(float64(I)/float64(st.buckets)), float64(len(st.loops))/float64(st.buckets), top)
	fmt.Fprintf(&b, "    %v |%s| %v\n", time.Duration(k)*I, line, time.Duration(k+1)*I)
	return b.String()
}

// foldedPicture draws one loop's events by their place in their interval.
func (st *stream) foldedPicture() string {
	I := time.Duration(st.sched.interval)
	line, top := barLine(st.folded)
	var b strings.Builder
	fmt.Fprintf(&b, "  events by their place in their interval, %d buckets of %v (a loop spread over the interval puts about %.3g in each; fullest here: %d):\n",
		len(st.folded), roundDuration(float64(I)/float64(len(st.folded))), float64(st.events)/float64(len(st.folded)), top)
	fmt.Fprintf(&b, "    0s |%s| %v\n", line, I)
	return b.String()
}

// barLine draws counts as a line of block heights scaled to the largest, any non-empty bucket
// at least the lowest block.
func barLine(counts []int64) (string, int64) {
	var top int64
	for _, c := range counts {
		top = max(top, c)
	}
	var line strings.Builder
	for _, c := range counts {
		h := int64(0)
		if top > 0 {
			h = (c*int64(len(bars)-1) + top - 1) / top
		}
		line.WriteRune(bars[h])
	}
	return line.String(), top
}
