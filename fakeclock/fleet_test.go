package fakeclock_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

const interval = time.Second

// jitterTicker is the loop of the tests: a ticker, and a random sleep in
// [0, interval) before each event.
func jitterTicker(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
	tick := c.NewTicker(interval)
	defer tick.Stop()
	for {
		t := c.NewTimer(time.Duration(r.Int64N(int64(interval))))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
		event()
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// jitterTickerSchedule is jitterTicker's schedule: event k at k*interval + d_k
// from the copy's start.
func jitterTickerSchedule(r *rand.Rand) func(time.Duration) time.Duration {
	k, start := -1, time.Duration(0)
	return func(last time.Duration) time.Duration {
		if k++; k == 0 {
			start = last
		}
		return start + time.Duration(k)*interval + time.Duration(r.Int64N(int64(interval)))
	}
}

// want computes each copy's events from its draws, apart from both forms.
func want(fl fakeclock.Fleet) [][]time.Duration {
	events := make([][]time.Duration, fl.Loops)
	for i := range events {
		r := rand.New(rand.NewPCG(fl.Seed, uint64(i)))
		for k := time.Duration(0); ; k++ {
			at := k*interval + time.Duration(r.Int64N(int64(interval)))
			if at > fl.For {
				break
			}
			events[i] = append(events[i], at)
		}
	}
	return events
}

func TestFleetRun(t *testing.T) {
	fl := fakeclock.Fleet{Loops: 100, Seed: 7, For: 20 * interval}
	got, err := fl.Run(t, jitterTicker)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want(fl), got); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	again, _ := fl.Run(t, jitterTicker)
	if !slices.EqualFunc(got, again, slices.Equal) {
		t.Error("two runs of one seed differ")
	}
}

func TestFleetRunSchedule(t *testing.T) {
	for _, loops := range []int{1, 3, 300} {
		fl := fakeclock.Fleet{Loops: loops, Seed: 8, For: 30 * interval}
		got, err := fl.RunSchedule(jitterTickerSchedule)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want(fl), got); d != "" {
			t.Errorf("%d loops: events (-want +got):\n%s", loops, d)
		}
	}
}

// The Sink gets every event once, in time order, ties in copy order, from
// both forms; with a stagger, the copies start apart and the same in both.
func TestFleetSink(t *testing.T) {
	for _, stagger := range []time.Duration{0, interval / 3} {
		fl := fakeclock.Fleet{Loops: 100, Seed: 9, For: 20 * interval, Stagger: stagger}
		perLoop, err := fl.RunSchedule(jitterTickerSchedule)
		if err != nil {
			t.Fatal(err)
		}
		type ev struct {
			At   time.Duration
			Loop int
		}
		var want []ev
		for i, es := range perLoop {
			for _, at := range es {
				want = append(want, ev{at, i})
			}
		}
		slices.SortStableFunc(want, func(a, b ev) int {
			if a.At != b.At {
				return int(a.At - b.At)
			}
			return a.Loop - b.Loop
		})
		for _, form := range []string{"Run", "RunSchedule"} {
			var got []ev
			fl.Sink = func(loop int, at time.Duration) { got = append(got, ev{at, loop}) }
			var events [][]time.Duration
			if form == "Run" {
				events, err = fl.Run(t, jitterTicker)
			} else {
				events, err = fl.RunSchedule(jitterTickerSchedule)
			}
			fl.Sink = nil
			if err != nil || events != nil {
				t.Fatalf("%s with a Sink: %v, %d event lists", form, err, len(events))
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("stagger %v, %s: sink events (-want +got):\n%s", stagger, form, d)
			}
		}
		if stagger > 0 {
			for i, es := range perLoop {
				if len(es) > 0 && es[0] >= stagger+interval {
					t.Fatalf("loop %d starts at %v with a stagger of %v", i, es[0], stagger)
				}
			}
		}
	}
}

// Starts gives each copy the start that Run and RunSchedule give it: a loop
// whose first event is at its start shows it, lockstep and staggered.
func TestFleetStarts(t *testing.T) {
	atStart := func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		event()
		<-ctx.Done()
	}
	once := func(*rand.Rand) func(time.Duration) time.Duration {
		first := true
		return func(last time.Duration) time.Duration {
			if first {
				first = false
				return last
			}
			return 1<<63 - 1
		}
	}
	for _, stagger := range []time.Duration{0, interval / 3} {
		fl := fakeclock.Fleet{Loops: 50, Seed: 12, For: interval, Stagger: stagger}
		starts, err := fl.Starts()
		if err != nil || len(starts) != fl.Loops {
			t.Fatalf("stagger %v: %d starts, %v", stagger, len(starts), err)
		}
		code, err := fl.Run(t, atStart)
		if err != nil {
			t.Fatal(err)
		}
		model, err := fl.RunSchedule(once)
		if err != nil {
			t.Fatal(err)
		}
		var want [][]time.Duration
		for _, s := range starts {
			want = append(want, []time.Duration{s})
		}
		if d := cmp.Diff(want, code); d != "" {
			t.Errorf("stagger %v: Run's first events (-Starts +Run):\n%s", stagger, d)
		}
		if d := cmp.Diff(want, model); d != "" {
			t.Errorf("stagger %v: RunSchedule's first events (-Starts +RunSchedule):\n%s", stagger, d)
		}
		if lo, hi := slices.Min(starts), slices.Max(starts); stagger > 0 && (lo < 0 || hi >= stagger || lo == hi) {
			t.Errorf("stagger %v: starts from %v to %v, want spread over [0, %v)", stagger, lo, hi, stagger)
		}
	}
	for _, fl := range []fakeclock.Fleet{{Loops: 0, For: interval}, {Loops: 3, For: interval, Stagger: -1}, {Loops: 3}} {
		if starts, err := fl.Starts(); err == nil {
			t.Errorf("%+v: starts %v and no error", fl, starts)
		}
	}
}

func TestFleetBadInput(t *testing.T) {
	loop := func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {}
	for _, tc := range []struct {
		fl   fakeclock.Fleet
		want string
	}{
		{fakeclock.Fleet{Loops: 0, For: interval}, "a fleet of 0 loops"},
		{fakeclock.Fleet{Loops: -5, For: interval}, "a fleet of -5 loops"},
		{fakeclock.Fleet{Loops: 1, For: 0}, "must be positive"},
		{fakeclock.Fleet{Loops: 1, For: -interval}, "must be positive"},
		{fakeclock.Fleet{Loops: 1, For: interval, Stagger: -1}, "stagger must be >= 0"},
	} {
		if _, err := tc.fl.Run(t, loop); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: Run error %v, want %q", tc.fl, err, tc.want)
		}
		if _, err := tc.fl.RunSchedule(jitterTickerSchedule); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: RunSchedule error %v, want %q", tc.fl, err, tc.want)
		}
	}
	fl := fakeclock.Fleet{Loops: 1, For: interval}
	if _, err := fl.Run(t, nil); err == nil {
		t.Error("Run(t, nil): no error")
	}
	if _, err := fl.RunSchedule(nil); err == nil {
		t.Error("RunSchedule(nil): no error")
	}
	if _, err := fl.RunSchedule(func(*rand.Rand) func(time.Duration) time.Duration { return nil }); err == nil {
		t.Error("a schedule with a nil next function: no error")
	}
}

// A loop that never makes an event is fine: zero events, no error.
func TestFleetSilentLoop(t *testing.T) {
	fl := fakeclock.Fleet{Loops: 3, For: interval}
	events, err := fl.Run(t, func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) { <-ctx.Done() })
	if err != nil || len(events) != 3 || len(events[0]) != 0 {
		t.Errorf("silent loops: %v, %v", events, err)
	}
	events, err = fl.RunSchedule(func(*rand.Rand) func(time.Duration) time.Duration {
		return func(time.Duration) time.Duration { return 1<<63 - 1 }
	})
	if err != nil || len(events) != 3 || len(events[2]) != 0 {
		t.Errorf("silent schedules: %v, %v", events, err)
	}
}

// A busy loop (events without time moving) and a panicking one stop with
// an error naming the copy and the seed, in both forms, never a hang.
func TestFleetFailingLoops(t *testing.T) {
	for _, tc := range []struct {
		name     string
		loop     fakeclock.Loop
		schedule func(*rand.Rand) func(time.Duration) time.Duration
		want     string
	}{
		{"busy", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
			if r.IntN(4) == 0 { // some copies spin at their first event
				for ctx.Err() == nil {
					event()
				}
			}
			<-ctx.Done()
		}, func(r *rand.Rand) func(time.Duration) time.Duration {
			spin := r.IntN(4) == 0
			return func(last time.Duration) time.Duration {
				if spin {
					return last
				}
				return 1<<63 - 1
			}
		}, "a busy loop"},
		{"panic", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
			c.Sleep(time.Duration(r.Int64N(int64(interval))))
			if r.IntN(10) == 0 {
				panic("boom")
			}
			<-ctx.Done()
		}, func(r *rand.Rand) func(time.Duration) time.Duration {
			d := time.Duration(r.Int64N(int64(interval)))
			boom := r.IntN(10) == 0
			return func(last time.Duration) time.Duration {
				if boom {
					panic("boom")
				}
				return last + d
			}
		}, "panic: boom"},
	} {
		fl := fakeclock.Fleet{Loops: 50, Seed: 11, For: interval}
		_, errRun := fl.Run(t, tc.loop)
		_, errSched := fl.RunSchedule(tc.schedule)
		fl.Sink = func(int, time.Duration) {}
		_, errStream := fl.RunSchedule(tc.schedule)
		_, errRunStream := fl.Run(t, tc.loop)
		for form, err := range map[string]error{"Run": errRun, "RunSchedule": errSched,
			"RunSchedule with a Sink": errStream, "Run with a Sink": errRunStream} {
			var fe *fakeclock.FleetError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "fleet seed 11") || !strings.Contains(err.Error(), "replays it") {
				t.Errorf("%s, %s: %v, want a FleetError saying %q with the seed", tc.name, form, err, tc.want)
			}
		}
	}
}

// Run spreads a fleet's tiles of 256 copies over a bubble per core: the
// events, and the copy an error names, must not depend on how many cores
// there are. Two copies panic, one in the second tile late and one in the
// third early: the error names the one in the first tile that fails,
// whichever bubble ran it, as one bubble running the tiles in order would.
func TestFleetRunOverCores(t *testing.T) {
	const tile = 256
	fl := fakeclock.Fleet{Loops: 4*tile + 30, Seed: 13, For: 10 * interval}
	failing := failAt(fl, map[int]time.Duration{tile + 5: 900 * time.Millisecond, 2*tile + 7: 100 * time.Millisecond})
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		events, err := fl.Run(t, jitterTicker)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want(fl), events); diff != "" {
			t.Errorf("GOMAXPROCS %d: events differ from the copies' draws (-want +got):\n%s", procs, diff)
		}
		_, err = fl.Run(t, failing)
		var fe *fakeclock.FleetError
		if !errors.As(err, &fe) || fe.Loop != tile+5 || fe.At != 900*time.Millisecond {
			t.Errorf("GOMAXPROCS %d: %v, want copy %d's panic at 900ms (the first tile that fails)", procs, err, tile+5)
		}
	}
}

// failAt returns a loop whose copies of fail panic at the given times, the
// others wait for the end. A copy knows itself by its first draw.
func failAt(fl fakeclock.Fleet, fail map[int]time.Duration) fakeclock.Loop {
	at := map[uint64]time.Duration{}
	for i, d := range fail {
		at[rand.New(rand.NewPCG(fl.Seed, uint64(i))).Uint64()] = d
	}
	return func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		if d, ok := at[r.Uint64()]; ok {
			c.Sleep(d)
			panic("boom")
		}
		<-ctx.Done()
	}
}
