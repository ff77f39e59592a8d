package loops

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

const interval = time.Second

// loop is one of the package's loops with its randomness bound.
type loop func(ctx context.Context, c fakeclock.Clock, do func())

// recorder collects event times (offsets from start).
type recorder struct {
	mu     sync.Mutex
	c      fakeclock.Clock
	start  time.Time
	events []time.Duration
}

func (r *recorder) do() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, r.c.Since(r.start))
}

// seeded returns the generator of a loop's draws; a test replays the draws
// from a second one with the same seed.
func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// draws returns the first n draws in [0, bound) of the generator seeded
// with seed: the loop's, replayed.
func draws(seed uint64, n int, bound time.Duration) []time.Duration {
	r := seeded(seed)
	ds := make([]time.Duration, n)
	for i := range ds {
		ds[i] = time.Duration(r.Int64N(int64(bound)))
	}
	return ds
}

func (r *recorder) result() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// onFake runs l on a Fake in a bubble for n intervals.
func onFake(t *testing.T, n int, l loop) (events []time.Duration) {
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		r := &recorder{c: c, start: c.Now()}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { l(ctx, c, r.do) })
		if err := c.Advance(time.Duration(n) * interval); err != nil {
			t.Fatal(err)
		}
		events = r.result()
		cancel()
		wg.Wait()
	})
	return events
}

// onTime runs l on package time in a synctest bubble for n intervals: the
// oracle for the same loop on the Fake.
func onTime(t *testing.T, n int, l loop) (events []time.Duration) {
	synctest.Test(t, func(t *testing.T) {
		c := fakeclock.Real()
		r := &recorder{c: c, start: c.Now()}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { l(ctx, c, r.do) })
		time.Sleep(time.Duration(n) * interval)
		synctest.Wait()
		events = r.result()
		cancel()
		wg.Wait()
	})
	return events
}

const seed = 20261129

// shapes are the package's loops, each bound to a generator seeded with
// seed, and the event times it must make up to until, computed from the
// same seed's draws independently of the loop.
var shapes = []struct {
	name string
	loop func(seed uint64) loop
	want func(seed uint64, until time.Duration) []time.Duration
}{
	{"SleepAfterWork", func(uint64) loop {
		return func(ctx context.Context, c fakeclock.Clock, do func()) { SleepAfterWork(ctx, c, interval, do) }
	}, func(_ uint64, until time.Duration) []time.Duration {
		return grid(0, interval, until)
	}},
	{"Ticker", func(uint64) loop {
		return func(ctx context.Context, c fakeclock.Clock, do func()) { Ticker(ctx, c, interval, do) }
	}, func(_ uint64, until time.Duration) []time.Duration {
		return grid(0, interval, until)
	}},
	{"RandomSleep", func(seed uint64) loop {
		r := seeded(seed)
		return func(ctx context.Context, c fakeclock.Clock, do func()) { RandomSleep(ctx, c, interval, r, do) }
	}, func(seed uint64, until time.Duration) []time.Duration {
		var want []time.Duration
		at := time.Duration(0)
		for _, d := range draws(seed, int(until/interval)*4+4, 2*interval) {
			if at > until {
				break
			}
			want = append(want, at)
			at += d
		}
		return want
	}},
	{"JitterTicker", func(seed uint64) loop {
		r := seeded(seed)
		return func(ctx context.Context, c fakeclock.Clock, do func()) { JitterTicker(ctx, c, interval, r, do) }
	}, func(seed uint64, until time.Duration) []time.Duration {
		var want []time.Duration
		for k, d := range draws(seed, int(until/interval)+1, interval) {
			if at := time.Duration(k)*interval + d; at <= until {
				want = append(want, at)
			}
		}
		return want
	}},
	{"ReoffsetTicker", func(seed uint64) loop {
		r := seeded(seed)
		return func(ctx context.Context, c fakeclock.Clock, do func()) { ReoffsetTicker(ctx, c, interval, r, do) }
	}, func(seed uint64, until time.Duration) []time.Duration {
		var want []time.Duration
		for m, d := range draws(seed, int(until/interval)/(Batch+1)+1, interval) {
			for j := range Batch {
				if at := time.Duration(m*(Batch+1)+j)*interval + d; at <= until {
					want = append(want, at)
				}
			}
		}
		return want
	}},
}

// grid returns first, first+step, ... up to until.
func grid(first, step, until time.Duration) []time.Duration {
	var g []time.Duration
	for at := first; at <= until; at += step {
		g = append(g, at)
	}
	return g
}

// Each loop's event times on the Fake are exactly the ones its shape
// implies for the draws it made.
func TestEventTimesExact(t *testing.T) {
	const n = 100 // intervals: three batches of ReoffsetTicker
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			events := onFake(t, n, s.loop(seed))
			want := s.want(seed, n*interval)
			if d := cmp.Diff(want, events); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if len(events) < n/2 {
				t.Errorf("only %d events in %d intervals", len(events), n)
			}
		})
	}
}

// The same loop on package time in a synctest bubble, through Real, makes
// the same events: moving a loop from time to a Clock changes nothing.
func TestSameAsPackageTime(t *testing.T) {
	const n = 70
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			gotFake := onFake(t, n, s.loop(seed))
			gotTime := onTime(t, n, s.loop(seed))
			if d := cmp.Diff(gotTime, gotFake); d != "" {
				t.Errorf("events (-time +fake):\n%s", d)
			}
		})
	}
}

// JitterTicker's k-th event is in [k*I, (k+1)*I), and gaps span 0 to 2I:
// the worst case of the story, forced with extreme draws.
func TestJitterTickerBounds(t *testing.T) {
	// Int64N(n) of the largest Uint64 is n-1; of 1, it is 0 (1*n needs no redraw).
	r := rand.New(&alternating{vals: []uint64{math.MaxUint64, 1}})
	extremes := func(ctx context.Context, c fakeclock.Clock, do func()) { JitterTicker(ctx, c, interval, r, do) }
	events := onFake(t, 10, extremes)
	if len(events) != 10 {
		t.Fatalf("got %d events in 10 intervals, want 10: %v", len(events), events)
	}
	for k, at := range events {
		if lo := time.Duration(k) * interval; at < lo || at >= lo+interval {
			t.Errorf("event %d at %v, outside [%v, %v)", k, at, lo, lo+interval)
		}
		if k > 0 {
			gap := at - events[k-1]
			want := time.Duration(1) // event 0 is late, 1 early: short after a late one...
			if k%2 == 0 {
				want = 2*interval - 1 // ...and long after an early one
			}
			if gap != want {
				t.Errorf("gap %d = %v, want %v", k, gap, want)
			}
		}
	}
}

// A fleet of jitter + ticker loops on one Fake, started in lockstep: every
// loop's k-th event is in its k-th interval, at the time its draw implies.
// One Fake settles the bubble at every instant of every loop: 100 loops in
// the normal run, 1,000 in the long one.
func TestFleetJitterTicker(t *testing.T) {
	loops, n := 100, 10
	if longtest.Enabled() {
		loops = 1000
	}
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		recs := make([]*recorder, loops)
		for i := range recs {
			r := &recorder{c: c, start: c.Now()}
			recs[i] = r
			rng := seeded(seed + uint64(i))
			wg.Go(func() { JitterTicker(ctx, c, interval, rng, r.do) })
		}
		if err := c.Advance(time.Duration(n)*interval - 1); err != nil {
			t.Fatal(err)
		}
		cancel()
		wg.Wait()
		for i, r := range recs {
			events, want := r.result(), draws(seed+uint64(i), n, interval)
			if len(events) != n {
				t.Fatalf("loop %d: %d events in %d intervals, want %d", i, len(events), n, n)
			}
			for k, at := range events {
				if w := time.Duration(k)*interval + want[k]; at != w {
					t.Fatalf("loop %d event %d at %v, want %v", i, k, at, w)
				}
			}
		}
	})
}

// alternating is a rand.Source that returns its values in turn, forever.
type alternating struct {
	vals []uint64
	k    int
}

func (a *alternating) Uint64() uint64 {
	v := a.vals[a.k%len(a.vals)]
	a.k++
	return v
}
