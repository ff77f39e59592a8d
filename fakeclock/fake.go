package fakeclock

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing/synctest"
	"time"
)

// Fake is a Clock whose time moves only when Advance or AdvanceNext is
// called. Timers, tickers, sleeps and AfterFunc callbacks fire in time
// order, each at its own instant, with the semantics of Go 1.23 timers.
// Its methods are safe for concurrent use.
//
// A Fake made by Test lives in a testing/synctest bubble, and there each
// Advance lets every goroutine of the bubble settle before it fires an
// instant and again after it. A Fake made by NewFake outside a bubble fires
// the same events in the same order, but cannot know whether the goroutine
// that reads a channel has run yet: see the package documentation.
type Fake struct {
	// sendMu is held while the values of one instant are sent. Stop and
	// Reset take it before mu, so a value prepared before a Stop or Reset
	// is never seen after it (the guarantee of Go 1.23 timers). Every send
	// made under it is non-blocking, so holding it can never deadlock.
	sendMu sync.Mutex

	mu       sync.Mutex // guards the fields below, and each timer's fields
	start    time.Time
	now      atomic.Int64 // nanoseconds since start; written under mu
	goal     int64        // the time every Advance so far asks for: they add up
	heap     timerHeap
	seq      uint64
	batch    []*timer // the due timers of one instant, reused
	queue    []int    // scratch space for finding them
	behind   []*timer // scratch space for the tickers whose reader is behind
	free     []*timer // idle sleepers, reused so Sleep does not allocate
	waiters  []*armWaiter
	instants int64 // instants fired, for the tests that bound the work
	bubble   bool
	noSites  bool // a fleet's copy: no caller recorded for WaitArmed's report
}

// kind says which method made a timer, for the report of a failed wait.
type kind uint8

const (
	kindTimer kind = iota
	kindTicker
	kindAfterFunc
	kindSleep
)

func (k kind) String() string {
	return [...]string{"timer", "ticker", "AfterFunc", "Sleep"}[k]
}

// timer is one timer, ticker, AfterFunc or sleeping goroutine. Its fields
// are guarded by Fake.mu, except c and fn, which never change.
type timer struct {
	f      *Fake
	when   int64 // nanoseconds since start; valid while armed
	period int64 // > 0 for a ticker
	seq    uint64
	idx    int // index in the heap, -1 when not armed
	c      chan time.Time
	fn     func()
	kind   kind
	pc     uintptr // where it was made
	handle Timer   // a timer's handle, made with it: one allocation, not two
}

type armWaiter struct {
	n    int
	done chan struct{}
}

// NewFake returns a Fake whose time is start. Its time moves only when
// Advance or AdvanceNext is called.
func NewFake(start time.Time) *Fake {
	return &Fake{start: start}
}

// Now returns the Fake's current time. While an event fires, it is that
// event's time.
func (f *Fake) Now() time.Time { return f.at(f.now.Load()) }

// Since returns f.Now().Sub(t).
func (f *Fake) Since(t time.Time) time.Duration { return f.Now().Sub(t) }

// Until returns t.Sub(f.Now()).
func (f *Fake) Until(t time.Time) time.Duration { return t.Sub(f.Now()) }

func (f *Fake) at(ns int64) time.Time { return f.start.Add(time.Duration(ns)) }

// Sleep blocks until the Fake has advanced by d. It returns at once if
// d <= 0.
func (f *Fake) Sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	pc := f.callerPC()
	f.mu.Lock()
	var t *timer
	if n := len(f.free); n > 0 {
		t = f.free[n-1]
		f.free = f.free[:n-1]
	} else {
		t = &timer{f: f, idx: -1, kind: kindSleep, c: make(chan time.Time, 1)}
	}
	t.pc = pc
	f.armLocked(t, d)
	f.mu.Unlock()
	<-t.c
	f.mu.Lock()
	f.free = append(f.free, t)
	f.mu.Unlock()
}

// After returns f.NewTimer(d).C.
func (f *Fake) After(d time.Duration) <-chan time.Time {
	return f.newTimer(d, nil, kindTimer, f.callerPC()).C
}

// Tick returns the channel of a new Ticker, or nil if d <= 0.
func (f *Fake) Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return f.newTicker(d, f.callerPC()).C
}

// NewTimer returns a Timer that sends the Fake's time on its C once the
// Fake has advanced by d. If d <= 0, the value is sent at once.
func (f *Fake) NewTimer(d time.Duration) *Timer {
	return f.newTimer(d, nil, kindTimer, f.callerPC())
}

// AfterFunc returns a Timer that calls fn once the Fake has advanced by d.
// fn runs on the goroutine that advances the Fake, after the instant's
// channel values are sent and with no lock held, so it may call any
// method of the Fake; Advance returns after it does. If d <= 0, fn runs at
// once in its own goroutine, as with time.AfterFunc.
//
// A nil fn panics at once with a message that says so (package time
// would crash later, on the goroutine that calls it).
func (f *Fake) AfterFunc(d time.Duration, fn func()) *Timer {
	if fn == nil {
		panic("fakeclock: AfterFunc with a nil func")
	}
	return f.newTimer(d, fn, kindAfterFunc, f.callerPC())
}

func (f *Fake) newTimer(d time.Duration, fn func(), k kind, pc uintptr) *Timer {
	t := &timer{f: f, idx: -1, fn: fn, kind: k, pc: pc}
	if fn == nil {
		t.c = make(chan time.Time, 1)
	}
	t.handle = Timer{C: t.c, fake: t}
	f.reset(t, d, 0, true)
	return &t.handle
}

// NewTicker returns a Ticker that sends the Fake's time on its C each time
// the Fake passes a multiple of d from now. It panics if d <= 0, as
// time.NewTicker does.
func (f *Fake) NewTicker(d time.Duration) *Ticker { return f.newTicker(d, f.callerPC()) }

func (f *Fake) newTicker(d time.Duration, pc uintptr) *Ticker {
	if d <= 0 {
		panic("fakeclock: non-positive interval for NewTicker")
	}
	t := &timer{f: f, idx: -1, kind: kindTicker, c: make(chan time.Time, 1), pc: pc}
	f.mu.Lock()
	t.period = int64(d)
	f.armLocked(t, d)
	f.mu.Unlock()
	return &Ticker{C: t.c, fake: t}
}

// armLocked puts t in the heap to fire d from now (d > 0).
func (f *Fake) armLocked(t *timer, d time.Duration) {
	t.when = addSat(f.now.Load(), int64(d))
	t.seq = f.seq
	f.seq++
	if t.idx >= 0 {
		f.heap.fix(t.idx)
	} else {
		f.heap.push(t)
	}
	if len(f.waiters) > 0 {
		f.wakeWaitersLocked()
	}
}

// stop disarms t and discards its unreceived value. It reports whether t
// was armed or held a value, as time.Timer.Stop does since Go 1.23.
func (f *Fake) stop(t *timer) bool {
	f.sendMu.Lock()
	defer f.sendMu.Unlock()
	f.mu.Lock()
	pending := t.idx >= 0
	if pending {
		f.heap.remove(t.idx)
	}
	f.mu.Unlock()
	return drain(t.c) || pending
}

// reset re-arms t to fire d from now with the given period (0 for a
// timer), discarding an unreceived value; it reports what stop would. made
// says that t is new: an AfterFunc made, or reset after it fired or
// stopped, due at once runs at once, but a pending one reset to be due is
// due, as in package time (see soon).
func (f *Fake) reset(t *timer, d time.Duration, period time.Duration, made bool) bool {
	f.sendMu.Lock()
	f.mu.Lock()
	pending := t.idx >= 0
	t.period = int64(period)
	if d > 0 || t.fn != nil && pending && !made {
		f.armLocked(t, max(d, 0))
		seq := t.seq
		f.mu.Unlock()
		pending = drain(t.c) || pending
		f.sendMu.Unlock()
		if d <= 0 {
			f.soon(t, seq)
		}
		return pending
	}
	// Due now: fire without waiting for an Advance, as package time does.
	if pending {
		f.heap.remove(t.idx)
	}
	now := f.at(f.now.Load())
	f.mu.Unlock()
	pending = drain(t.c) || pending
	if t.c != nil {
		select {
		case t.c <- now: // always room: the buffer was just drained, under sendMu
		default:
		}
	}
	f.sendMu.Unlock()
	if t.fn != nil {
		go t.fn()
	}
	return pending
}

// soon runs the pending AfterFunc t, reset to be due now, once the runtime
// next checks its timers, unless it was stopped, reset or fired by an
// Advance first (seq is its arming). That is what package time does: a
// timer in the runtime's heap that is reset to d <= 0 is only due, so a Stop
// right after returns true and f never runs (in a synctest bubble always:
// its timers are checked once every goroutine has blocked, as in
// synctest.Wait), where time.AfterFunc(d <= 0, f), or a Reset of a timer
// that has fired, starts f at once. A real timer reset to 0 is due at that
// very moment, so the Fake borrows one; it never moves the bubble's clock.
// (A timer stopped a moment before stays in the runtime's heap until the
// runtime cleans it, and a Reset(0) then only makes it due too: when that
// is, is the runtime's business, and the Fake runs such a timer at once.)
func (f *Fake) soon(t *timer, seq uint64) {
	rt := time.AfterFunc(math.MaxInt64, func() {
		f.mu.Lock()
		due := t.idx >= 0 && t.seq == seq
		if due {
			f.heap.remove(t.idx)
		}
		f.mu.Unlock()
		if due {
			t.fn()
		}
	})
	rt.Reset(0)
}

// drain discards the value waiting in c, if any, and reports whether there
// was one. c may be nil.
func drain(c chan time.Time) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// Advance moves the Fake's time forward by d, firing every event due up to
// the new time, one instant at a time in time order; during each, Now is
// that instant. Tickers fire at each of their instants, so advancing five
// periods over a live ticker loop delivers five ticks; a ticker whose
// reader is behind holds its oldest tick and drops the rest, as
// time.Ticker does, and those drops cost nothing (see the package
// documentation). In a bubble (see Test), the goroutines of the bubble
// settle before the first instant and after each one.
//
// Advances add up: the Fake's time is its start plus the sum of every
// Advance and AdvanceNext, whichever goroutines call them and in whatever
// order, and also when an AfterFunc callback advances inside another
// Advance. Each call returns once the time has reached at least the sum of
// the advances made before it returned. A negative d, or one that would
// take the time past start + math.MaxInt64 nanoseconds, is refused with an
// error, and nothing changes.
func (f *Fake) Advance(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("fakeclock: Advance(%v): time never moves backwards", d)
	}
	f.settle()
	f.mu.Lock()
	base := max(f.goal, f.now.Load())
	if int64(d) > math.MaxInt64-base {
		f.mu.Unlock()
		return fmt.Errorf("fakeclock: Advance(%v): the time would pass the largest a Fake holds, start+%v; it stays at start+%v",
			d, time.Duration(math.MaxInt64), time.Duration(base))
	}
	f.goal = base + int64(d)
	target := f.goal
	f.mu.Unlock()
	f.advanceTo(target)
	return nil
}

// AdvanceNext moves the Fake's time to its next armed event, fires every
// event due at that instant and returns how far time moved. If nothing is
// armed, it returns 0, false, and time does not move. (While another
// goroutine's Advance is under way, the next event is counted from the
// time that Advance reaches.)
func (f *Fake) AdvanceNext() (time.Duration, bool) {
	f.settle()
	f.mu.Lock()
	if len(f.heap) == 0 {
		f.mu.Unlock()
		return 0, false
	}
	now := f.now.Load()
	next := max(f.heap[0].when, f.goal, now)
	f.goal = next
	f.mu.Unlock()
	f.advanceTo(next)
	return time.Duration(next - now), true
}

func (f *Fake) advanceTo(target int64) {
	for f.fire(target) {
		f.settle()
	}
}

// settle lets the other goroutines of the bubble run until they block.
// synctest.Wait must not be called by two goroutines of a bubble at once,
// so in a bubble one goroutine at a time may advance the Fake.
func (f *Fake) settle() {
	if f.bubble {
		synctest.Wait()
	}
}

// fire fires the earliest instant if it is at or before target, and
// reports whether there was one. Channel values are sent under sendMu
// only, never blocking; callbacks run after it is released.
func (f *Fake) fire(target int64) bool {
	f.sendMu.Lock()
	f.mu.Lock()
	f.skipDroppedLocked(target)
	if len(f.heap) == 0 || f.heap[0].when > target {
		// Nothing due: the time reaches target, under the lock that arming
		// takes, so that no timer can be armed in the past.
		if target > f.now.Load() {
			f.now.Store(target)
		}
		f.mu.Unlock()
		f.sendMu.Unlock()
		return false
	}
	f.instants++
	at := f.heap[0].when
	if at > f.now.Load() {
		f.now.Store(at)
	}
	due := f.takeDueLocked(at)
	f.mu.Unlock()

	v := f.at(at)
	for _, t := range due {
		if t.c != nil {
			select {
			case t.c <- v:
			default: // a ticker's reader is behind: drop the tick, as time.Ticker does
			}
		}
	}
	f.sendMu.Unlock()
	for _, t := range due {
		if t.fn != nil {
			t.fn()
		}
	}

	clear(due)
	f.mu.Lock()
	if f.batch == nil {
		f.batch = due[:0]
	}
	f.mu.Unlock()
	return true
}

// takeDueLocked disarms the timers due at at, re-arms the tickers among
// them, and returns them in arming order. A few due timers are popped one
// by one, O(log n) each; when many are due at once, as in a fleet of loops
// started together, they are updated in place and the heap rebuilt in
// O(n), which is cheaper.
func (f *Fake) takeDueLocked(at int64) []*timer {
	due := f.batch[:0]
	f.batch = nil // a callback that advances gets its own
	due, f.queue = f.heap.due(at, due, f.queue)
	if len(due) < 8 || len(due)*bits.Len(uint(len(f.heap))) < 2*len(f.heap) {
		due = due[:0]
		for len(f.heap) > 0 && f.heap[0].when == at {
			t := f.heap.remove(0)
			due = append(due, t)
		}
		for _, t := range due {
			if rearms(t, at) {
				f.rearmLocked(t, at)
				f.heap.push(t)
			}
		}
		return due
	}
	slices.SortFunc(due, func(a, b *timer) int { return cmp.Compare(a.seq, b.seq) })
	for _, t := range due {
		if rearms(t, at) {
			f.rearmLocked(t, at)
		} else {
			t.idx = -1
		}
	}
	f.heap.rebuild()
	return due
}

// rearms reports whether t is a ticker with a next tick: none comes after
// the largest time, where a ticker stops rather than fire forever.
func rearms(t *timer, at int64) bool { return t.period > 0 && at < math.MaxInt64 }

// rearmLocked sets a ticker that fired at at to its next tick.
func (f *Fake) rearmLocked(t *timer, at int64) {
	t.when = addSat(at, t.period)
	t.seq = f.seq
	f.seq++
}

// WaitArmed blocks until at least n timers, tickers, AfterFunc calls and
// sleeps are armed on the Fake, which is how a test outside a bubble knows
// that a goroutine has reached its timer before it advances. If ctx ends
// first, the error lists every armed event and where each was made, so a
// test that would deadlock fails with the reason instead.
func (f *Fake) WaitArmed(ctx context.Context, n int) error {
	if n < 0 {
		return fmt.Errorf("fakeclock: WaitArmed(%d): n must be >= 0", n)
	}
	if ctx == nil {
		return fmt.Errorf("fakeclock: WaitArmed(nil, %d): a nil context; pass one that ends, such as t.Context()", n)
	}
	f.mu.Lock()
	if len(f.heap) >= n {
		f.mu.Unlock()
		return nil
	}
	w := &armWaiter{n: n, done: make(chan struct{})}
	f.waiters = append(f.waiters, w)
	f.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-w.done: // made it after all
		return nil
	default:
	}
	f.waiters = slices.DeleteFunc(f.waiters, func(x *armWaiter) bool { return x == w })
	return &waitError{want: n, err: ctx.Err(), report: f.reportLocked()}
}

func (f *Fake) wakeWaitersLocked() {
	f.waiters = slices.DeleteFunc(f.waiters, func(w *armWaiter) bool {
		if len(f.heap) < w.n {
			return false
		}
		close(w.done) // closing never blocks
		return true
	})
}

// reportLocked describes every armed event in time order.
func (f *Fake) reportLocked() string {
	armed := slices.Clone(f.heap)
	slices.SortFunc(armed, func(a, b *timer) int {
		return cmp.Or(cmp.Compare(a.when, b.when), cmp.Compare(a.seq, b.seq))
	})
	now := f.now.Load()
	var b strings.Builder
	fmt.Fprintf(&b, "at %v (start+%v), %d armed", f.at(now).Format(time.RFC3339Nano), time.Duration(now), len(armed))
	for _, t := range armed {
		fmt.Fprintf(&b, "\n\t%v", t.kind)
		if t.period > 0 {
			fmt.Fprintf(&b, " every %v", time.Duration(t.period))
		}
		fmt.Fprintf(&b, ", due at start+%v (in %v), made at %s", time.Duration(t.when), time.Duration(t.when-now), site(t.pc))
	}
	return b.String()
}

type waitError struct {
	want   int
	err    error
	report string
}

func (e *waitError) Error() string {
	return fmt.Sprintf("fakeclock: waiting for %d armed: %v; %s", e.want, e.err, e.report)
}

func (e *waitError) Unwrap() error { return e.err }

// callerPC returns the program counter of the code that called the
// exported method of f that calls callerPC, for WaitArmed's report. A
// fleet's copies record none: nobody waits on their Fakes, and walking
// the stack at every timer cost a twentieth of a fleet's time.
func (f *Fake) callerPC() uintptr {
	if f.noSites {
		return 0
	}
	var pc [1]uintptr
	runtime.Callers(3, pc[:]) // runtime.Callers, callerPC, the method, its caller
	return pc[0]
}

func site(pc uintptr) string {
	if pc == 0 {
		return "unknown"
	}
	fr, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if fr.File == "" {
		return "unknown"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(fr.File), fr.Line)
}

// addSat returns a+b (b >= 0), capped at the largest time, as package time
// caps a timer's due time.
func addSat(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}
