package fakeclock

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"time"
)

// RunSchedule runs the fleet's copies of a loop given as its schedule, with
// no goroutine per copy: the copies are split among GOMAXPROCS workers,
// each of which runs its copies' next functions through For, and returns
// each copy's event times as Run does. With a Sink, each worker keeps its
// copies on an event queue (a heap by time, then copy), the fleet moves in
// windows of virtual time, and the workers' events of each window are
// merged in time order for the Sink while the workers compute the next.
// The result depends on the seed alone, not on the number of cores.
//
// A next function that panics, returns a time before the last, or returns
// one time more than BusyLimit times, stops its copy, and the error is a
// *FleetError for the first such copy in time (then copy order); the other
// copies run to the end.
func (fl Fleet) RunSchedule(s Schedule) ([][]time.Duration, error) {
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
				for c.step() {
					events[i] = append(events[i], c.last)
				}
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

// schedCopy is one copy of a Schedule: its next function and its last event.
type schedCopy struct {
	fl   Fleet
	i    int
	next func(time.Duration) time.Duration
	last time.Duration // the start, until the first event
	same int           // events at last so far
	err  *FleetError
}

func (fl Fleet) newCopy(s Schedule, i int) *schedCopy {
	c := &schedCopy{fl: fl, i: i, last: fl.start(i), same: -1}
	c.guard(func() {
		if c.next = s(fl.rng(i)); c.next == nil {
			c.fail("the schedule returned a nil next function")
		}
	})
	return c
}

// step moves the copy to its next event and reports whether there is one
// by For; the event is c.last.
func (c *schedCopy) step() bool {
	if c.err != nil {
		return false
	}
	at := c.last
	c.guard(func() { at = c.next(c.last) })
	switch {
	case c.err != nil || at > c.fl.For:
		return false
	case at < c.last:
		c.fail(fmt.Sprintf("next(%v) returned %v: time went back", c.last, at))
		return false
	case at == c.last:
		if c.same++; c.same >= BusyLimit {
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
	defer func() {
		if p := recover(); p != nil {
			c.fail(fmt.Sprintf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	f()
}

func (c *schedCopy) fail(msg string) {
	c.err = &FleetError{Seed: c.fl.Seed, Loop: c.i, At: c.last, Err: msg}
}

// windows is how many windows of virtual time a streamed fleet moves in:
// its memory is two windows' events.
const windows = 1024

// stream runs the fleet in windows, each worker with an event queue of its
// copies, and hands the Sink the merged events of each window while the
// workers compute the next.
func (fl Fleet) stream(s Schedule, workers int) error {
	queues := make([]*schedQueue, workers)
	var wg sync.WaitGroup
	for w := range queues {
		wg.Go(func() { queues[w] = fl.newQueue(s, w*fl.Loops/workers, (w+1)*fl.Loops/workers) })
	}
	wg.Wait()
	width := max(fl.For/windows, 1)
	// Window k ends at (k+1)*width, the last one at For, which it includes.
	// Window k+1 is computed while window k is merged.
	end := func(k int64) time.Duration { return min(fl.For, time.Duration(k+1)*width) }
	compute := func(k int64) *sync.WaitGroup {
		var done sync.WaitGroup
		for _, q := range queues {
			done.Go(func() { q.run(end(k), end(k) == fl.For, k%2) })
		}
		return &done
	}
	done := compute(0)
	for k := int64(0); ; k++ {
		done.Wait()
		last := end(k) == fl.For
		if !last {
			done = compute(k + 1)
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

// schedQueue is a worker's event queue: its copies, by next event.
type schedQueue struct {
	copies []*schedCopy
	heap   []queued
	out    [2][]fleetEvent // the events of the last two windows
	err    *FleetError
}

type queued struct {
	at   time.Duration
	copy int32 // index in copies
}

func (fl Fleet) newQueue(s Schedule, lo, hi int) *schedQueue {
	q := &schedQueue{}
	for i := lo; i < hi; i++ {
		c := fl.newCopy(s, i)
		q.copies = append(q.copies, c)
		if c.step() {
			q.push(queued{c.last, int32(len(q.copies) - 1)})
		}
		q.err = first(q.err, c.err)
	}
	return q
}

// run moves the queue's copies through the window ending at end (included
// if last), into out[buf].
func (q *schedQueue) run(end time.Duration, last bool, buf int64) {
	out := q.out[buf][:0]
	for len(q.heap) > 0 && (q.heap[0].at < end || last && q.heap[0].at == end) {
		e := q.heap[0]
		c := q.copies[e.copy]
		out = append(out, fleetEvent{e.at, c.i})
		if c.step() {
			q.heap[0].at = c.last
			q.down(0)
		} else {
			q.err = first(q.err, c.err)
			q.pop()
		}
	}
	q.out[buf] = out
}

func (q *schedQueue) less(a, b queued) bool {
	return a.at < b.at || a.at == b.at && a.copy < b.copy
}

func (q *schedQueue) push(e queued) {
	q.heap = append(q.heap, e)
	for i := len(q.heap) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(q.heap[i], q.heap[p]) {
			break
		}
		q.heap[i], q.heap[p] = q.heap[p], q.heap[i]
		i = p
	}
}

func (q *schedQueue) pop() {
	n := len(q.heap) - 1
	q.heap[0] = q.heap[n]
	q.heap = q.heap[:n]
	if n > 0 {
		q.down(0)
	}
}

func (q *schedQueue) down(i int) {
	h := q.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && q.less(h[r], h[l]) {
			c = r
		}
		if !q.less(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
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
