package fakeclock

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// A Fleet runs many copies of one loop in one virtual timeline: the way to
// see what a hundred thousand pollers started by the same power cut do to
// a server. Each copy draws from its own *rand.Rand, derived from the
// fleet's seed, so that a fleet is a function of its seed: the same event
// times on every run, with and without -race.
//
// Give the loop as the code itself (Run: goroutines, tickers, timers and
// selects against a Clock, in synctest bubbles) or as its schedule
// (RunSchedule: the next event from the last, no goroutine per loop, over
// all cores) for fleets too large for a goroutine each. A test that runs
// both on the same seed and compares them keeps the schedule true to the
// code.
type Fleet struct {
	// Loops is the number of copies, from 1 to 1<<20 (1,048,576): a
	// fleet holds a generator and a slice of events per copy, so a
	// larger one would run out of memory before it ran, and is an error.
	Loops int
	// Seed derives each copy's generator: copy i draws from
	// rand.New(rand.NewPCG(Seed, i)).
	Seed uint64
	// For is the virtual time the fleet runs, > 0. Events at For count.
	For time.Duration
	// Stagger, if > 0, starts copy i at an offset drawn uniformly from
	// [0, Stagger) (from a generator of its own, not the copy's; Starts
	// returns them). At 0, every copy starts at once: the lockstep start
	// of a fleet after an outage, the worst case.
	Stagger time.Duration
	// Sink, if set, receives every event as it happens, in time order
	// (ties in the order of the copies), on one goroutine; Run and
	// RunSchedule then return no event times, and their memory does not
	// grow with the number of events.
	Sink func(loop int, at time.Duration)
}

// A Loop is the code of one copy of a fleet's loop: it runs on c, draws its
// randomness from r, calls event at each of its events, and returns once
// ctx is done (as every goroutine of a synctest bubble must).
type Loop func(ctx context.Context, c Clock, r *rand.Rand, event func())

// schedule is a loop given as its schedule (see RunSchedule).
type schedule = func(r *rand.Rand) (next func(last time.Duration) time.Duration)

// busyLimit is how many events one copy may make at one instant: a copy that
// makes more never lets time move (a busy loop), and the fleet stops with an
// error that names it.
const busyLimit = 10_000

// A FleetError is a copy that failed: it panicked, made more than busyLimit
// events at one instant, or (a schedule) went back in time. Run the Fleet
// again with the same Seed to replay it.
type FleetError struct {
	Seed uint64        // the fleet's seed
	Loop int           // the copy that failed
	At   time.Duration // when, from the fleet's start
	Err  string        // what happened, with the stack of a panic
}

func (e *FleetError) Error() string {
	return fmt.Sprintf("fakeclock: fleet seed %d, loop %d, at start+%v: %s (the same Fleet with Seed %d replays it)",
		e.Seed, e.Loop, e.At, e.Err, e.Seed)
}

// maxLoops is the largest fleet, in copies: see Fleet.Loops.
const maxLoops = 1 << 20

// check returns the error of an invalid Fleet.
func (fl Fleet) check() error {
	switch {
	case fl.Loops < 1:
		return fmt.Errorf("fakeclock: a fleet of %d loops: Loops must be at least 1", fl.Loops)
	case fl.Loops > maxLoops:
		return fmt.Errorf("fakeclock: a fleet of %d loops: Loops must be at most %d (1<<20), beyond which the fleet would not fit in memory", fl.Loops, maxLoops)
	case fl.For <= 0:
		return fmt.Errorf("fakeclock: a fleet run For %v: the duration must be positive", fl.For)
	case fl.Stagger < 0:
		return fmt.Errorf("fakeclock: a fleet Stagger of %v: the stagger must be >= 0", fl.Stagger)
	}
	return nil
}

// Starts returns each copy's start as an offset from the fleet's start, the
// one Run and RunSchedule give it: 0 for every copy of a lockstep fleet,
// and for a staggered one the offset drawn from [0, Stagger), which is a
// function of the seed. A copy's events count from the fleet's start, so
// a check that judges each copy against its own schedule needs them:
// spread.LoopStarts(starts). An invalid Fleet is the error Run would
// return.
func (fl Fleet) Starts() ([]time.Duration, error) {
	if err := fl.check(); err != nil {
		return nil, err
	}
	starts := make([]time.Duration, fl.Loops)
	for i := range starts {
		starts[i] = fl.start(i)
	}
	return starts, nil
}

// rng returns copy i's generator.
func (fl Fleet) rng(i int) *rand.Rand { return rand.New(rand.NewPCG(fl.Seed, uint64(i))) }

// start returns copy i's start, from a generator apart from the copy's.
func (fl Fleet) start(i int) time.Duration {
	if fl.Stagger == 0 {
		return 0
	}
	r := rand.New(rand.NewPCG(fl.Seed, 1<<63|uint64(i)))
	return time.Duration(r.Int64N(int64(fl.Stagger)))
}

// Run runs the fleet's copies of loop in synctest bubbles (see Test), each
// on a goroutine of its own with a Fake of its own, for For, and returns
// each copy's event times as offsets from the fleet's start, in order (a
// copy that made none has none: that is no error).
//
// The copies move in rounds: each round fires the next instant of every
// copy of a tile of 256 copies that has one, then lets the bubble settle,
// so each copy has handled an instant before its next fires, and the
// result depends on the seed alone. All the copies' clocks start at one
// instant and run on one time axis, but each moves on its own: the copies
// must not talk to each other (a copy that did would meet the others at
// other times), and each gets a ctx of its own. In exchange a fleet costs
// one settle per round, not one per instant of every copy: 256 copies
// share each settle, and a tile makes as many rounds as its busiest copy
// has instants. The tiles run one after the other, each to the end of the
// window of virtual time, so that the goroutines a round wakes are still
// in the cores' caches from the round before. Without a Sink, the window
// is the whole run, and a tile's copies start with it and return before
// the next tile starts, and the tiles are shared among a bubble per core
// (GOMAXPROCS), each settling its own: at most 256 goroutines per core
// exist at once, and the cores work apart. With a Sink, a window holds
// only part of the run, so that the Sink gets the events in time order
// with memory bounded by the window (windows adapt to about a million
// events), and every copy runs from the start, in one bubble.
//
// A copy that panics or busy-loops (see busyLimit) stops the fleet at the
// end of its round, and the error is a *FleetError naming it: of several,
// one of the first tile (copies 0-255, 256-511, ...) that has a failure
// (with a Sink, in the first window of virtual time that has one), and of
// the failures of its round, the first in time, then in copy order; the
// same on every run, whatever the number of cores. A copy that spins
// without calling event or the clock cannot be stopped, as no goroutine
// can. Every copy must return once its ctx is done, or synctest reports a
// deadlock.
func (fl Fleet) Run(t *testing.T, loop Loop) ([][]time.Duration, error) {
	if t == nil {
		panic("fakeclock: Fleet.Run(nil, ...): no test to run in")
	}
	if err := fl.check(); err != nil {
		return nil, err
	}
	if loop == nil {
		return nil, errors.New("fakeclock: Fleet.Run with a nil loop")
	}
	if fl.Sink == nil {
		return fl.runBubbles(t, loop)
	}
	var events [][]time.Duration
	var err error
	synctest.Test(t, func(*testing.T) {
		events, err = fl.runBubble(loop).result()
	})
	return events, err
}

// runBubbles runs a fleet without a Sink in a bubble per core (as many as
// GOMAXPROCS, at most one per tile), bubble b running tiles b, b+n, b+2n...
// of the n: a bubble settles its own goroutines alone, so the cores work
// apart, where one bubble's settles would hold the fleet to about one. The
// error is the one of the first tile that fails, as in one bubble, so it
// does not depend on the number of bubbles; a bubble stops before a tile
// after one that failed.
func (fl Fleet) runBubbles(t *testing.T, loop Loop) ([][]time.Duration, error) {
	n := min(runtime.GOMAXPROCS(0), (fl.Loops+tile-1)/tile)
	events := make([][]time.Duration, fl.Loops)
	runs := make([]*fleetRun, n)
	var failed atomic.Int64 // the first tile known to fail
	failed.Store(math.MaxInt64)
	var wg sync.WaitGroup
	for b := range n {
		bubble := func() {
			synctest.Test(t, func(*testing.T) { runs[b] = fl.newRun(events).tiles(loop, b, n, &failed) })
		}
		if b == n-1 {
			bubble() // on the test's goroutine
		} else {
			wg.Go(bubble)
		}
	}
	wg.Wait()
	for _, run := range runs {
		if run.err != nil && int64(run.errTile) == failed.Load() {
			return nil, run.err
		}
	}
	return events, nil
}

// fleetRun is one run of a Fleet's goroutines, each on its own Fake.
type fleetRun struct {
	fl      Fleet
	clocks  []*Fake
	start   time.Time
	events  [][]time.Duration // per copy, each written by its copy's goroutine alone
	ready   []int             // the copies due in the current window, in copy order, run tile by tile
	due     []int             // the copies of the current tile to fire in the next round
	later   []queuedCopy      // the copies with an event armed after the window
	nRounds int               // rounds fired before the end, for the tests
	errTile int               // the tile of err

	live     atomic.Int64 // copies still running
	draining atomic.Bool  // the run is over: what the copies do now does not count
	mu       sync.Mutex
	pending  []fleetEvent // the Sink's events not yet handed on
	err      *FleetError
}

type fleetEvent struct {
	at   time.Duration
	loop int
}

// queuedCopy is a copy of a fleet and the time of its next armed event.
type queuedCopy struct {
	at   int64
	copy int
}

// runBubble runs the fleet in the current bubble. Without a Sink, the
// tiles of copies run one after the other, each from its copies' start to
// their end: at most a tile's goroutines, stacks and Fakes exist at once,
// which the collector scans at each cycle, however large the fleet. With a
// Sink, every copy must reach the end of a window before the next, so all
// of them run at once, tile by tile within each window.
func (fl Fleet) runBubble(loop Loop) *fleetRun {
	if fl.Sink != nil {
		run := fl.newRun(nil)
		run.part(0, fl.Loops, loop)
		run.flush()
		return run
	}
	var failed atomic.Int64
	failed.Store(math.MaxInt64)
	return fl.newRun(make([][]time.Duration, fl.Loops)).tiles(loop, 0, 1, &failed)
}

// newRun returns a run of the fleet in the current bubble that records its
// copies' events in events (nil with a Sink).
func (fl Fleet) newRun(events [][]time.Duration) *fleetRun {
	return &fleetRun{fl: fl, start: time.Now(), clocks: make([]*Fake, fl.Loops), events: events}
}

// tiles runs tiles b, b+n, b+2n... of the fleet one after the other, until
// one fails or comes after the one failed holds, which it then lowers to
// the tile that failed.
func (run *fleetRun) tiles(loop Loop, b, n int, failed *atomic.Int64) *fleetRun {
	for k := b; k*tile < run.fl.Loops && int64(k) < failed.Load(); k += n {
		if run.part(k*tile, min(k*tile+tile, run.fl.Loops), loop); run.err != nil {
			run.errTile = k
			for f := failed.Load(); int64(k) < f && !failed.CompareAndSwap(f, int64(k)); f = failed.Load() {
			}
			break
		}
	}
	return run
}

// part runs copies lo to hi-1 of the fleet from their start to the end.
func (run *fleetRun) part(lo, hi int, loop Loop) {
	run.draining.Store(false)
	run.ready, run.due, run.later = run.ready[:0], run.due[:0], run.later[:0]
	// Each copy has a context of its own: a Done channel shared by every
	// copy would be locked by every select of every copy, from both cores.
	cancels := make([]context.CancelFunc, 0, hi-lo)
	var wg sync.WaitGroup
	for i := lo; i < hi; i++ {
		c := NewFake(run.start)
		c.noSites = true
		run.clocks[i] = c
		run.live.Add(1)
		ctx, cancel := context.WithCancel(context.Background())
		cancels = append(cancels, cancel)
		wg.Go(func() {
			defer run.live.Add(-1)
			run.copy(ctx, i, c, loop)
		})
	}
	run.advance(lo, hi)
	for _, cancel := range cancels {
		cancel()
	}
	run.drain(lo, hi)
	wg.Wait()
	clear(run.clocks[lo:hi])
}

// result returns the copies' events, or the error of the copy that failed.
func (run *fleetRun) result() ([][]time.Duration, error) {
	if run.err != nil {
		return nil, run.err
	}
	return run.events, nil
}

// windows is how many windows of virtual time a fleet with a Sink moves in
// at first: the Sink is handed a window's events, sorted, once every copy
// has passed its end. The windows then adapt to about windowEvents events
// each, as RunSchedule's do. Without a Sink, one window spans the run.
const windows = 1024

// advance moves the clocks of copies lo to hi-1 to For, window by window,
// in rounds: each round fires the next instant of every copy of a tile due
// in the window, then settles the bubble once.
func (run *fleetRun) advance(lo, hi int) {
	synctest.Wait() // every copy has started, and blocked
	for i := lo; i < hi; i++ {
		run.refile(i, 0)
	}
	For := run.fl.For
	width := For
	if run.fl.Sink != nil {
		width = max(For/windows, 1)
	}
	for h := min(width, For); ; h += min(width, For-h) {
		if !run.rounds(int64(h)) {
			return
		}
		n := run.flush()
		if h == For {
			return
		}
		width = adapt(width, n)
	}
}

// tile is how many copies a round fires at most. The copies are
// independent, so a window runs them tile by tile, each tile until none of
// its copies is due: the goroutines a round wakes, with their stacks,
// channels and Fakes, then stay in the cores' caches from one round to the
// next, and readying them fits a P's local run queue (256 goroutines). A
// round of all of 10,000 copies touches more of them than the caches hold
// and finds each one evicted: per wake-up it costs about twice what a
// round of 256 costs (benchmarks/fakeclock's TestFloorStudy), for a few
// more settles.
const tile = 256

// rounds fires rounds, tile by tile, until no copy is due by h, and reports
// whether the fleet goes on (no copy failed).
func (run *fleetRun) rounds(h int64) bool {
	run.ready = run.collect(append(run.ready[:0], run.due...), h)
	run.due = run.due[:0]
	slices.Sort(run.ready)
	for lo := 0; lo < len(run.ready); lo += tile {
		run.due = append(run.due[:0], run.ready[lo:min(lo+tile, len(run.ready))]...)
		if !run.tileRounds(h) {
			return false
		}
	}
	return true
}

// tileRounds fires rounds of the copies of due until none is due by h, and
// reports whether the fleet goes on. Only a copy that was fired can have
// changed its timers once the round has settled, so only those are looked
// at again: the copies still due by h stay in the next round, the others
// wait in later for the window that holds their next event.
func (run *fleetRun) tileRounds(h int64) bool {
	for len(run.due) > 0 {
		run.fire(run.due, h)
		run.nRounds++
		if synctest.Wait(); run.failed() {
			return false
		}
		fired := run.due
		run.due = run.due[:0]
		for _, i := range fired {
			run.refile(i, h)
		}
	}
	return true
}

// collect moves the copies of later whose next event is at or before h to
// dst, and returns it.
func (run *fleetRun) collect(dst []int, h int64) []int {
	keep := run.later[:0]
	for _, q := range run.later {
		if q.at <= h {
			dst = append(dst, q.copy)
		} else {
			keep = append(keep, q)
		}
	}
	run.later = keep
	return dst
}

// refile puts copy i in due if its next armed event is at or before h, in
// later if after, and nowhere if it has none. Appending to due while a
// round's fired copies are read from the same array is safe: the copy
// written is at or before the one read.
func (run *fleetRun) refile(i int, h int64) {
	c := run.clocks[i]
	c.mu.Lock()
	next, ok := int64(0), len(c.heap) > 0
	if ok {
		next = c.heap[0].when
	}
	c.mu.Unlock()
	switch {
	case !ok:
	case next <= h:
		run.due = append(run.due, i)
	default:
		run.later = append(run.later, queuedCopy{next, i})
	}
}

// fire fires the next instant of each of the copies, split among the cores
// when they are many: the clocks are independent, and one goroutine
// sending every copy's values would hold the fleet to one core.
func (run *fleetRun) fire(copies []int, h int64) {
	const chunk = 256
	if len(copies) <= chunk {
		for _, i := range copies {
			run.clocks[i].fire(h)
		}
		return
	}
	var wg sync.WaitGroup
	for lo := 0; lo < len(copies); lo += chunk {
		part := copies[lo:min(lo+chunk, len(copies))]
		wg.Go(func() { run.fire(part, h) })
	}
	wg.Wait()
}

func (run *fleetRun) failed() bool {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.err != nil
}

// drainLimit is how many rounds past the end a fleet fires for its copies to
// see that ctx is done: a copy asleep on its Fake (Sleep cannot be
// interrupted) wakes at its next instant.
const drainLimit = 1000

// drain fires rounds, after ctx is done, until copies lo to hi-1 have
// returned. A copy still blocked after drainLimit rounds makes synctest
// report a deadlock. It starts from every copy's clock, as a failure leaves
// the copies of the tiles not yet run in no list.
func (run *fleetRun) drain(lo, hi int) {
	run.draining.Store(true)
	run.due, run.later = run.due[:0], run.later[:0]
	for i := lo; i < hi; i++ {
		run.refile(i, math.MaxInt64)
	}
	for range drainLimit {
		if synctest.Wait(); run.live.Load() == 0 || len(run.due) == 0 {
			return
		}
		run.fire(run.due, math.MaxInt64)
		fired := run.due
		run.due = run.due[:0]
		for _, i := range fired {
			run.refile(i, math.MaxInt64)
		}
	}
}

// copy runs copy i of loop on c, recording its events, and turns a panic
// into the fleet's error.
func (run *fleetRun) copy(ctx context.Context, i int, c *Fake, loop Loop) {
	at, same := time.Duration(-1), 0
	defer func() {
		if p := recover(); p != nil {
			run.fail(i, c.Since(run.start), fmt.Sprintf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	if d := run.fl.start(i); d > 0 && !sleep(ctx, c, d) {
		return
	}
	loop(ctx, c, run.fl.rng(i), func() {
		now := c.Since(run.start)
		if now != at {
			at, same = now, 0
		}
		if same++; same > busyLimit {
			run.fail(i, now, busy)
			runtime.Goexit() // ends the copy, running its defers; the loop cannot recover it
		}
		if now > run.fl.For || ctx.Err() != nil {
			return // after the end: the fleet is stopping
		}
		run.record(i, now)
	})
}

var busy = fmt.Sprintf("more than %d events at one instant (busyLimit): a busy loop, stopped", busyLimit)

func (run *fleetRun) record(i int, at time.Duration) {
	if run.events != nil {
		run.events[i] = append(run.events[i], at)
		return
	}
	run.mu.Lock()
	run.pending = append(run.pending, fleetEvent{at, i})
	run.mu.Unlock()
}

// fail records a copy's failure; the fleet stops after the round. Of the
// failures of one round, which the copies' goroutines report in any order,
// the error keeps the one that comes first in time, then copy order.
func (run *fleetRun) fail(i int, at time.Duration, msg string) {
	if run.draining.Load() {
		return
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	run.err = first(run.err, &FleetError{Seed: run.fl.Seed, Loop: i, At: at, Err: msg})
}

// first returns the failure that comes first in time, then in copy order.
func first(a, b *FleetError) *FleetError {
	if a == nil || b != nil && (b.At < a.At || b.At == a.At && b.Loop < a.Loop) {
		return b
	}
	return a
}

// flush hands the Sink the events recorded so far, all at or before the
// window every copy has passed, in time order, then copy order (each
// copy's own in the order it made them), and returns how many.
func (run *fleetRun) flush() int {
	if run.fl.Sink == nil {
		return 0
	}
	run.mu.Lock()
	batch := run.pending
	run.pending = nil
	run.mu.Unlock()
	slices.SortStableFunc(batch, func(a, b fleetEvent) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.loop, b.loop))
	})
	for _, e := range batch {
		run.fl.Sink(e.loop, e.at)
	}
	return len(batch)
}

// sleep waits d on c, or until ctx is done; it reports whether d passed.
func sleep(ctx context.Context, c Clock, d time.Duration) bool {
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
