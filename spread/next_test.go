package spread_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/spread"
)

// TestScheduleDrivesItsFleet: one declaration serves the run of a fleet and its check: a
// fleet (staggered over an interval, so that its loops are not in lockstep) driven by a
// Schedule's Next passes CheckFleet against that Schedule, for every shape, and fails it
// against another shape. (Before, a fleet test declared its schedule twice, once
// for fakeclock as a next-event function and once for spread.)
func TestScheduleDrivesItsFleet(t *testing.T) {
	const interval = time.Second
	for _, s := range []spread.Schedule{spread.Ticker(interval), spread.JitterTicker(interval, interval),
		spread.JitterTicker(interval, interval/4), spread.RandomSleep(interval), spread.Reoffset(interval, 8),
		spread.ReoffsetTicker(interval, 8)} {
		fl := fakeclock.Fleet{Loops: 200, Seed: 3, For: 200 * interval, Stagger: interval}
		events, err := fl.RunSchedule(s.Next)
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		starts, err := fl.Starts()
		if err != nil {
			t.Fatal(err)
		}
		if r, err := spread.AnalyzeFleet(events, s, fl.For, spread.LoopStarts(starts)); err != nil || r.Failed() {
			t.Errorf("%v: its own fleet fails its check (%v):\n%s", s, err, r)
		}
	}
	fl := fakeclock.Fleet{Loops: 200, Seed: 3, For: 200 * interval}
	events, err := fl.RunSchedule(spread.RandomSleep(interval).Next)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := spread.AnalyzeLoop(events[0], spread.Ticker(interval), fl.For); err != nil || !r.Failed() {
		t.Errorf("random sleeps checked as a ticker: passed (%v)", err)
	}
	_, err = fl.RunSchedule(spread.Schedule{}.Next)
	if err == nil || !strings.Contains(err.Error(), "zero Schedule") {
		t.Errorf("the zero Schedule's Next: %v, want its error", err)
	}
	next := spread.Ticker(interval).Next(rand.New(rand.NewPCG(1, 2)))
	if a, b := next(5), next(5); a != 5 || b != 5+interval {
		t.Errorf("Ticker's Next from 5ns: %v, %v; want 5ns, then one interval later", a, b)
	}
}

// FuzzScheduleNext: for any valid declaration and start, Next never panics and never goes
// back in time (fakeclock would stop the copy), whatever the interval, window and batch, up
// to the end of int64.
func FuzzScheduleNext(f *testing.F) {
	f.Add(uint8(0), int64(time.Second), int64(time.Second), 8, int64(0), uint64(1))
	f.Add(uint8(4), int64(1), int64(1), 1, int64(math.MaxInt64-3), uint64(2))
	f.Add(uint8(3), int64(math.MaxInt64/4), int64(1), 3, int64(5), uint64(3))
	f.Fuzz(func(t *testing.T, shape uint8, interval, window int64, batch int, start int64, seed uint64) {
		i, w := time.Duration(interval), time.Duration(window)
		s := []spread.Schedule{spread.Ticker(i), spread.JitterTicker(i, w), spread.RandomSleep(i),
			spread.Reoffset(i, batch), spread.ReoffsetTicker(i, batch)}[shape%5]
		if start < 0 {
			return
		}
		if _, err := spread.AnalyzeLoop([]time.Duration{0}, s, time.Second); err != nil && strings.Contains(err.Error(), s.String()) {
			return // an invalid declaration: its error names it
		}
		next := s.Next(rand.New(rand.NewPCG(seed, 1)))
		last := time.Duration(start)
		for range 200 {
			at := next(last)
			if at < last {
				t.Fatalf("%v from %v: an event at %v before the last", s, time.Duration(start), at)
			}
			if at == math.MaxInt64 {
				return
			}
			last = at
		}
	})
}
