package loops

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/spread"
)

// Each claim of the loops article, as a test written with spread's checks on event times, and
// beside it the loop written the wrong way (wrongway_test.go), which the same check rejects.
// One loop runs as its code on a fakeclock Fleet of one copy; a fleet runs as the loop's
// schedule, each schedule shown equal to its code (TestSchedulesMatchLoops), streamed into a
// spread.FleetStream, on the smallest fleet at which the wrong way still fails with probability
// at least 1 - 1e-12 (computed, not guessed: TestFleetSizesAreTheSmallest). Every run is seeded
// from spread.Rand, so that a failure prints the command that replays it.

const (
	loopIntervals  = 1000 // one loop's run
	fleetIntervals = 3    // a fleet's run
)

// The fleets of the claims, each the smallest at which its wrong ways fail their checks with
// probability at least 1 - 1e-12 (fleetsize_test.go computes them; a correct loop passes at any
// size with probability 1 - 1e-9, as every check is sized).
var (
	// Plain tickers started together, or jitter after the work: every copy in one bucket, a
	// certain failure once the load check can be sized.
	lockstepFleet = fleet{loops: 8}
	// A jitter over half the interval, or over 100 ms: the load and phases fail and the diagnosis
	// says how packed. Half the interval needs the most: twice the even load per bucket.
	packedFleet = fleet{loops: 1745}
	// A re-offset loop that runs its first batch before its first offset: a certain failure.
	reoffsetFleet = fleet{loops: 9}
	// Tickers started at random within 100 ms (as after a network blip): the load and phases fail.
	blipFleet = fleet{loops: 141, stagger: 100 * time.Millisecond}
)

// A fleet is how the claims run a loop's copies: loops of them for fleetIntervals, started in
// lockstep, or each at a random offset in [0, stagger).
type fleet struct {
	loops   int
	stagger time.Duration
}

// staggered returns the fleet with its copies started at random over [0, d).
func (f fleet) staggered(d time.Duration) fleet {
	f.stagger = d
	return f
}

// runLoop runs one copy of loop's code for n intervals and returns its events and the span.
func runLoop(t *testing.T, n int, loop fakeclock.Loop) ([]time.Duration, time.Duration) {
	t.Helper()
	fl := fakeclock.Fleet{Loops: 1, Seed: spread.Rand(t).Uint64(), For: time.Duration(n) * interval}
	events, err := fl.Run(t, loop)
	if err != nil {
		t.Fatal(err)
	}
	return events[0], fl.For
}

// analyzeLoop runs loop's code for n intervals and returns spread's report against want.
func analyzeLoop(t *testing.T, n int, loop fakeclock.Loop, want spread.Schedule) spread.Report {
	t.Helper()
	events, span := runLoop(t, n, loop)
	return mustAnalyze(t, events, want, span)
}

// fleetReport runs the fleet of a loop, given as its schedule, on a seed from spread.Rand, and
// returns spread's fleet report against want, each copy judged from its own start.
func fleetReport(t *testing.T, f fleet, s func(*rand.Rand) func(time.Duration) time.Duration, want spread.Schedule) spread.Report {
	t.Helper()
	return f.report(t, spread.Rand(t).Uint64(), s, want, true)
}

// report runs the fleet of s with seed and returns spread's report against want, streamed (no
// event is kept); ownStarts says whether each copy is judged from its own start
// (spread.LoopStarts with the fleet's Starts) or, wrongly for a staggered fleet, from the
// fleet's.
func (f fleet) report(t *testing.T, seed uint64, s func(*rand.Rand) func(time.Duration) time.Duration, want spread.Schedule, ownStarts bool) spread.Report {
	t.Helper()
	fl := fakeclock.Fleet{Loops: f.loops, Seed: seed, For: fleetIntervals * interval, Stagger: f.stagger}
	var opts []spread.TimeOption
	if ownStarts {
		starts, err := fl.Starts()
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, spread.LoopStarts(starts))
	}
	stream, err := spread.NewFleetStream(fl.Loops, want, fl.For, opts...)
	if err != nil {
		t.Fatal(err)
	}
	fl.Sink = func(i int, at time.Duration) { stream.Add(i, at) } // Report returns Add's first error
	if _, err := fl.RunSchedule(s); err != nil {
		t.Fatal(err)
	}
	r, err := stream.Report()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// passes fails t with the report unless it passes.
func passes(t *testing.T, r spread.Report) {
	t.Helper()
	if r.Failed() {
		t.Errorf("%s", r)
	}
}

// rejects fails t unless the report fails every one of the checks named.
func rejects(t *testing.T, r spread.Report, checks ...spread.TimeCheck) {
	t.Helper()
	failed := failedChecks(r)
	for _, c := range checks {
		if !slices.Contains(failed, c) {
			t.Errorf("the checks let it through: want %s to fail, failed %v\n%s", c, failed, r)
			return
		}
	}
}

// result returns the report's result of the named statistic.
func result(t *testing.T, r spread.Report, name string) spread.Result {
	t.Helper()
	for _, res := range r.Results {
		if res.Name() == name {
			return res
		}
	}
	t.Fatalf("no %s in the report\n%s", name, r)
	return spread.Result{}
}

// Sleep after work: the work's duration adds to every period, so the loop slips off the
// interval's pace by the work at every event (fewer than one event per interval).
func TestClaimSleepAfterWorkSlips(t *testing.T) {
	const work = 100 * time.Millisecond
	r := analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, do func()) {
		SleepAfterWork(ctx, c, interval, withWork(c, work, do))
	}, spread.Ticker(interval))
	rejects(t, r, spread.CheckGaps, spread.CheckPace, spread.CheckRate)
	if gaps := result(t, r, "gaps"); time.Duration(gaps.Value) != interval+work {
		t.Errorf("gap %v, want the interval plus the work, %v", time.Duration(gaps.Value), interval+work)
	}
	// The other way, a ticker, keeps its pace with the same work.
	passes(t, analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, do func()) {
		Ticker(ctx, c, interval, withWork(c, work, do))
	}, spread.Ticker(interval)))
}

// Ticker: on pace whatever the work's duration, below one interval; past one interval it
// drops ticks and slips, as a sleep after the work does.
func TestClaimTickerKeepsPace(t *testing.T) {
	for _, work := range []time.Duration{0, interval / 2, interval - time.Millisecond} {
		passes(t, analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, do func()) {
			Ticker(ctx, c, interval, withWork(c, work, do))
		}, spread.Ticker(interval)))
	}
	rejects(t, analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, do func()) {
		Ticker(ctx, c, interval, withWork(c, 3*interval/2, do))
	}, spread.Ticker(interval)), spread.CheckPace)
}

// Ticker: a fleet started in lockstep stays in lockstep: the load check fails it.
func TestClaimTickerFleetStaysInLockstep(t *testing.T) {
	r := fleetReport(t, lockstepFleet, spread.Ticker(interval).Next, spread.Ticker(interval))
	rejects(t, r, spread.CheckLoad, spread.CheckPhases)
	if d := r.Diagnosis(); len(d) == 0 || d[0] != spread.SuspectLockstep {
		t.Errorf("diagnosis %q, want lockstep\n%s", d, r)
	}
}

// Random sleep of rand.N(2I): the mean pace is right; sleeps drawn from rand.N(I) run twice as
// often, and the rate check says so.
func TestClaimRandomSleepMeanPace(t *testing.T) {
	r := analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		RandomSleep(ctx, c, interval, rr, do)
	}, spread.RandomSleep(interval))
	passes(t, r)
	rejects(t, analyzeLoop(t, loopIntervals, randomSleepOver(interval, 0), spread.RandomSleep(interval)), spread.CheckRate)
}

// Random sleep: hot and cold runs are there, as long as the exact distribution of the longest
// run says: at least its lower limit of short sleeps in a row, and of long ones. A sleep that
// alternates short and long has the right mean but no runs, and fails.
func TestClaimRandomSleepHotAndColdRuns(t *testing.T) {
	r := analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		RandomSleep(ctx, c, interval, rr, do)
	}, spread.RandomSleep(interval))
	passes(t, r)
	for _, name := range []string{"runs/short", "runs/long"} {
		if res := result(t, r, name); res.Skipped != nil || res.Value < 4 {
			t.Errorf("%s: %s; want a run of at least 4 (its lower limit among 1,000 sleeps is at least 4)", name, res)
		}
	}
	alt := analyzeLoop(t, loopIntervals, alternatingSleep, spread.RandomSleep(interval))
	for _, name := range []string{"runs/short", "runs/long"} {
		if res := result(t, alt, name); !res.Failed {
			t.Errorf("the alternating sleep passes %s: %s", name, res)
		}
	}
	if slices.Contains(failedChecks(alt), spread.CheckRate) {
		t.Errorf("the alternating sleep's mean is right, yet rate fails\n%s", alt)
	}
}

// Random sleep: the drift grows like sqrt(k): it stays inside the band sized for sqrt(k) (the
// pace check passes), and it leaves the ticker's grid, which the same loop declared a jitter +
// ticker fails. A sleep with a bias drifts like k and leaves the sqrt(k) band.
func TestClaimRandomSleepDrift(t *testing.T) {
	loop := func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		RandomSleep(ctx, c, interval, rr, do)
	}
	events, span := runLoop(t, loopIntervals, loop)
	passes(t, mustAnalyze(t, events, spread.RandomSleep(interval), span))
	// 1,000 sleeps drift sd*sqrt(1000) = 18 intervals: off the grid by more than one interval
	// with probability 1 - 0.044; ten loops all within one interval: 3e-14.
	off := 0
	for range 10 {
		events, span := runLoop(t, loopIntervals, loop)
		if slices.Contains(failedChecks(mustAnalyze(t, events, spread.JitterTicker(interval, interval), span)), spread.CheckPace) {
			off++
		}
	}
	if off == 0 {
		t.Error("ten random-sleep loops kept to the ticker's grid for 1,000 intervals")
	}
	// Half an interval more per sleep: about 667 sleeps in 1,000 intervals, 333 intervals late
	// (sd 15) against a band of 114: inside it with probability 1e-48.
	rejects(t, analyzeLoop(t, loopIntervals, randomSleepOver(2*interval, interval/2), spread.RandomSleep(interval)), spread.CheckPace)
}

// Jitter + ticker: the k-th event lies in [kI, (k+1)I) and gaps in (0, 2I), exactly; a jitter
// followed by a sleep in place of the ticker drifts off both.
func TestClaimJitterTickerOnGrid(t *testing.T) {
	r := analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		JitterTicker(ctx, c, interval, rr, do)
	}, spread.JitterTicker(interval, interval))
	passes(t, r)
	for _, name := range []string{"gaps", "pace"} {
		if res := result(t, r, name); res.Alpha != 0 {
			t.Errorf("%s is sized with alpha %g; want an exact check", name, res.Alpha)
		}
	}
	rejects(t, analyzeLoop(t, loopIntervals, jitterThenSleep, spread.JitterTicker(interval, interval)), spread.CheckGaps, spread.CheckPace)
}

// Jitter + ticker: a fleet started in lockstep spreads over the whole interval within its first
// interval (no warm-up); jittering after the work instead keeps it in lockstep.
func TestClaimJitterTickerFleetSpreads(t *testing.T) {
	passes(t, fleetReport(t, lockstepFleet, spread.JitterTicker(interval, interval).Next, spread.JitterTicker(interval, interval)))
	rejects(t, fleetReport(t, lockstepFleet, spread.Ticker(interval).Next, spread.JitterTicker(interval, interval)), spread.CheckLoad, spread.CheckPhases)
}

// Jitter over half the interval, or over a fixed 100 ms window: each loop keeps its pace, but a
// fleet started in lockstep stays packed into that part of every interval.
func TestClaimJitterWindowFleetStaysPacked(t *testing.T) {
	for _, c := range []struct {
		window time.Duration
		packed string
	}{{interval / 2, "50%"}, {100 * time.Millisecond, "12%"}} {
		passes(t, analyzeLoop(t, loopIntervals, func(ctx context.Context, cl fakeclock.Clock, rr *rand.Rand, do func()) {
			JitterWindow(ctx, cl, interval, c.window, rr, do)
		}, spread.JitterTicker(interval, c.window)))
		r := fleetReport(t, packedFleet, spread.JitterTicker(interval, c.window).Next, spread.JitterTicker(interval, interval))
		rejects(t, r, spread.CheckLoad, spread.CheckPhases)
		if d := r.Diagnosis(); len(d) == 0 || d[0] != spread.SuspectPacked || !strings.Contains(r.String(), "fire within "+c.packed) {
			t.Errorf("window %v: diagnosis %v, want packed within %s\n%s", c.window, d, c.packed, r)
		}
	}
}

// Re-offset every 32 ticks: near-regular gaps (exactly one interval within a batch) and 32
// events per 32.5 intervals on average; re-offsetting by rand.N(2I) makes 32 per 33, and the
// rate check sees it over 10,000 intervals.
func TestClaimReoffsetNearRegular(t *testing.T) {
	r := analyzeLoop(t, 10*loopIntervals, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		Reoffset(ctx, c, interval, rr, do)
	}, spread.Reoffset(interval, Batch))
	passes(t, r)
	if rate := result(t, r, "rate"); !strings.Contains(rate.Want, "0.98") {
		t.Errorf("rate: want %q; the schedule's rate is 32/32.5 = 0.985 per interval", rate.Want)
	}
	rejects(t, analyzeLoop(t, 10*loopIntervals, reoffsetOverTwo, spread.Reoffset(interval, Batch)), spread.CheckRate)
	rejects(t, analyzeLoop(t, loopIntervals, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		RandomSleep(ctx, c, interval, rr, do)
	}, spread.Reoffset(interval, Batch)), spread.CheckGaps)
}

// Inside an outer ticker: exactly 32 events per 33 intervals, each on its grid; the re-offset
// loop without the outer ticker drifts off it.
func TestClaimReoffsetTickerExact(t *testing.T) {
	r := analyzeLoop(t, 33*30, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		ReoffsetTicker(ctx, c, interval, rr, do)
	}, spread.ReoffsetTicker(interval, Batch))
	passes(t, r)
	rate := result(t, r, "rate")
	if rate.Alpha != 0 || (rate.Value != 960 && rate.Value != 961) || !strings.Contains(rate.Want, "32 per 33 intervals") {
		t.Errorf("rate %s; want exactly 960 events (961 if the 31st batch starts at the end), 32 per 33 intervals", rate)
	}
	rejects(t, analyzeLoop(t, 33*30, func(ctx context.Context, c fakeclock.Clock, rr *rand.Rand, do func()) {
		Reoffset(ctx, c, interval, rr, do)
	}, spread.ReoffsetTicker(interval, Batch)), spread.CheckPace)
}

// Re-offset, with or without the outer ticker: a fleet started in lockstep spreads out in its
// first interval, since each batch starts with its offset; a loop that re-offsets after its
// first batch makes that batch in lockstep.
func TestClaimReoffsetFleetSpreads(t *testing.T) {
	passes(t, fleetReport(t, reoffsetFleet, spread.ReoffsetTicker(interval, Batch).Next, spread.ReoffsetTicker(interval, Batch)))
	passes(t, fleetReport(t, reoffsetFleet, spread.Reoffset(interval, Batch).Next, spread.Reoffset(interval, Batch)))
	rejects(t, fleetReport(t, reoffsetFleet, reoffsetAfterBatchSchedule, spread.Reoffset(interval, Batch)), spread.CheckLoad, spread.CheckPhases)
}

// Not all copies start at once: plain tickers started at random over a whole interval spread the
// load, each on its own grid, judged from its own start (spread.LoopStarts with the fleet's
// Starts; judged from the fleet's start, their pace fails). Started within 100 ms of each other,
// as after a network blip, they stay packed. And staggering does not hide a slipping loop: a sleep
// after 100 ms of work, staggered over the interval, still fails its gaps.
func TestClaimStaggeredTickersSpread(t *testing.T) {
	spreadOut := blipFleet.staggered(interval)
	seed := spread.Rand(t).Uint64()
	passes(t, spreadOut.report(t, seed, spread.Ticker(interval).Next, spread.Ticker(interval), true))
	rejects(t, spreadOut.report(t, seed, spread.Ticker(interval).Next, spread.Ticker(interval), false), spread.CheckPace)
	rejects(t, fleetReport(t, blipFleet, spread.Ticker(interval).Next, spread.Ticker(interval)), spread.CheckLoad, spread.CheckPhases)
	r := fleetReport(t, spreadOut, SleepAfterWorkSchedule(interval+100*time.Millisecond), spread.Ticker(interval))
	rejects(t, r, spread.CheckGaps)
	if slices.Contains(failedChecks(r), spread.CheckLoad) {
		t.Errorf("a staggered fleet of slipping loops fails load: staggering should spread it\n%s", r)
	}
}

// failedChecks returns the checks of the failing statistics.
func failedChecks(r spread.Report) []spread.TimeCheck {
	var out []spread.TimeCheck
	for _, f := range r.Failures() {
		if c, ok := f.Check.(spread.TimeCheck); ok {
			out = append(out, c)
		}
	}
	return out
}

func mustAnalyze(t *testing.T, events []time.Duration, want spread.Schedule, span time.Duration) spread.Report {
	t.Helper()
	r, err := spread.AnalyzeLoop(events, want, span)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
