package fakeclock

import (
	"context"
	"errors"
	"fmt"
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
// selects against a Clock, in a synctest bubble) or as its schedule
// (RunSchedule: the next event from the last, no goroutine per loop, over
// all cores) for fleets too large for a goroutine each. A test that runs
// both on the same seed and compares them keeps the schedule true to the
// code.
type Fleet struct {
	// Loops is the number of copies, at least 1.
	Loops int
	// Seed derives each copy's generator: copy i draws from
	// rand.New(rand.NewPCG(Seed, i)).
	Seed uint64
	// For is the virtual time the fleet runs, > 0. Events at For count.
	For time.Duration
	// Stagger, if > 0, starts copy i at an offset drawn uniformly from
	// [0, Stagger) (from a generator of its own, not the copy's). At 0,
	// every copy starts at once: the lockstep start of a fleet after an
	// outage, the worst case.
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

// A Schedule is a loop given as its schedule: called once per copy with the
// copy's generator, it returns the copy's next function, which takes the
// time of the copy's last event (at first, its start) and returns the time
// of its next event, drawing from r exactly as the loop's code does. A
// time after the fleet's For, such as math.MaxInt64, ends the copy.
type Schedule func(r *rand.Rand) (next func(last time.Duration) time.Duration)

// BusyLimit is how many events one copy may make at one instant: a copy that
// makes more never lets time move (a busy loop), and the fleet stops with an
// error that names it.
const BusyLimit = 10_000

// A FleetError is a copy that failed: it panicked, made more than BusyLimit
// events at one instant, or (a Schedule) went back in time. Run the Fleet
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

// check returns the error of an invalid Fleet.
func (fl Fleet) check() error {
	switch {
	case fl.Loops < 1:
		return fmt.Errorf("fakeclock: a fleet of %d loops: Loops must be at least 1", fl.Loops)
	case fl.For <= 0:
		return fmt.Errorf("fakeclock: a fleet run For %v: the duration must be positive", fl.For)
	case fl.Stagger < 0:
		return fmt.Errorf("fakeclock: a fleet Stagger of %v: the stagger must be >= 0", fl.Stagger)
	}
	return nil
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

// Run runs the fleet's copies of loop in a synctest bubble (see Test), on
// one Fake, each on a goroutine of its own, for For, and returns each
// copy's event times as offsets from the fleet's start, in order (a copy
// that made none has none: that is no error). The copies run in lockstep
// with the Fake: each instant's goroutines have handled it before the next
// instant fires, so the result depends on the seed alone.
//
// A copy that panics or busy-loops (see BusyLimit) stops the fleet, and
// the error is a *FleetError; a copy that spins without calling event or
// the clock cannot be stopped, as no goroutine can. Every copy must return
// once its ctx is done, or synctest reports a deadlock.
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
	var events [][]time.Duration
	var err error
	synctest.Test(t, func(*testing.T) {
		events, err = fl.runBubble(loop)
	})
	return events, err
}

// fleetRun is one run of a Fleet's goroutines on a Fake.
type fleetRun struct {
	fl     Fleet
	c      *Fake
	start  time.Time
	events [][]time.Duration // per copy, each written by its copy's goroutine alone

	live     atomic.Int64 // copies still running
	draining atomic.Bool  // the run is over: what the copies do now does not count
	mu       sync.Mutex
	pending  []fleetEvent // the Sink's events of the current instant
	err      *FleetError
}

// drainLimit is how many instants past the end a fleet fires for its copies
// to see that ctx is done: a copy asleep on the Fake (Sleep cannot be
// interrupted) wakes at its next instant.
const drainLimit = 1000

// drain fires the Fake's next instants, after ctx is done, until every copy
// has returned: a copy sleeping on the Fake returns when it wakes. A copy
// still blocked after drainLimit instants makes synctest report a deadlock.
func (run *fleetRun) drain() {
	run.draining.Store(true)
	run.c.halt.Store(false)
	for range drainLimit {
		if run.c.settle(); run.live.Load() == 0 {
			return
		}
		if _, ok := run.c.AdvanceNext(); !ok {
			return
		}
	}
}

type fleetEvent struct {
	at   time.Duration
	loop int
}

func (fl Fleet) runBubble(loop Loop) ([][]time.Duration, error) {
	c := NewFake(time.Now())
	c.bubble = true
	run := &fleetRun{fl: fl, c: c, start: c.Now()}
	if fl.Sink == nil {
		run.events = make([][]time.Duration, fl.Loops)
	} else {
		c.settled = run.flush
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range fl.Loops {
		run.live.Add(1)
		wg.Go(func() {
			defer run.live.Add(-1)
			run.copy(ctx, i, loop)
		})
	}
	err := c.Advance(fl.For)
	cancel()
	run.drain()
	wg.Wait()
	run.flush()
	if run.err != nil {
		return nil, run.err
	}
	return run.events, err
}

// copy runs copy i of loop, recording its events, and turns a panic into
// the fleet's error.
func (run *fleetRun) copy(ctx context.Context, i int, loop Loop) {
	at, same := time.Duration(-1), 0
	defer func() {
		if p := recover(); p != nil {
			run.fail(i, run.c.Since(run.start), fmt.Sprintf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	if d := run.fl.start(i); d > 0 && !sleep(ctx, run.c, d) {
		return
	}
	loop(ctx, run.c, run.fl.rng(i), func() {
		now := run.c.Since(run.start)
		if now != at {
			at, same = now, 0
		}
		if same++; same > BusyLimit {
			run.fail(i, now, busy)
			runtime.Goexit() // ends the copy, running its defers; the loop cannot recover it
		}
		if now > run.fl.For || ctx.Err() != nil {
			return // after the end: the fleet is stopping
		}
		run.record(i, now)
	})
}

var busy = fmt.Sprintf("more than %d events at one instant (BusyLimit): a busy loop, stopped", BusyLimit)

func (run *fleetRun) record(i int, at time.Duration) {
	if run.events != nil {
		run.events[i] = append(run.events[i], at)
		return
	}
	run.mu.Lock()
	run.pending = append(run.pending, fleetEvent{at, i})
	run.mu.Unlock()
}

// fail records a copy's failure and stops the Fake after the instant. Of
// the failures of one instant, which the copies' goroutines report in any
// order, the error keeps the copy that comes first.
func (run *fleetRun) fail(i int, at time.Duration, msg string) {
	if run.draining.Load() {
		return
	}
	run.mu.Lock()
	defer run.mu.Unlock()
	run.err = first(run.err, &FleetError{Seed: run.fl.Seed, Loop: i, At: at, Err: msg})
	run.c.halt.Store(true)
}

// first returns the failure that comes first in time, then in copy order.
func first(a, b *FleetError) *FleetError {
	if a == nil || b != nil && (b.At < a.At || b.At == a.At && b.Loop < a.Loop) {
		return b
	}
	return a
}

// flush hands the events of the instant just handled to the Sink, in the
// order of the copies (each copy's own in the order it made them).
func (run *fleetRun) flush() {
	run.mu.Lock()
	batch := run.pending
	run.pending = nil
	run.mu.Unlock()
	slices.SortStableFunc(batch, func(a, b fleetEvent) int { return cmpInt(int64(a.loop), int64(b.loop)) })
	for _, e := range batch {
		run.fl.Sink(e.loop, e.at)
	}
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
