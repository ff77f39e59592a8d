package fakeclock

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// The differential test: rapid writes random programs of timers, tickers,
// AfterFuncs, contexts, sleeps, polls, stops, resets and advances; each
// runs on a Fake inside Test and on package time (through Real) inside
// synctest.Test, which is the oracle, and the event sequences must match.

const (
	unit = 500 * time.Millisecond // every timer and advance is a multiple
	// eps offsets a slow reader's sleeps so that it never wakes at the
	// instant a timer fires: the order of two events at one instant is
	// not defined by package time, so no program may depend on it.
	eps = time.Millisecond
	// fast is the period of a fast ticker, many of whose ticks are dropped
	// while its reader sleeps or nobody reads it: 1ms + 1ns, so that no
	// tick falls on a multiple of unit or at unit*k + eps after another tick
	// (unit is -500 and eps -1 modulo fast, and 500k + 1 is never 0 modulo
	// it for the k a program uses).
	fast = time.Millisecond + time.Nanosecond
)

type opKind int

const (
	opTimer opKind = iota
	opTicker
	opAfterFunc
	opAfter
	opTimeout
	opSleep
	opStop
	opReset
	opPoll
	opCancel
	opAdvance
	opResetStop // Reset(unit), Reset(D) and Stop of one timer at once, with no settle between
	numOps
)

var opNames = [...]string{"Timer", "Ticker", "AfterFunc", "After", "Timeout", "Sleep", "Stop", "Reset", "Poll", "Cancel", "Advance", "ResetStop"}

func (k opKind) String() string { return opNames[k] }

type op struct {
	Kind   opKind
	Target int           // which object Stop, Reset, Poll and Cancel act on
	D      time.Duration // duration of a timer, ticker, sleep, reset or advance
	Reader bool          // a goroutine reads the new channel (else the driver polls it)
	Slow   time.Duration // the reader sleeps this long after each receive
}

func (o op) String() string {
	s := fmt.Sprintf("%v(%v)", o.Kind, o.D)
	switch o.Kind {
	case opStop, opReset, opPoll, opCancel, opResetStop:
		s += fmt.Sprintf("@%d", o.Target)
	case opTimer, opTicker, opAfter:
		if o.Reader {
			s += fmt.Sprintf("+reader(slow %v)", o.Slow)
		}
	}
	return s
}

// event is one observation; At and Val are offsets from the start.
type event struct {
	At   time.Duration
	What string
	ID   int
	Val  time.Duration
	OK   bool
}

func genProgram(t *rapid.T, readers bool) []op {
	n := rapid.IntRange(1, 40).Draw(t, "n")
	prog := make([]op, n)
	for i := range prog {
		o := op{Kind: opKind(rapid.IntRange(0, int(numOps)-1).Draw(t, "kind"))}
		o.Target = rapid.IntRange(0, 1000).Draw(t, "target")
		o.D = unit * time.Duration(rapid.IntRange(0, 8).Draw(t, "d"))
		if o.Kind == opTicker && o.D == 0 {
			o.D = unit
		}
		if o.Kind == opTicker && rapid.IntRange(0, 3).Draw(t, "fast") == 0 {
			o.D = fast
		}
		if readers && (o.Kind == opTimer || o.Kind == opTicker || o.Kind == opAfter) {
			o.Reader = rapid.Bool().Draw(t, "reader")
			if o.Reader && rapid.Bool().Draw(t, "slow") {
				o.Slow = unit*time.Duration(rapid.IntRange(0, 6).Draw(t, "slowness")) + eps
			}
		}
		if !readers {
			// No goroutine but the driver: a sleep or a context needs a
			// goroutine to wait on it, and f runs in one when it is due
			// at once, as in package time.
			switch {
			case o.Kind == opSleep, o.Kind == opTimeout:
				o.Kind = opAdvance
			case o.Kind == opAfterFunc, o.Kind == opReset, o.Kind == opResetStop:
				o.D = max(o.D, unit)
			}
		}
		prog[i] = o
	}
	return prog
}

// object is what a program made: a timer, ticker, AfterFunc or context.
type object struct {
	timer  *Timer
	fn     bool // an AfterFunc's timer
	ticker *Ticker
	c      <-chan time.Time // polled by the driver; nil if a goroutine reads it
	cancel context.CancelFunc
}

// runProgram runs prog on c, calling advance to move time and settle to
// let the other goroutines run, and returns the sorted observations.
func runProgram(c Clock, advance func(time.Duration), settle func(), prog []op) []event {
	start := c.Now()
	var (
		mu     sync.Mutex
		evs    []event
		closed bool
		wg     sync.WaitGroup
	)
	done := make(chan struct{})
	rec := func(what string, id int, val time.Duration, ok bool) {
		at := c.Since(start)
		mu.Lock()
		defer mu.Unlock()
		if !closed {
			evs = append(evs, event{At: at, What: what, ID: id, Val: val, OK: ok})
		}
	}
	read := func(id int, ch <-chan time.Time, slow time.Duration) {
		wg.Go(func() {
			for {
				select {
				case v := <-ch:
					rec("recv", id, v.Sub(start), true)
					if slow > 0 {
						c.Sleep(slow)
					}
				case <-done:
					return
				}
			}
		})
	}
	var objs []*object
	pick := func(o op) (int, *object) {
		if len(objs) == 0 {
			return -1, nil
		}
		i := o.Target % len(objs)
		return i, objs[i]
	}
	for _, o := range prog {
		id := len(objs)
		switch o.Kind {
		case opTimer, opAfter:
			var ch <-chan time.Time
			ob := &object{}
			if o.Kind == opTimer {
				ob.timer = c.NewTimer(o.D)
				ch = ob.timer.C
			} else {
				ch = c.After(o.D)
			}
			if o.Reader {
				read(id, ch, o.Slow)
			} else {
				ob.c = ch
			}
			objs = append(objs, ob)
		case opTicker:
			ob := &object{ticker: c.NewTicker(o.D)}
			if o.Reader {
				read(id, ob.ticker.C, o.Slow)
			} else {
				ob.c = ob.ticker.C
			}
			objs = append(objs, ob)
		case opAfterFunc:
			objs = append(objs, &object{timer: c.AfterFunc(o.D, func() { rec("func", id, 0, true) }), fn: true})
		case opTimeout:
			ctx, cancel := c.WithDeadline(context.Background(), c.Now().Add(o.D))
			objs = append(objs, &object{cancel: cancel})
			wg.Go(func() {
				select {
				case <-ctx.Done():
					rec("ctx", id, 0, ctx.Err() == context.DeadlineExceeded)
				case <-done:
				}
			})
		case opSleep:
			wg.Go(func() {
				c.Sleep(o.D)
				rec("wake", id, o.D, true)
			})
		case opStop:
			if i, ob := pick(o); ob != nil {
				switch {
				case ob.timer != nil:
					rec("stop", i, 0, ob.timer.Stop())
				case ob.ticker != nil:
					ob.ticker.Stop()
					rec("stop", i, 0, false)
				}
			}
		case opReset:
			if i, ob := pick(o); ob != nil {
				switch {
				case ob.timer != nil:
					rec("reset", i, o.D, ob.timer.Reset(o.D))
				case ob.ticker != nil:
					ob.ticker.Reset(max(o.D, unit))
					rec("reset", i, o.D, false)
				}
			}
		case opResetStop:
			// The first Reset arms the timer, whatever it did before, so
			// that the second resets a pending timer: one that is due at
			// once, then stopped, as with package time. (A channel timer
			// whose value is due is another matter: package time makes
			// the value when it is received.)
			if i, ob := pick(o); ob != nil && ob.fn {
				ob.timer.Reset(unit)
				reset := ob.timer.Reset(o.D)
				stop := ob.timer.Stop()
				rec("reset", i, o.D, reset)
				rec("stop", i, 0, stop)
			}
		case opPoll:
			if i, ob := pick(o); ob != nil && ob.c != nil {
				select {
				case v := <-ob.c:
					rec("poll", i, v.Sub(start), true)
				default:
					rec("poll", i, 0, false)
				}
			}
		case opCancel:
			if _, ob := pick(o); ob != nil && ob.cancel != nil {
				ob.cancel()
			}
		case opAdvance:
			advance(o.D)
		}
		settle()
	}
	mu.Lock()
	closed = true
	mu.Unlock()
	close(done)
	advance(1000 * unit) // wake every sleeper
	wg.Wait()
	for _, ob := range objs {
		if ob.ticker != nil {
			ob.ticker.Stop()
		}
		if ob.cancel != nil {
			ob.cancel()
		}
	}
	slices.SortFunc(evs, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.What, b.What), cmp.Compare(a.ID, b.ID),
			cmp.Compare(a.Val, b.Val), cmpBool(a.OK, b.OK))
	})
	return evs
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// oracle runs prog on package time inside a synctest bubble.
func oracle(t *testing.T, prog []op) []event {
	var evs []event
	synctest.Test(t, func(*testing.T) {
		advance := func(d time.Duration) {
			time.Sleep(d)
			synctest.Wait()
		}
		evs = runProgram(Real(), advance, synctest.Wait, prog)
	})
	return evs
}

func onFake(t *testing.T, prog []op) []event {
	var evs []event
	Test(t, func(t *testing.T, c *Fake) {
		advance := func(d time.Duration) {
			if err := c.Advance(d); err != nil {
				t.Fatal(err)
			}
		}
		evs = runProgram(c, advance, synctest.Wait, prog)
	})
	return evs
}

func TestDifferentialBubble(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		prog := genProgram(rt, true)
		want := oracle(t, prog)
		got := onFake(t, prog)
		if d := gocmp.Diff(want, got); d != "" {
			rt.Fatalf("program %v\nFake differs from package time (-time +fake):\n%s", prog, d)
		}
	})
}

// Outside a bubble the driver goroutine does everything itself, so a
// program without goroutines is deterministic there too.
func TestDifferentialNoBubble(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		prog := genProgram(rt, false)
		want := oracle(t, prog)
		c := NewFake(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
		advance := func(d time.Duration) {
			if err := c.Advance(d); err != nil {
				t.Fatal(err)
			}
		}
		got := runProgram(c, advance, func() {}, prog)
		if d := gocmp.Diff(want, got); d != "" {
			rt.Fatalf("program %v\nFake differs from package time (-time +fake):\n%s", prog, d)
		}
	})
}

// An AfterFunc reset to be due at once (Reset(d <= 0)) while pending, and
// stopped at once, with no settle between: package time, in a bubble, has
// not run f yet, so Stop returns true and f never runs. The Fake ran f in a
// goroutine of its own at the Reset, and Stop returned false (77 of 20,000
// random programs of hostile calls differed, all in this case). A timer
// that is not pending, made with d <= 0 or reset after it fired, runs f at
// once in both. Each program runs on both and must match.
func TestDifferentialResetDueThenStop(t *testing.T) {
	for _, prog := range [][]op{
		{{Kind: opAfterFunc, D: unit}, {Kind: opResetStop}, {Kind: opAdvance, D: unit}},
		{{Kind: opAfterFunc, D: unit}, {Kind: opResetStop, D: -unit}, {Kind: opAdvance, D: 2 * unit}},
		{{Kind: opAfterFunc}, {Kind: opResetStop}, {Kind: opAdvance, D: unit}},
		{{Kind: opAfterFunc, D: 2 * unit}, {Kind: opAdvance, D: unit}, {Kind: opResetStop}, {Kind: opResetStop, D: unit}},
		{{Kind: opAfterFunc, D: unit}, {Kind: opReset}, {Kind: opStop}, {Kind: opAdvance, D: unit}},
		{{Kind: opAfterFunc, D: unit}, {Kind: opReset}, {Kind: opAdvance}, {Kind: opStop}},
		{{Kind: opAfterFunc, D: unit}, {Kind: opAdvance, D: unit}, {Kind: opReset}, {Kind: opStop}},
	} {
		want := oracle(t, prog)
		got := onFake(t, prog)
		if d := gocmp.Diff(want, got); d != "" {
			t.Errorf("program %v\nFake differs from package time (-time +fake):\n%s", prog, d)
		}
	}
}

// The same case with the Fake's own timer alone, outside the differential
// harness: Reset(0) of a pending AfterFunc, then Stop, in a bubble.
func TestResetDueThenStopNeverRuns(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		ran := make(chan struct{}, 1)
		tm := c.AfterFunc(time.Hour, func() { ran <- struct{}{} })
		if !tm.Reset(0) {
			t.Error("Reset(0) of a pending AfterFunc returned false, want true")
		}
		if !tm.Stop() {
			t.Error("Stop right after Reset(0) returned false, want true: package time has not run f yet")
		}
		synctest.Wait()
		if err := c.Advance(2 * time.Hour); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ran:
			t.Error("f ran after Reset(0) and Stop")
		default:
		}
	})
}
