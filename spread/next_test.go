package spread_test

import (
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
