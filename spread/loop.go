package spread

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// A TimeCheck names one check of event times, for Result.Check. Every check of event times
// runs on every call: Only, which restricts a sample's checks, takes SampleCheck names.
type TimeCheck string

func (TimeCheck) checkName() {}

// The checks on event times. A check with several statistics names each Result
// "check/statistic", e.g. "runs/short".
const (
	CheckGaps   TimeCheck = "gaps"   // every gap within the exact range the schedule allows
	CheckPace   TimeCheck = "pace"   // each event on the schedule's grid, or its drift within a sized band
	CheckRate   TimeCheck = "rate"   // the number of events, exact or within a sized tolerance
	CheckRuns   TimeCheck = "runs"   // the longest runs of short and of long draws
	CheckLoad   TimeCheck = "load"   // a fleet's fullest time bucket
	CheckPhases TimeCheck = "phases" // a fleet's phases uniform over the interval
)

// timeConfig holds the options of the checks on event times.
type timeConfig struct {
	warmUp  int64           // intervals the fleet checks skip
	buckets int64           // time buckets per interval; 0 means defaultBuckets
	starts  []time.Duration // each loop's start; nil: all at 0
	fleet   []string        // the fleet options given, which a single loop refuses
}

// defaultBuckets is the number of time buckets per interval of the load check, as many as the
// columns of the report's picture.
const defaultBuckets = 32

// WarmUp makes the fleet checks (load and phases) skip the first n intervals, so that a fleet
// has time to spread out; the default is 0, so that a fleet started in lockstep must be spread
// from its first interval. The checks on each loop's events never skip any, and CheckLoop
// refuses it.
func WarmUp(n int) TimeOption {
	return timeOption(func(c *config) {
		c.time.fleet = append(c.time.fleet, "WarmUp")
		if n < 0 {
			c.errs = append(c.errs, fmt.Errorf("spread: WarmUp(%d): the warm-up must be 0 or more intervals", n))
			return
		}
		c.time.warmUp = int64(n)
	})
}

// Buckets sets the number of time buckets per interval that the load check counts a fleet's
// events in (default 32). More buckets see a fleet packed into a narrower window; fewer see a
// mild packing with fewer loops. CheckLoop refuses it.
func Buckets(n int) TimeOption {
	return timeOption(func(c *config) {
		c.time.fleet = append(c.time.fleet, "Buckets")
		if n < 2 {
			c.errs = append(c.errs, fmt.Errorf("spread: Buckets(%d): the load check needs at least 2 buckets", n))
			return
		}
		c.time.buckets = int64(n)
	})
}

// LoopStarts gives the start of each loop of a fleet whose loops did not all start at once (a
// staggered start), as offsets from the fleet's start: each loop's events are checked against
// its schedule from its own start, and the load and phases from the fleet's. Without it every
// loop starts at the fleet's start, in lockstep. CheckLoop refuses it.
func LoopStarts(starts []time.Duration) TimeOption {
	return timeOption(func(c *config) {
		c.time.starts = slices.Clone(starts)
		if c.time.starts == nil {
			c.time.starts = []time.Duration{}
		}
	})
}

// CheckLoop checks one loop's event times against its declared schedule and fails t with one
// report that explains every failing check: what was expected, what was seen, at which event,
// how the limit was sized, and a picture of where in their intervals the events fall.
//
// events are the times of the loop's events as offsets from the loop's start, in order, all of
// them in [0, span]: span is how long the loop ran, and an event at its end counts (as with
// fakeclock's Advance and Fleet). See AnalyzeLoop for the checks.
func CheckLoop(t testing.TB, events []time.Duration, s Schedule, span time.Duration, opts ...TimeOption) {
	needTest(t, "CheckLoop(nil, ...)")
	t.Helper()
	r, err := AnalyzeLoop(events, s, span, opts...)
	fail(t, r, err)
}

// fail records the call's false-failure rate with t.Attr and fails t with the report, or with
// the error, and the replay command.
func fail(t testing.TB, r Report, err error) {
	t.Helper()
	if err == nil && r.FalseFailureRate > 0 {
		t.Attr("spreadcheck.alpha", fmt.Sprintf("%g", r.FalseFailureRate))
	}
	switch {
	case err != nil:
		t.Errorf("%v%s", err, replayText(t))
	case r.Failed():
		t.Errorf("%s%s", r, replayText(t))
	}
}

// AnalyzeLoop checks one loop's event times against its declared schedule and returns the
// report:
//
//   - gaps: each gap within the exact range the schedule allows (a plain ticker's gaps are one
//     interval; a jitter + ticker's lie between 0 and 2 intervals), and no event missing at
//     the end; exact, a correct loop never fails it;
//   - pace: on a ticker-anchored schedule, event k inside its window on the ticker's grid
//     ([kI, kI + window) for JitterTicker), exact; on a sleep-anchored one, the time of each
//     batch's start within a band around its mean that grows like the square root of the
//     draws, sized by the tolerance of a sum of uniform draws;
//   - rate: the number of events, exact on a ticker-anchored schedule (ReoffsetTicker makes
//     exactly batch events per batch+1 intervals), within a sized tolerance on a
//     sleep-anchored one;
//   - runs/short and runs/long: the longest runs of short and of long draws (a random sleep's
//     hot and cold runs) within the exact interval of the longest run.
//
// The false-failure rate (default 1e-9) is shared by Bonferroni between the statistics that
// can fail by chance. AnalyzeLoop returns an error, and no verdict, for input it cannot judge:
// no events, events out of order, negative or after span, a span that is not positive, an
// invalid schedule or option.
func AnalyzeLoop(events []time.Duration, s Schedule, span time.Duration, opts ...TimeOption) (Report, error) {
	st, err := newStream(1, s, span, false, opts)
	if err != nil {
		return Report{Dist: s.String(), N: len(events)}, err
	}
	for _, at := range events {
		if err := st.add(0, at); err != nil {
			return Report{Dist: st.describe(), N: len(events), FalseFailureRate: st.alpha}, err
		}
	}
	return st.report()
}

// chanceStats returns how many statistics of the loop can fail by chance and be sized at
// alpha: pace and rate once a draw completed, each run check once the draws are enough.
func (l *tracker) chanceStats(s *Schedule, alpha float64) int {
	k := 0
	if !s.anchored && s.random() && l.drift.set {
		k += 2
	}
	for _, short := range []bool{true, false} {
		if _, _, _, err := s.runsInterval(l, short, alpha); err == nil {
			k++
		}
	}
	return k
}

// runsInterval sizes the run check of the short or long draws of l at alpha.
func (s *Schedule) runsInterval(l *tracker, short bool, alpha float64) (lo, hi int, method string, err error) {
	if s.window < 2 {
		return 0, 0, "", errors.New("the schedule draws nothing")
	}
	p := float64((s.window+1)/2) / float64(s.window)
	if !short {
		p = 1 - p
	}
	return sizing.LongestRunInterval(int(l.runs.draws), p, alpha)
}

// chanceStats returns how many statistics of one loop can fail by chance on the schedule.
func (s *Schedule) chanceStats() int {
	switch {
	case !s.random():
		return 0
	case s.anchored:
		return 2 // runs/short, runs/long
	}
	return 4 // pace, rate, runs/short, runs/long
}

// loopResults returns the results of loop i, each statistic that can fail by chance sized at
// alpha.
func (st *stream) loopResults(i int, alpha float64) []Result {
	return st.appendLoopResults(nil, i, alpha)
}

// appendLoopResults appends the results of loop i to out.
func (st *stream) appendLoopResults(out []Result, i int, alpha float64) []Result {
	l := &st.loops[i]
	return append(out, st.gapsResult(l), st.paceResult(l, alpha), st.rateResult(l, alpha),
		st.runResult(l, true, alpha), st.runResult(l, false, alpha))
}

func (st *stream) gapsResult(l *tracker) Result {
	s := &st.sched
	g := l.gap
	latest, end := l.latestNext(s), st.span-l.start
	missing := latest <= end      // the next event was due before the end, and events at the end count
	if missing && g.margin >= 0 { // no gap fails but the last: it is the worst
		g = nearest{true, l.n, end, end - l.last + 1, math.MinInt64, latest - l.last, latest - end - 1, 0}
	}
	r := Result{Check: CheckGaps, N: int(l.n), Value: float64(g.value), Margin: float64(g.margin), Failed: g.outside > 0 || missing}
	r.Limit = float64(g.lo)
	if g.hi-g.value < g.value-g.lo || g.lo == math.MinInt64 {
		r.Limit = float64(g.hi)
	}
	if st.quiet {
		return r
	}
	r.Method, r.Observed, r.Want = Method{Formula: s.gapRule(), Exact: true}, s.extremesText(l), "gaps "+s.gapText()
	if !r.Failed {
		return r
	}
	switch {
	case g.k == l.n:
		r.Observed = fmt.Sprintf("no event from the last one (event %d at %v) to the end at %v; %s", l.n-1, time.Duration(l.last), time.Duration(end), r.Observed)
		r.Want = fmt.Sprintf("event %d by %v", l.n, time.Duration(latest))
		r.Distance = fmt.Sprintf("an event is missing: it was due %v before the end", time.Duration(end-latest))
		r.Suspects, r.why = []Suspect{SuspectOffSchedule}, "a loop that stopped, or that waits longer than the schedule allows"
		return r
	case g.k == 0:
		r.Observed = fmt.Sprintf("first event at %v; %s", time.Duration(g.value), r.Observed)
		r.Want = "the first event " + rangeText(g.lo, g.hi)
	default:
		r.Observed = fmt.Sprintf("gap of %v before event %d (at %v); %s", time.Duration(g.value), g.k, time.Duration(g.at), r.Observed)
		r.Want = fmt.Sprintf("the gap before event %d %s", g.k, rangeText(g.lo, g.hi))
	}
	r.Observed += fmt.Sprintf("; %d of %d gaps outside", g.outside, l.gaps(s))
	if missing {
		r.Observed += fmt.Sprintf("; and no event after %v, where event %d was due by %v", time.Duration(l.last), l.n, time.Duration(latest))
	}
	r.Distance = outsideText2(g)
	r.Suspects, r.why = []Suspect{SuspectOffSchedule}, "gaps the schedule does not have (a sleep after the work adds the work to every gap)"
	return r
}

// gaps returns the number of gaps the loop's events were checked on: one before each event
// but the first, and on a sleep-anchored schedule the first event's time from the start too.
func (l *tracker) gaps(s *Schedule) int64 {
	if s.anchored {
		return l.n - 1
	}
	return l.n
}

// extremesText describes the smallest and largest gaps.
func (s *Schedule) extremesText(l *tracker) string {
	if !l.min.set {
		return fmt.Sprintf("one event, at %v", time.Duration(l.last))
	}
	return fmt.Sprintf("smallest gap %v (before event %d), largest %v (before event %d)",
		time.Duration(l.min.v), l.min.k, time.Duration(l.max.v), l.max.k)
}

// rangeText describes [lo, hi] in Durations: "at 1s" for a single value.
func rangeText(lo, hi int64) string {
	if lo == hi {
		return "exactly " + time.Duration(lo).String()
	}
	return fmt.Sprintf("in [%v, %v]", time.Duration(lo), time.Duration(hi))
}

// outsideText2 says how far outside its range a value lies.
func outsideText2(g nearest) string {
	if g.value < g.lo {
		return fmt.Sprintf("%v too early", time.Duration(g.lo-g.value))
	}
	return fmt.Sprintf("%v too late", time.Duration(g.value-g.hi))
}

func (st *stream) paceResult(l *tracker, alpha float64) Result {
	s := &st.sched
	if !s.anchored {
		return st.driftResult(l, alpha)
	}
	p := l.pace
	r := Result{Check: CheckPace, N: int(l.n), Value: float64(p.value), Margin: float64(p.margin), Failed: p.outside > 0}
	r.Limit = float64(p.lo)
	if p.hi-p.value < p.value-p.lo {
		r.Limit = float64(p.hi)
	}
	if st.quiet {
		return r
	}
	r.Method = Method{Formula: s.paceRule(), Exact: true}
	r.Observed = fmt.Sprintf("event %d at %v", p.k, time.Duration(p.value))
	r.Want = fmt.Sprintf("event %d %s", p.k, rangeText(p.lo, p.hi))
	if r.Failed {
		r.Observed += fmt.Sprintf("; %d of %d events off their windows", p.outside, l.n)
		r.Distance = outsideText2(p)
		r.Suspects, r.why = []Suspect{SuspectOffSchedule}, "events off the ticker's grid (a sleep in place of the ticker, or work that outlasts the interval)"
	}
	return r
}

// driftResult checks the drift of a sleep-anchored loop: at each batch start after K draws,
// |D| <= UniformSumTol(window, K, alpha/total draws), Bonferroni over the batch starts.
func (st *stream) driftResult(l *tracker, alpha float64) Result {
	s := &st.sched
	r := Result{Check: CheckPace, N: int(l.n), Alpha: alpha}
	d := l.drift
	if !d.set {
		r.Skipped = skipped("no draw completed: the pace needs a second batch")
		return r
	}
	tol, err := sizing.UniformSumTol(uint64(s.window), int(d.draws), alpha/float64(d.last.draws))
	if err != nil {
		r.Skipped = &skip{reason: err.Error(), err: err}
		return r
	}
	sd := math.Sqrt((float64(s.window)*float64(s.window) - 1) / 12)
	r.Value, r.Limit, r.Margin = math.Abs(d.dev), tol, tol-math.Abs(d.dev)
	r.Failed = math.Abs(d.dev) >= tol
	if st.quiet {
		return r
	}
	r.Method = Method{Formula: fmt.Sprintf("sub-Gaussian (Chernoff) bound on the sum of K uniform %ss: |drift| < sd sqrt(2 K ln(2 N/alpha)), Bonferroni over the N batch starts", s.drawNoun()),
		Inputs: fmt.Sprintf("sd %v each, N = %d", roundDuration(sd), d.last.draws)}
	r.Observed = fmt.Sprintf("event %d at %v, %v %s its mean pace after %d %ss",
		d.k, time.Duration(d.at), roundDuration(math.Abs(d.dev)), aheadBehind(d.dev), d.draws, s.drawNoun())
	if sd > 0 { // a window of one value draws a constant
		r.Observed += fmt.Sprintf(" (%.3g sd)", math.Abs(d.dev)/(sd*math.Sqrt(float64(d.draws))))
	}
	r.Want = fmt.Sprintf("within %v of it after %d %ss (the band grows like sqrt(K))", roundDuration(tol), d.draws, s.drawNoun())
	if r.Failed {
		r.Distance = fmt.Sprintf("%v past the band", roundDuration(math.Abs(d.dev)-tol))
		r.Suspects, r.why = []Suspect{SuspectCollapsedRange, SuspectOvershoot}, fmt.Sprintf("%ss that do not average the middle of their window", s.drawNoun())
	}
	return r
}

func aheadBehind(dev float64) string {
	if dev > 0 {
		return "behind"
	}
	return "ahead of"
}

func (st *stream) rateResult(l *tracker, alpha float64) Result {
	s := &st.sched
	if s.anchored {
		return st.countResult(l)
	}
	r := Result{Check: CheckRate, N: int(l.n), Alpha: alpha}
	k, dev := l.drift.last.draws, l.drift.last.dev
	if k == 0 {
		r.Skipped = skipped("no draw completed")
		return r
	}
	tol, err := sizing.UniformSumTol(uint64(s.window), int(k), alpha)
	if err != nil {
		r.Skipped = &skip{reason: err.Error(), err: err}
		return r
	}
	mean := s.mean() + dev/float64(k)
	r.Value, r.Limit = math.Abs(dev)/float64(k), tol/float64(k)
	r.Margin, r.Failed = r.Limit-r.Value, r.Value >= r.Limit
	if st.quiet {
		return r
	}
	r.Method = Method{Formula: fmt.Sprintf("sub-Gaussian (Chernoff) bound on the mean of K uniform %ss", s.drawNoun()), Inputs: fmt.Sprintf("K = %d", k)}
	r.Observed = fmt.Sprintf("%.4g events per interval: mean %s %v over %d", s.rateOf(mean), s.drawNoun(), roundDuration(mean), k)
	r.Want = fmt.Sprintf("mean %s %v +- %v (%.4g to %.4g events per interval)", s.drawNoun(), roundDuration(s.mean()),
		roundDuration(r.Limit), s.rateOf(s.mean()+r.Limit), s.rateOf(s.mean()-r.Limit))
	if r.Failed {
		r.Distance = fmt.Sprintf("the mean %s is %v past the tolerance", s.drawNoun(), roundDuration(r.Value-r.Limit))
		r.Suspects, r.why = []Suspect{SuspectCollapsedRange, SuspectOvershoot}, fmt.Sprintf("%ss that do not average the middle of their window (rand.N over the wrong range, or time the schedule does not have)", s.drawNoun())
	}
	return r
}

// rateOf returns the events per interval of a sleep-anchored schedule whose draws average mean.
func (s *Schedule) rateOf(mean float64) float64 {
	return float64(s.batch) * float64(s.interval) / (float64(s.period) + mean)
}

// countResult checks the number of events on a ticker-anchored schedule, exactly: between the
// number of windows that end before the span and the number that start before it.
func (st *stream) countResult(l *tracker) Result {
	s := &st.sched
	end := st.span - l.start
	lo := s.windowsBefore(end, true)
	hi := s.windowsBefore(end, false)
	r := Result{Check: CheckRate, N: int(l.n), Value: float64(l.n), Failed: l.n < lo || l.n > hi}
	r.Limit, r.Margin = float64(lo), float64(l.n-lo)
	if hi-l.n < l.n-lo {
		r.Limit, r.Margin = float64(hi), float64(hi-l.n)
	}
	if st.quiet {
		return r
	}
	r.Method = Method{Formula: s.paceRule() + ", so the windows that end by the end of the span count its events", Exact: true}
	r.Observed = fmt.Sprintf("%d events in [0s, %v]", l.n, time.Duration(end))
	r.Want = fmt.Sprintf("%s events: %s", countRange(lo, hi), s.nominalRate())
	if r.Failed {
		r.Distance = fmt.Sprintf("%s too %s", count(max(lo-l.n, l.n-hi), "event"), map[bool]string{true: "few", false: "many"}[l.n < lo])
	}
	return r
}

func countRange(lo, hi int64) string {
	if lo == hi {
		return fmt.Sprintf("exactly %d", lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// count returns "1 event", "2 events".
func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// nominalRate describes the events per interval of a ticker-anchored schedule.
func (s *Schedule) nominalRate() string {
	if s.batch == 1 {
		return "1 per interval"
	}
	return fmt.Sprintf("%d per %d intervals", s.batch, s.period/s.interval)
}

// windowsBefore counts the events k of a ticker-anchored schedule whose window starts (or,
// with end, ends) at or before x.
func (s *Schedule) windowsBefore(x int64, end bool) int64 {
	if x == math.MaxInt64 {
		x-- // no window of a valid schedule reaches it
	}
	if end {
		x -= max(s.window-1, 0)
	}
	if x < 0 {
		return 0
	}
	m := x / s.period
	return m*s.batch + min(s.batch, (x-m*s.period)/s.interval+1)
}

// runResult checks the longest run of short (or long) draws, if it could be sized at the share
// that counts every statistic, which is how split counted it.
func (st *stream) runResult(l *tracker, short bool, alpha float64) Result {
	s := &st.sched
	kind, word := "long", "cold"
	if short {
		kind, word = "short", "hot"
	}
	r := Result{Check: CheckRuns, Statistic: Statistic(kind), N: int(l.runs.draws), Alpha: alpha}
	if _, _, _, err := s.runsInterval(l, short, st.full); err != nil {
		r.Alpha = 0
		if !st.quiet {
			r.Skipped = tooFew(int(l.runs.draws), s.drawNoun()+"s", st.full, err)
		} else {
			r.Skipped = &skip{reason: "too few", err: err}
		}
		return r
	}
	lo, hi, method, _ := s.runsInterval(l, short, alpha)
	best := l.runs.best[kindIndex(short)]
	r.Value = float64(best.length)
	r.Limit, r.Margin = float64(lo), float64(best.length-int64(lo))
	if int64(hi)-best.length < best.length-int64(lo) {
		r.Limit, r.Margin = float64(hi), float64(int64(hi)-best.length)
	}
	r.Failed = best.length < int64(lo) || best.length > int64(hi)
	if st.quiet {
		return r
	}
	r.Method = sized(method, "two-sided")
	split := roundDuration(float64(s.window) / 2)
	r.Observed = fmt.Sprintf("longest run of %s %ss (%s %v): %d in a row", kind, s.drawNoun(), map[bool]string{true: "<", false: ">="}[short], split, best.length)
	if best.length > 0 {
		r.Observed += fmt.Sprintf(", events %d to %d", best.first, best.last)
	}
	if !s.anchored {
		r.Observed += fmt.Sprintf(" (a %s run)", word)
	}
	r.Want = fmt.Sprintf("%d to %d in a row among %d %ss", lo, hi, l.runs.draws, s.drawNoun())
	if r.Failed {
		if best.length > int64(hi) {
			r.Distance = fmt.Sprintf("%d longer than the limit", best.length-int64(hi))
			r.Suspects = []Suspect{SuspectConstant, SuspectCollapsedRange, SuspectClockDerived}
			r.why = fmt.Sprintf("%ss that stick %s the middle of their window: one value, half the window, or a slow clock", s.drawNoun(), map[bool]string{true: "below", false: "above"}[short])
		} else {
			r.Distance = fmt.Sprintf("%d shorter than the limit", int64(lo)-best.length)
			r.Suspects = []Suspect{SuspectClockDerived, SuspectConstant}
			r.why = fmt.Sprintf("%ss that alternate, as a clock stepping round the window does, or that never fall %s the middle", s.drawNoun(), map[bool]string{true: "below", false: "above"}[short])
		}
	}
	return r
}

// tooFew explains a skip for too small a sample, naming the size it needs.
func tooFew(n int, what string, alpha float64, err error) error {
	var small *sizing.TooSmallError
	if errors.As(err, &small) {
		return &skip{reason: fmt.Sprintf("%d %s are too few to size at alpha %s: it needs %d", n, what, trimFloat(alpha), small.Need), err: err}
	}
	return &skip{reason: err.Error(), err: err}
}

// drawNoun names a draw of the schedule: "sleep", "jitter" or "offset".
func (s *Schedule) drawNoun() string {
	switch {
	case s.batch > 1:
		return "offset"
	case s.anchored:
		return "jitter"
	}
	return "sleep"
}

// gapRule says what gaps the schedule allows, for a report's method.
func (s *Schedule) gapRule() string {
	return fmt.Sprintf("a %s's gaps are %s", s.name, s.gapText())
}

// gapText describes the allowed gaps.
func (s *Schedule) gapText() string {
	glo, ghi := s.gapRange(0)
	between := rangeText(glo, ghi)
	if s.batch == 1 {
		return between
	}
	return fmt.Sprintf("exactly %v within a batch, %s between batches", time.Duration(s.interval), between)
}

// paceRule says where a ticker-anchored schedule's events lie.
func (s *Schedule) paceRule() string {
	w := "at"
	if s.random() {
		w = fmt.Sprintf("in a window of %v from", time.Duration(s.window))
	}
	if s.batch == 1 {
		return fmt.Sprintf("a %s's event k lies %s k*%v", s.name, w, time.Duration(s.interval))
	}
	return fmt.Sprintf("a %s's event j of batch m lies %s m*%v + j*%v", s.name, w, time.Duration(s.period), time.Duration(s.interval))
}
