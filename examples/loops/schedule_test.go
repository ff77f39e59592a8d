package loops

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// fleetShapes are the loops as fleet copies, each with its schedule.
var fleetShapes = []struct {
	name     string
	loop     fakeclock.Loop
	schedule fakeclock.Schedule
}{
	{"SleepAfterWork", func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, event func()) {
		SleepAfterWork(ctx, c, interval, event)
	}, SleepAfterWorkSchedule(interval)},
	{"Ticker", func(ctx context.Context, c fakeclock.Clock, _ *rand.Rand, event func()) {
		Ticker(ctx, c, interval, event)
	}, TickerSchedule(interval)},
	{"RandomSleep", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		RandomSleep(ctx, c, interval, r, event)
	}, RandomSleepSchedule(interval)},
	{"JitterTicker", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		JitterTicker(ctx, c, interval, r, event)
	}, JitterTickerSchedule(interval)},
	{"ReoffsetTicker", func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
		ReoffsetTicker(ctx, c, interval, r, event)
	}, ReoffsetTickerSchedule(interval)},
}

// Each shape's schedule makes exactly the event times of its loop's code,
// copy by copy, for several seeds, started in lockstep and staggered: the
// model cannot drift from the code.
func TestSchedulesMatchLoops(t *testing.T) {
	for _, s := range fleetShapes {
		t.Run(s.name, func(t *testing.T) {
			for _, run := range []struct {
				seed    uint64
				stagger time.Duration
			}{{1, 0}, {1, interval / 2}, {20261130, 0}} {
				fl := fakeclock.Fleet{Loops: 20, Seed: run.seed, For: 100 * interval, Stagger: run.stagger}
				code, err := fl.Run(t, s.loop)
				if err != nil {
					t.Fatal(err)
				}
				model, err := fl.RunSchedule(s.schedule)
				if err != nil {
					t.Fatal(err)
				}
				if len(code[0]) < 50 {
					t.Fatalf("%+v: only %d events in 100 intervals", run, len(code[0]))
				}
				if d := cmp.Diff(code, model); d != "" {
					t.Fatalf("%+v: events (-code +schedule):\n%s", run, d)
				}
			}
		})
	}
}

// A schedule written the wrong way (the jitter added to the last event, as
// a random sleep would, not to the ticker's grid) is caught by the
// comparison: the test can fail.
func TestScheduleMismatchCaught(t *testing.T) {
	wrong := func(r *rand.Rand) func(time.Duration) time.Duration {
		return func(last time.Duration) time.Duration { return last + interval + randN(r, interval) }
	}
	fl := fakeclock.Fleet{Loops: 5, Seed: 3, For: 20 * interval}
	code, err := fl.Run(t, fleetShapes[3].loop)
	if err != nil {
		t.Fatal(err)
	}
	model, err := fl.RunSchedule(wrong)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(code, model) {
		t.Error("a wrong schedule matched JitterTicker's code")
	}
}
