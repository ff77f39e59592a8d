package loops

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/spread"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// fleetShapes are the loops as fleet copies, each with its schedule, and the
// wrong ways whose fleets the claims run as schedules: TestSchedulesMatchLoops
// checks each schedule against its loop's code.
var fleetShapes = []struct {
	name     string
	loop     fakeclock.Loop
	schedule func(*rand.Rand) func(time.Duration) time.Duration
}{
	{"SleepAfterWork", func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, event func()) {
		SleepAfterWork(ctx, c, interval, event)
	}, SleepAfterWorkSchedule(interval)},
	{"Ticker", func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, event func()) {
		Ticker(ctx, c, interval, event)
	}, spread.Ticker(interval).Next},
	{"RandomSleep", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		RandomSleep(ctx, c, interval, r, event)
	}, spread.RandomSleep(interval).Next},
	{"JitterTicker", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		JitterTicker(ctx, c, interval, r, event)
	}, spread.JitterTicker(interval, interval).Next},
	{"JitterWindow/half", window(interval / 2), spread.JitterTicker(interval, interval/2).Next},
	{"JitterWindow/100ms", window(100 * time.Millisecond), spread.JitterTicker(interval, 100*time.Millisecond).Next},
	{"Reoffset", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		Reoffset(ctx, c, interval, r, event)
	}, spread.Reoffset(interval, Batch).Next},
	{"ReoffsetTicker", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		ReoffsetTicker(ctx, c, interval, r, event)
	}, spread.ReoffsetTicker(interval, Batch).Next},
	// The wrong ways whose fleets the claims run as schedules.
	{"jitterAfterWork", jitterAfterWork, spread.Ticker(interval).Next},
	{"reoffsetAfterBatch", reoffsetAfterBatch, reoffsetAfterBatchSchedule},
}

// window is JitterWindow over the given window as a fleet's loop.
func window(w time.Duration) fakeclock.Loop {
	return func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		JitterWindow(ctx, c, interval, w, r, event)
	}
}

// Each shape's schedule makes exactly the event times of its loop's code, copy by copy, started
// in lockstep and staggered, so that the model cannot drift from the code. The normal run
// compares small fleets on seeds from spread.Rand, new ones on every run (a main job of 200 runs
// compares 400 fleets per shape): 5 copies for 70 intervals, two batch boundaries of each
// re-offset loop. The long run compares three seeds of 50 copies for 200 intervals each.
func TestSchedulesMatchLoops(t *testing.T) {
	size := struct{ copies, intervals, seeds int }{5, 70, 1}
	if longtest.Enabled() {
		size.copies, size.intervals, size.seeds = 50, 200, 3
	}
	for _, s := range fleetShapes {
		t.Run(s.name, func(t *testing.T) {
			for range size.seeds {
				seed := spread.Rand(t).Uint64()
				for _, stagger := range []time.Duration{0, interval / 2} {
					fl := fakeclock.Fleet{Loops: size.copies, Seed: seed, For: time.Duration(size.intervals) * interval, Stagger: stagger}
					sameEvents(t, fl, s.loop, s.schedule, size.intervals/2)
				}
			}
		})
	}
}

// sameEvents fails t unless the fleet makes the same events from the loop's code and from its
// schedule, each copy at least least of them.
func sameEvents(t *testing.T, fl fakeclock.Fleet, loop fakeclock.Loop, s func(*rand.Rand) func(time.Duration) time.Duration, least int) {
	t.Helper()
	code, model := codeAndModel(t, fl, loop, s)
	if !slices.EqualFunc(code, model, slices.Equal) { // cmp.Diff on equal events would cost most of the test
		t.Fatalf("%+v: events (-code +schedule):\n%s", fl, cmp.Diff(code, model))
	}
	if n := len(code[0]); n < least {
		t.Fatalf("%+v: only %d events", fl, n)
	}
}

// codeAndModel returns the fleet's events from the loop's code and from its schedule.
func codeAndModel(t *testing.T, fl fakeclock.Fleet, loop fakeclock.Loop, s func(*rand.Rand) func(time.Duration) time.Duration) (code, model [][]time.Duration) {
	t.Helper()
	code, err := fl.Run(t, loop)
	if err != nil {
		t.Fatal(err)
	}
	model, err = fl.RunSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	return code, model
}

// A schedule written the wrong way (the jitter added to the last event, as
// a random sleep would, not to the ticker's grid) is caught by the
// comparison: the test can fail.
func TestScheduleMismatchCaught(t *testing.T) {
	wrong := func(r *rand.Rand) func(time.Duration) time.Duration {
		return func(last time.Duration) time.Duration { return last + interval + randN(r, interval) }
	}
	fl := fakeclock.Fleet{Loops: 5, Seed: 3, For: 20 * interval}
	if code, model := codeAndModel(t, fl, fleetShapes[3].loop, wrong); slices.EqualFunc(code, model, slices.Equal) {
		t.Error("a wrong schedule matched JitterTicker's code")
	}
}
