package fakeclock

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Each test here is named after a bug seen in a peer fake clock.

const period = time.Second

// advance fails the test if Advance refuses.
func advance(t *testing.T, c *Fake, d time.Duration) {
	t.Helper()
	if err := c.Advance(d); err != nil {
		t.Fatal(err)
	}
}

// tickLoop is a plain ticker loop: it reads tick after tick and
// reports each tick's stamp and the time it saw it, until ctx ends.
func tickLoop(ctx context.Context, c Clock, d time.Duration, out chan<- [2]time.Time) {
	tk := c.NewTicker(d)
	defer tk.Stop()
	for {
		select {
		case v := <-tk.C:
			out <- [2]time.Time{v, c.Now()}
		case <-ctx.Done():
			return
		}
	}
}

// The naive test: start the loop, then Advance at once. Injected fakes
// lose this tick in almost every run because the loop has not made its
// ticker yet; in a bubble it arrives every time.
func TestLostFirstTick(t *testing.T) {
	for range 300 {
		Test(t, func(t *testing.T, c *Fake) {
			out := make(chan [2]time.Time, 1)
			go tickLoop(t.Context(), c, period, out)
			advance(t, c, period)
			select {
			case got := <-out:
				if want := c.start.Add(period); !got[0].Equal(want) {
					t.Fatalf("tick stamped %v, want %v", got[0], want)
				}
			default:
				t.Fatal("the first tick was lost")
			}
		})
	}
}

// Outside a bubble, WaitArmed is what makes the same test deterministic.
func TestLostFirstTickOutsideBubble(t *testing.T) {
	for range 300 {
		c := NewFake(time.Unix(0, 0))
		ctx, cancel := context.WithCancel(context.Background())
		out := make(chan [2]time.Time, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			tickLoop(ctx, c, period, out)
		}()
		if err := c.WaitArmed(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		advance(t, c, period)
		if got := <-out; !got[0].Equal(time.Unix(1, 0)) {
			t.Fatalf("tick stamped %v, want %v", got[0], time.Unix(1, 0))
		}
		cancel()
		<-done
	}
}

// Advance over five periods delivers five ticks to a live loop, stamped
// d..5d and each seen while Now is its stamp; a peer delivers one.
func TestAdvanceSeveralPeriods(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		out := make(chan [2]time.Time, 10)
		go tickLoop(t.Context(), c, period, out)
		advance(t, c, 5*period)
		if len(out) != 5 {
			t.Fatalf("got %d ticks over 5 periods, want 5", len(out))
		}
		for k := 1; k <= 5; k++ {
			got := <-out
			want := c.start.Add(time.Duration(k) * period)
			if !got[0].Equal(want) || !got[1].Equal(want) {
				t.Errorf("tick %d stamped %v, seen at %v; want both %v", k, got[0], got[1], want)
			}
		}
	})
}

// A ticker nobody reads holds the oldest tick and drops the rest, and
// keeps its phase: the next tick after reading is at the next multiple.
func TestUnreadTicker(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tk := c.NewTicker(period)
	advance(t, c, 5*period+period/2)
	if got := <-tk.C; !got.Equal(time.Unix(1, 0)) {
		t.Fatalf("pending tick stamped %v, want the oldest, %v", got, time.Unix(1, 0))
	}
	if len(tk.C) != 0 {
		t.Fatal("more than one tick was kept")
	}
	advance(t, c, period/4)
	if len(tk.C) != 0 {
		t.Fatal("a tick arrived off phase")
	}
	advance(t, c, period/4)
	if got := <-tk.C; !got.Equal(time.Unix(6, 0)) {
		t.Fatalf("next tick stamped %v, want %v (phase kept)", got, time.Unix(6, 0))
	}
}

// A timer that fired and whose value nobody received is still pending for
// Stop and Reset (Go 1.23 semantics): both return true and discard it.
func TestStopFiredUnreceivedTimer(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tm := c.NewTimer(period)
	advance(t, c, period)
	if !tm.Stop() {
		t.Error("Stop of a fired, unreceived timer returned false, want true")
	}
	if len(tm.C) != 0 {
		t.Error("Stop left the stale value in C")
	}
	if tm.Stop() {
		t.Error("a second Stop returned true")
	}
	advance(t, c, 10*period)
	if len(tm.C) != 0 {
		t.Error("a stopped timer fired")
	}
}

func TestResetFiredUnreceivedTimer(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tm := c.NewTimer(period)
	advance(t, c, period)
	if !tm.Reset(period) {
		t.Error("Reset of a fired, unreceived timer returned false, want true")
	}
	if len(tm.C) != 0 {
		t.Fatal("Reset left the stale value in C")
	}
	advance(t, c, period)
	if got := <-tm.C; !got.Equal(time.Unix(2, 0)) {
		t.Errorf("reset timer stamped %v, want %v", got, time.Unix(2, 0))
	}
	if tm.Reset(period) {
		t.Error("Reset of a fired, received timer returned true, want false")
	}
}

// Reset then Stop must leave a ticker stopped: a peer kept ticking.
func TestTickerResetThenStop(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tk := c.NewTicker(period)
	advance(t, c, period)
	tk.Reset(2 * period)
	if len(tk.C) != 0 {
		t.Fatal("Reset left the pending tick")
	}
	tk.Stop()
	advance(t, c, 10*period)
	if len(tk.C) != 0 {
		t.Fatal("a ticker reset then stopped kept ticking")
	}
	if _, ok := c.AdvanceNext(); ok {
		t.Fatal("a stopped ticker is still armed")
	}
}

// A goroutine resets a fired timer it never read while another advances:
// two peers deadlock here. Run under -race; a deadlock shows as a test
// timeout.
func TestResetWithoutReadingConcurrentAdvance(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tm := c.NewTimer(period)
	tk := c.NewTicker(period)
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 2000 {
			tm.Reset(period)
			tk.Reset(period)
		}
	})
	wg.Go(func() {
		for range 2000 {
			advance(t, c, period)
		}
	})
	wg.Wait()
	tm.Stop()
	tk.Stop()
	if len(tm.C) != 0 || len(tk.C) != 0 {
		t.Fatal("Stop left a value in C")
	}
}

// Callbacks run with no lock held, so they may use the clock: a peer
// deadlocked on the first of these calls.
func TestCallbacksCallBackIntoClock(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	var log []string
	note := func(s string) { log = append(log, c.Since(time.Unix(0, 0)).String()+" "+s) }
	victim := c.AfterFunc(3*period, func() { note("victim") })
	var self *Timer
	runs := 0
	self = c.AfterFunc(period, func() {
		note("self")
		if runs++; runs > 1 {
			return
		}
		if self.Stop() {
			t.Error("Stop of the running callback's own timer returned true")
		}
		if !victim.Stop() {
			t.Error("Stop of a pending timer from a callback returned false")
		}
		if self.Reset(period) { // runs again at 2s
			t.Error("Reset of the running callback's own timer returned true")
		}
		c.AfterFunc(period/2, func() { note("nested") })
	})
	ticker := c.NewTicker(period)
	c.AfterFunc(4*period, func() {
		note("advancing from a callback")
		advance(t, c, period) // nested Advance adds 1s: it fires the ticker at 5s, 6s, 7s
		ticker.Stop()
	})
	advance(t, c, 6*period)
	want := []string{"1s self", "1.5s nested", "2s self", "4s advancing from a callback"}
	if strings.Join(log, "; ") != strings.Join(want, "; ") {
		t.Errorf("callbacks saw\n%v\nwant\n%v", log, want)
	}
	// Advances add up, nested ones too.
	if got := c.Since(time.Unix(0, 0)); got != 7*period {
		t.Errorf("time after nested advance %v, want 7s", got)
	}
}

func TestZeroDurationFiresWithoutAdvance(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		tm := c.NewTimer(0)
		select {
		case v := <-tm.C:
			if !v.Equal(c.Now()) {
				t.Errorf("NewTimer(0) sent %v, want now %v", v, c.Now())
			}
		default:
			t.Error("NewTimer(0) did not fire without an Advance")
		}
		ran := false
		c.AfterFunc(0, func() { ran = true })
		synctest.Wait()
		if !ran {
			t.Error("AfterFunc(0) did not run without an Advance")
		}
		if tm.Reset(-time.Second) {
			t.Error("Reset of a received timer returned true")
		}
		if len(tm.C) != 1 {
			t.Error("Reset(-1s) did not fire at once")
		}
	})
}

func TestAdvanceBackwardsRefused(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	fired := false
	c.AfterFunc(period, func() { fired = true })
	err := c.Advance(-period)
	if err == nil || !strings.Contains(err.Error(), "backwards") {
		t.Fatalf("Advance(-1s) = %v, want an error saying time never moves backwards", err)
	}
	if !c.Now().Equal(time.Unix(0, 0)) || fired {
		t.Fatal("a refused Advance changed something")
	}
}

func TestAdvanceNext(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	if d, ok := c.AdvanceNext(); ok || d != 0 {
		t.Fatalf("AdvanceNext with nothing armed = %v, %v; want 0, false", d, ok)
	}
	c.NewTimer(3 * period)
	tk := c.NewTicker(2 * period)
	var got []time.Duration
	for range 4 {
		d, ok := c.AdvanceNext()
		if !ok {
			t.Fatal("AdvanceNext found nothing armed")
		}
		got = append(got, d)
	}
	tk.Stop()
	want := []time.Duration{2 * period, period, period, 2 * period} // 2s ticker, 3s timer, 4s, 6s
	if !equalDurations(got, want) {
		t.Errorf("AdvanceNext went %v, want %v", got, want)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A wait that cannot succeed reports every armed event, with the line
// that made it, instead of hanging: inside a bubble the context's timeout
// passes as soon as everything is blocked.
func TestWaitArmedReportsArmed(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		tk := c.NewTicker(period) // line A
		defer tk.Stop()
		c.AfterFunc(3*period, func() {}) // line B
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		err := c.WaitArmed(ctx, 3)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("WaitArmed = %v, want an error wrapping context.DeadlineExceeded", err)
		}
		for _, want := range []string{"waiting for 3 armed", "2 armed", "ticker every 1s, due at start+1s", "AfterFunc, due at start+3s", "pitfall_test.go:"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("report lacks %q:\n%v", want, err)
			}
		}
		if err := c.WaitArmed(ctx, 2); err != nil {
			t.Errorf("WaitArmed(2) with 2 armed = %v", err)
		}
		if err := c.WaitArmed(ctx, -1); err == nil {
			t.Error("WaitArmed(-1) accepted")
		}
	})
}

func TestWaitArmedWakesOnArm(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		go func() {
			c.Sleep(period)
		}()
		if err := c.WaitArmed(t.Context(), 1); err != nil {
			t.Fatal(err)
		}
		advance(t, c, period)
	})
}

func TestWithDeadlineAfterATimeout(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		ctx, cancel := c.WithDeadline(t.Context(), c.Now().Add(2*period))
		defer cancel()
		child, cancelChild := context.WithCancel(ctx)
		defer cancelChild()
		if dl, ok := ctx.Deadline(); !ok || !dl.Equal(c.Now().Add(2*period)) {
			t.Errorf("Deadline = %v, %v", dl, ok)
		}
		advance(t, c, 2*period-1)
		if ctx.Err() != nil {
			t.Fatalf("Err before the deadline = %v", ctx.Err())
		}
		advance(t, c, 1)
		select {
		case <-ctx.Done():
		default:
			t.Fatal("not done at the deadline")
		}
		if ctx.Err() != context.DeadlineExceeded || child.Err() != context.DeadlineExceeded {
			t.Errorf("Err = %v, child Err = %v; want context.DeadlineExceeded", ctx.Err(), child.Err())
		}
		if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Errorf("Cause = %v", context.Cause(ctx))
		}
	})
}

func TestWithDeadlineCanceled(t *testing.T) {
	Test(t, func(t *testing.T, c *Fake) {
		ctx, cancel := c.WithDeadline(t.Context(), c.Now().Add(period))
		cancel()
		if ctx.Err() != context.Canceled {
			t.Errorf("Err after cancel = %v, want context.Canceled", ctx.Err())
		}
		parent, cancelParent := context.WithCancel(t.Context())
		ctx, cancel = c.WithDeadline(parent, c.Now().Add(period))
		defer cancel()
		cancelParent()
		<-ctx.Done()
		if ctx.Err() != context.Canceled {
			t.Errorf("Err after the parent's cancel = %v, want context.Canceled", ctx.Err())
		}
		past, cancel := c.WithDeadline(t.Context(), c.Now())
		defer cancel()
		if past.Err() != context.DeadlineExceeded {
			t.Errorf("Err of a past deadline = %v", past.Err())
		}
		if _, ok := c.AdvanceNext(); ok {
			t.Error("a finished context left its timer armed")
		}
	})
}

func TestNonPositiveTickerPanics(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	for name, f := range map[string]func(){
		"NewTicker":      func() { c.NewTicker(0) },
		"Ticker.Reset":   func() { c.NewTicker(period).Reset(-1) },
		"zero Timer":     func() { new(Timer).Stop() },
		"zero Ticker":    func() { new(Ticker).Stop() },
		"zero Timer Rst": func() { new(Timer).Reset(1) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "fakeclock:") {
					t.Errorf("%s: recovered %v, want a fakeclock panic as package time panics", name, r)
				}
			}()
			f()
		}()
	}
	if c.Tick(0) != nil {
		t.Error("Tick(0) != nil")
	}
}

// Real is package time: in a bubble, its clock is the bubble's.
func TestRealInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := Real()
		start := c.Now()
		tick := c.Tick(period)
		c.Sleep(period / 2)
		if got := <-tick; got.Sub(start) != period {
			t.Errorf("Tick stamped %v after start, want %v", got.Sub(start), period)
		}
		if c.Since(start) != period || c.Until(start.Add(3*period)) != 2*period {
			t.Errorf("Since = %v, Until = %v", c.Since(start), c.Until(start.Add(3*period)))
		}
		if c.Tick(0) != nil {
			t.Error("Tick(0) != nil")
		}
		ctx, cancel := c.WithDeadline(t.Context(), start.Add(2*period))
		defer cancel()
		<-ctx.Done()
		if c.Since(start) != 2*period || ctx.Err() != context.DeadlineExceeded {
			t.Errorf("deadline at %v with %v", c.Since(start), ctx.Err())
		}
	})
}
