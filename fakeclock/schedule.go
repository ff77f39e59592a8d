package fakeclock

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"
)

// RunSchedule runs the fleet's copies of a loop given as its schedule: called
// once per copy with the copy's generator, s returns the copy's next
// function, which takes the time of the copy's last event (at first, its
// start) and returns the time of its next event, drawing from r exactly as
// the loop's code does; a time after the fleet's For, such as
// math.MaxInt64, ends the copy. A spread.Schedule's Next is one, so that the
// declaration a fleet is checked against also drives it:
//
//	s := spread.JitterTicker(time.Second, time.Second)
//	events, err := fleet.RunSchedule(s.Next)
//	spread.CheckFleet(t, events, s, fleet.For)
//
// It runs them with no goroutine per copy: the copies are split among
// GOMAXPROCS workers, each of which runs its copies' next functions through For, and returns
// each copy's event times as Run does. With a Sink, the fleet moves in
// windows of virtual time (of about a million events each): each worker
// runs its copies through the window and sorts the window's events by
// time, then copy, and the workers' windows are merged for the Sink while
// they compute the next. The result depends on the seed alone, not on the
// number of cores, and the memory on the window, not on the whole run.
//
// A next function that panics, returns a time before the last, or returns
// one time more than 10,000 times (busyLimit), stops its copy, and the error is a
// *FleetError for the first such copy in time (then copy order); the other
// copies run to the end.
func (fl Fleet) RunSchedule(s func(r *rand.Rand) (next func(last time.Duration) time.Duration)) ([][]time.Duration, error) {
	if err := fl.check(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, errors.New("fakeclock: Fleet.RunSchedule with a nil schedule")
	}
	workers := min(runtime.GOMAXPROCS(0), fl.Loops)
	if fl.Sink != nil {
		return nil, fl.stream(s, workers)
	}
	events := make([][]time.Duration, fl.Loops)
	errs := make([]*FleetError, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w * fl.Loops / workers; i < (w+1)*fl.Loops/workers; i++ {
				c := fl.newCopy(s, i)
				events[i] = c.all()
				errs[w] = first(errs[w], c.err)
			}
		})
	}
	wg.Wait()
	var err *FleetError
	for _, e := range errs {
		err = first(err, e)
	}
	if err != nil {
		return events, err
	}
	return events, nil
}

// schedCopy is one copy of a schedule: its next function and its last event.
type schedCopy struct {
	fl   Fleet
	i    int
	next func(time.Duration) time.Duration
	last time.Duration // the start, until the first event
	same int           // events at last so far
	err  *FleetError
}

func (fl Fleet) newCopy(s schedule, i int) *schedCopy {
	c := &schedCopy{fl: fl, i: i, last: fl.start(i), same: -1}
	c.guard(func() {
		if c.next = s(fl.rng(i)); c.next == nil {
			c.fail("the schedule returned a nil next function")
		}
	})
	return c
}

// all returns the copy's events through For.
func (c *schedCopy) all() (events []time.Duration) {
	defer c.recover()
	for c.step() {
		events = append(events, c.last)
	}
	return events
}

// step moves the copy to its next event and reports whether there is one
// by For; the event is c.last. A panic of the next function is the
// caller's to recover (see recover): one deferred call per event would
// cost a third of the run.
func (c *schedCopy) step() bool {
	if c.err != nil {
		return false
	}
	at := c.next(c.last)
	switch {
	case at > c.fl.For:
		return false
	case at < c.last:
		c.fail(fmt.Sprintf("next(%v) returned %v: time went back", c.last, at))
		return false
	case at == c.last:
		if c.same++; c.same >= busyLimit {
			c.fail(busy)
			return false
		}
	default:
		c.same = 0
	}
	c.last = at
	return true
}

func (c *schedCopy) guard(f func()) {
	defer c.recover()
	f()
}

// recover, deferred, turns a panic of the copy's schedule into its error.
func (c *schedCopy) recover() {
	if p := recover(); p != nil {
		c.fail(fmt.Sprintf("panic: %v\n%s", p, debug.Stack()))
	}
}

func (c *schedCopy) fail(msg string) {
	c.err = &FleetError{Seed: c.fl.Seed, Loop: c.i, At: c.last, Err: msg}
}

// stream runs the fleet in windows, each worker with its share of the
// copies, and hands the Sink the merged events of each window while the
// workers compute the next.
func (fl Fleet) stream(s schedule, workers int) error {
	queues := make([]*schedQueue, workers)
	var wg sync.WaitGroup
	for w := range queues {
		wg.Go(func() { queues[w] = fl.newQueue(s, w*fl.Loops/workers, (w+1)*fl.Loops/workers) })
	}
	wg.Wait()
	// Window k+1 is computed while window k is merged. A window's width
	// adapts so that it holds about windowEvents events: the memory stays
	// bounded, and each copy is visited once per window, not per event.
	width := max(fl.For/windows, 1)
	compute := func(lo, hi time.Duration, buf int64) *sync.WaitGroup {
		var done sync.WaitGroup
		for _, q := range queues {
			done.Go(func() { q.run(lo, hi, hi == fl.For, buf) })
		}
		return &done
	}
	lo, hi := time.Duration(0), min(fl.For, width)
	done := compute(lo, hi, 0)
	for k := int64(0); ; k++ {
		done.Wait()
		width = adapt(width, count(queues, k%2))
		last := hi == fl.For
		if !last {
			lo, hi = hi, hi+min(width, fl.For-hi)
			done = compute(lo, hi, (k+1)%2)
		}
		merge(queues, k%2, fl.Sink)
		if last {
			break
		}
	}
	var err *FleetError
	for _, q := range queues {
		err = first(err, q.err)
	}
	if err != nil {
		return err
	}
	return nil
}

// windowEvents is about how many events a streamed fleet holds per window.
const windowEvents = 1 << 20

// adapt returns the width of the next window after one of the given width
// held n events: doubled while they are under half of windowEvents,
// halved while they are over twice.
func adapt(width time.Duration, n int) time.Duration {
	switch {
	case n < windowEvents/2 && width <= math.MaxInt64/2:
		return 2 * width
	case n > 2*windowEvents && width > 1:
		return width / 2
	}
	return width
}

// count returns the events of window buf of every queue.
func count(queues []*schedQueue, buf int64) int {
	n := 0
	for _, q := range queues {
		n += len(q.out[buf])
	}
	return n
}

// schedQueue is a worker's share of the copies, moved window by window.
// Each window visits the copies in order, each emitting its events in the
// window, then sorts the window's events by time with a stable radix sort,
// which keeps ties in copy order: visiting the copies' state in memory
// order is several times faster than an event queue that jumps between
// them at every event.
type schedQueue struct {
	copies  []*schedCopy
	live    []bool          // whether copy k has an event pending at copies[k].last
	out     [2][]fleetEvent // the events of the last two windows
	scratch []fleetEvent
	err     *FleetError
}

func (fl Fleet) newQueue(s schedule, lo, hi int) *schedQueue {
	q := &schedQueue{}
	for i := lo; i < hi; i++ {
		c := fl.newCopy(s, i)
		var ok bool
		c.guard(func() { ok = c.step() })
		q.copies = append(q.copies, c)
		q.live = append(q.live, ok)
		q.err = first(q.err, c.err)
	}
	return q
}

// run moves the queue's copies through the window [start, end) (end
// included if last), into out[buf], sorted by time, then copy.
func (q *schedQueue) run(start, end time.Duration, last bool, buf int64) {
	q.out[buf] = q.out[buf][:0]
	for k := 0; k < len(q.copies); {
		k = q.runFrom(k, end, last, buf)
	}
	q.out[buf], q.scratch = radixSort(q.out[buf], q.scratch, start, end)
}

// runFrom emits the window's events of copies k on, and returns the number
// of copies; if a schedule panics, it records the copy's failure and
// returns the index of the next copy.
func (q *schedQueue) runFrom(k int, end time.Duration, last bool, buf int64) (next int) {
	defer func() {
		if p := recover(); p != nil {
			c := q.copies[k]
			c.fail(fmt.Sprintf("panic: %v\n%s", p, debug.Stack()))
			q.err = first(q.err, c.err)
			q.live[k] = false
			next = k + 1
		}
	}()
	out := q.out[buf]
	for ; k < len(q.copies); k++ {
		c := q.copies[k]
		for q.live[k] && (c.last < end || last && c.last == end) {
			out = append(out, fleetEvent{c.last, c.i})
			q.out[buf] = out // kept current for a panic in step
			if q.live[k] = c.step(); !q.live[k] {
				q.err = first(q.err, c.err)
			}
		}
	}
	q.out[buf] = out
	return k
}

// radixSort sorts es by time, stably, using scratch, and returns the sorted
// events and the other buffer. The times lie in [start, end].
func radixSort(es, scratch []fleetEvent, start, end time.Duration) ([]fleetEvent, []fleetEvent) {
	const digit = 11
	scratch = slices.Grow(scratch[:0], len(es))[:len(es)]
	var counts [1 << digit]int
	for shift := 0; shift < bits.Len64(uint64(end-start)); shift += digit {
		clear(counts[:])
		for _, e := range es {
			counts[uint64(e.at-start)>>shift&(1<<digit-1)]++
		}
		sum := 0
		for d, n := range counts {
			counts[d], sum = sum, sum+n
		}
		for _, e := range es {
			d := uint64(e.at-start) >> shift & (1<<digit - 1)
			scratch[counts[d]] = e
			counts[d]++
		}
		es, scratch = scratch, es
	}
	return es, scratch
}

// merge hands the Sink the events of window buf of every queue, in time
// order, then copy order: each queue's are in that order already, and the
// queues hold consecutive ranges of copies.
func merge(queues []*schedQueue, buf int64, sink func(int, time.Duration)) {
	pos := make([]int, len(queues))
	for {
		best := -1
		for w, q := range queues {
			if pos[w] < len(q.out[buf]) && (best < 0 || cmp.Compare(q.out[buf][pos[w]].at, queues[best].out[buf][pos[best]].at) < 0) {
				best = w
			}
		}
		if best < 0 {
			return
		}
		e := queues[best].out[buf][pos[best]]
		pos[best]++
		sink(e.loop, e.at)
	}
}
