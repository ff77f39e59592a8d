package fakeclock

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Concurrent use and hostile input: each test here failed, hung or crashed before.

// Two Advances that overlap both count: the first blocks in a callback at
// 1ms until the second has returned, so they overlap on every run.
func TestConcurrentAdvancesAddUp(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	second := make(chan struct{})
	c.AfterFunc(time.Millisecond, func() {
		go func() {
			advance(t, c, time.Millisecond)
			close(second)
		}()
		<-second
	})
	advance(t, c, 2*time.Millisecond)
	if got := c.Since(time.Unix(0, 0)); got != 3*time.Millisecond {
		t.Errorf("Advance(2ms) and, overlapping it, Advance(1ms) moved the clock %v, want 3ms", got)
	}
}

// The stress test of the issue: two goroutines each advance 1ms a thousand
// times, with a ticker firing on the way, and the clock must move exactly
// 2s. Run it with -race; it runs in parallel with the other stress test.
func TestConcurrentAdvanceStress(t *testing.T) {
	t.Parallel()
	for range 20 {
		c := NewFake(time.Unix(0, 0))
		tk := c.NewTicker(time.Millisecond)
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				for range 1000 {
					advance(t, c, time.Millisecond)
					select {
					case <-tk.C:
					default:
					}
				}
			})
		}
		wg.Wait()
		tk.Stop()
		if got := c.Since(time.Unix(0, 0)); got != 2*time.Second {
			t.Fatalf("2 x 1000 x Advance(1ms) moved the clock %v, want 2s", got)
		}
	}
}

// Many goroutines arm, stop, read and advance at once; the clock must still
// move by the sum of the advances, and -race must stay quiet.
func TestConcurrentUseStress(t *testing.T) {
	t.Parallel()
	c := NewFake(time.Unix(0, 0))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			tk := c.NewTicker(time.Duration(g+1) * time.Microsecond)
			defer tk.Stop()
			for i := range 500 {
				tm := c.AfterFunc(time.Duration(i)*time.Nanosecond, func() { c.Now() })
				advance(t, c, time.Microsecond)
				tm.Stop()
				if i%7 == 0 {
					tk.Reset(time.Duration(g+2) * time.Microsecond)
				}
				select {
				case <-tk.C:
				default:
				}
			}
		})
	}
	wg.Wait()
	if got := c.Since(time.Unix(0, 0)); got != 4*500*time.Microsecond {
		t.Errorf("4 x 500 x Advance(1µs) moved the clock %v, want 2ms", got)
	}
}

// A 1ns ticker nobody reads, over an hour: the first tick waits, every
// other is dropped, and the drops cost no instants (3.6e12 before).
func TestDroppedTicksCostNothing(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tk := c.NewTicker(time.Nanosecond)
	advance(t, c, time.Hour)
	if c.instants > 1 {
		t.Errorf("%d instants fired for one tick delivered", c.instants)
	}
	if got := (<-tk.C).Sub(time.Unix(0, 0)); got != time.Nanosecond {
		t.Errorf("held tick at +%v, want the oldest, +1ns", got)
	}
	advance(t, c, time.Nanosecond) // phase kept: the next tick is the next nanosecond
	select {
	case v := <-tk.C:
		if got := v.Sub(time.Unix(0, 0)); got != time.Hour+time.Nanosecond {
			t.Errorf("tick after reading at +%v, want +1h0m0.000000001s", got)
		}
	default:
		t.Error("no tick after the reader caught up")
	}
}

// A reader that takes a tick and then sleeps a second on the Fake, on a
// 1ns ticker, in a bubble: it sees the tick held since it fell asleep, and
// the Fake fires a few instants per second, not a billion. Package time in
// a synctest bubble is the oracle.
func TestSlowReaderOfFastTicker(t *testing.T) {
	loop := func(ctx context.Context, c Clock, start time.Time, out *[]time.Duration) {
		tk := c.NewTicker(time.Nanosecond)
		defer tk.Stop()
		for {
			select {
			case v := <-tk.C:
				*out = append(*out, v.Sub(start))
				select { // sleep a second
				case <-c.After(time.Second):
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
	var want, got []time.Duration
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { loop(ctx, Real(), time.Now(), &want) })
		time.Sleep(10*time.Second + time.Millisecond)
		synctest.Wait()
		cancel()
		wg.Wait()
	})
	var instants int64
	Test(t, func(t *testing.T, c *Fake) {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { loop(ctx, c, c.Now(), &got) })
		advance(t, c, 10*time.Second+time.Millisecond)
		instants = c.instants
		cancel()
		wg.Wait()
	})
	if strings.Join(durations(want), " ") != strings.Join(durations(got), " ") {
		t.Errorf("ticks seen\non package time %v\non the Fake     %v", want, got)
	}
	if instants > 3*int64(len(got)) {
		t.Errorf("%d instants fired for %d ticks seen", instants, len(got))
	}
}

func durations(ds []time.Duration) []string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return s
}

func TestAdvancePastTheLargestTime(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	advance(t, c, math.MaxInt64-5)
	fired := false
	c.AfterFunc(3, func() { fired = true })
	err := c.Advance(10)
	if err == nil || !strings.Contains(err.Error(), "largest") {
		t.Errorf("Advance past start+MaxInt64 = %v, want an error", err)
	}
	if got := c.Since(time.Unix(0, 0)); got != math.MaxInt64-5 || fired {
		t.Errorf("a refused Advance moved the clock to +%v (fired %v)", got, fired)
	}
	advance(t, c, 5) // up to the largest time exactly is fine
	if !fired || c.Since(time.Unix(0, 0)) != math.MaxInt64 {
		t.Errorf("Advance to the largest time: at +%v, fired %v", c.Since(time.Unix(0, 0)), fired)
	}
}

func TestNilArguments(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	var none context.Context // nil on purpose
	if err := c.WaitArmed(none, 1); err == nil || !strings.Contains(err.Error(), "nil context") {
		t.Errorf("WaitArmed(nil, 1) = %v, want an error naming the nil context", err)
	}
	for name, f := range map[string]func(){
		"WithDeadline(nil, ...)": func() { c.WithDeadline(none, time.Unix(1, 0)) },
		"AfterFunc(1s, nil)":     func() { c.AfterFunc(time.Second, nil) },
		"Test(nil, f)":           func() { Test(nil, func(*testing.T, *Fake) {}) },
		"NewTicker(0)":           func() { c.NewTicker(0) },
		"Ticker{}.Stop()":        func() { (&Ticker{}).Stop() },
	} {
		msg := panicMessage(f)
		if !strings.HasPrefix(msg, "fakeclock: ") {
			t.Errorf("%s panicked with %q, want a message from fakeclock", name, msg)
		}
	}
}

func panicMessage(f func()) (msg string) {
	defer func() {
		p := recover()
		msg, _ = p.(string)
	}()
	f()
	return "no panic"
}

// TestNilTestFunc is run by TestTestNil in a child process, to watch
// Test(t, nil) fail the test instead of crashing the binary.
func TestNilTestFunc(t *testing.T) {
	if os.Getenv("FAKECLOCK_NIL_TEST") == "" {
		t.Skip("run by TestTestNil")
	}
	Test(t, nil)
}

func TestTestNil(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestNilTestFunc$", "-test.v")
	cmd.Env = append(os.Environ(), "FAKECLOCK_NIL_TEST=1")
	out, _ := cmd.CombinedOutput()
	s := string(out)
	if !strings.Contains(s, "--- FAIL: TestNilTestFunc") || !strings.Contains(s, "fakeclock: Test(t, nil)") ||
		strings.Contains(s, "panic:") {
		t.Errorf("Test(t, nil) should fail the test with a message, not crash:\n%s", s)
	}
}

// A fleet larger than memory is an error, not a crash: Loops: 1<<40 made
// Starts and RunSchedule allocate a slice per copy and die out of memory.
// The limit is 1<<20 copies, and a fleet of exactly that many still runs.
func TestFleetBeyondMemory(t *testing.T) {
	next := func(*rand.Rand) func(time.Duration) time.Duration {
		return func(time.Duration) time.Duration { return math.MaxInt64 }
	}
	for _, loops := range []int{1 << 40, 1<<20 + 1, math.MaxInt} {
		fl := Fleet{Loops: loops, For: time.Second, Stagger: time.Millisecond}
		if _, err := fl.Starts(); err == nil || !strings.Contains(err.Error(), "at most 1048576") {
			t.Errorf("Fleet{Loops: %d}.Starts() = %v, want an error that names the limit", loops, err)
		}
		if _, err := fl.RunSchedule(next); err == nil || !strings.Contains(err.Error(), "at most 1048576") {
			t.Errorf("Fleet{Loops: %d}.RunSchedule = %v, want an error that names the limit", loops, err)
		}
		if _, err := fl.Run(t, func(context.Context, Clock, *rand.Rand, func()) {}); err == nil {
			t.Errorf("Fleet{Loops: %d}.Run = nil error, want one that names the limit", loops)
		}
	}
	starts, err := Fleet{Loops: 1 << 20, For: time.Second}.Starts()
	if err != nil || len(starts) != 1<<20 {
		t.Errorf("Fleet{Loops: 1<<20}.Starts() = %d starts, %v; want 1<<20 starts", len(starts), err)
	}
}
