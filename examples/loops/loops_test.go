package loops

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

const interval = time.Second

// loop is one of the package's loops with its randomness bound.
type loop func(ctx context.Context, c fakeclock.Clock, do func())

// recorder collects event times (offsets from start) and random draws.
type recorder struct {
	mu     sync.Mutex
	c      fakeclock.Clock
	start  time.Time
	events []time.Duration
	draws  []time.Duration
}

func (r *recorder) do() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, r.c.Since(r.start))
}

// randN draws from a seeded source and records each draw.
func (r *recorder) randN(seed uint64) RandN {
	src := rand.New(rand.NewPCG(seed, 0x5eed))
	return func(n time.Duration) time.Duration {
		d := time.Duration(src.Int64N(int64(n)))
		r.mu.Lock()
		defer r.mu.Unlock()
		r.draws = append(r.draws, d)
		return d
	}
}

func (r *recorder) result() (events, draws []time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events), slices.Clone(r.draws)
}

// onFake runs l on a Fake in a bubble for n intervals.
func onFake(t *testing.T, n int, mk func(r *recorder) loop) (events, draws []time.Duration) {
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		r := &recorder{c: c, start: c.Now()}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { mk(r)(ctx, c, r.do) })
		if err := c.Advance(time.Duration(n) * interval); err != nil {
			t.Fatal(err)
		}
		events, draws = r.result()
		cancel()
		wg.Wait()
	})
	return events, draws
}

// onTime runs l on package time in a synctest bubble for n intervals: the
// oracle for the same loop on the Fake.
func onTime(t *testing.T, n int, mk func(r *recorder) loop) (events, draws []time.Duration) {
	synctest.Test(t, func(t *testing.T) {
		c := fakeclock.Real()
		r := &recorder{c: c, start: c.Now()}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { mk(r)(ctx, c, r.do) })
		time.Sleep(time.Duration(n) * interval)
		synctest.Wait()
		events, draws = r.result()
		cancel()
		wg.Wait()
	})
	return events, draws
}

const seed = 20261129

var shapes = []struct {
	name string
	mk   func(r *recorder) loop
	// want computes the event times from the draws, independently of the loop.
	want func(draws []time.Duration, until time.Duration) []time.Duration
}{
	{"SleepAfterWork", func(*recorder) loop {
		return func(ctx context.Context, c fakeclock.Clock, do func()) { SleepAfterWork(ctx, c, interval, do) }
	}, func(_ []time.Duration, until time.Duration) []time.Duration {
		return grid(0, interval, until)
	}},
	{"Ticker", func(*recorder) loop {
		return func(ctx context.Context, c fakeclock.Clock, do func()) { Ticker(ctx, c, interval, do) }
	}, func(_ []time.Duration, until time.Duration) []time.Duration {
		return grid(0, interval, until)
	}},
	{"RandomSleep", func(r *recorder) loop {
		randN := r.randN(seed)
		return func(ctx context.Context, c fakeclock.Clock, do func()) { RandomSleep(ctx, c, interval, randN, do) }
	}, func(draws []time.Duration, until time.Duration) []time.Duration {
		var want []time.Duration
		at := time.Duration(0)
		for k := 0; at <= until; k++ {
			want = append(want, at)
			at += draws[k]
		}
		return want
	}},
	{"JitterTicker", func(r *recorder) loop {
		randN := r.randN(seed)
		return func(ctx context.Context, c fakeclock.Clock, do func()) { JitterTicker(ctx, c, interval, randN, do) }
	}, func(draws []time.Duration, until time.Duration) []time.Duration {
		var want []time.Duration
		for k, d := range draws {
			if at := time.Duration(k)*interval + d; at <= until {
				want = append(want, at)
			}
		}
		return want
	}},
	{"Reoffset", func(r *recorder) loop {
		randN := r.randN(seed)
		return func(ctx context.Context, c fakeclock.Clock, do func()) { Reoffset(ctx, c, interval, randN, do) }
	}, func(draws []time.Duration, until time.Duration) []time.Duration {
		var want []time.Duration
		for m, d := range draws {
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
	const n = 100 // intervals: three batches of Reoffset
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			events, draws := onFake(t, n, s.mk)
			want := s.want(draws, n*interval)
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
			gotFake, drawsFake := onFake(t, n, s.mk)
			gotTime, drawsTime := onTime(t, n, s.mk)
			if d := cmp.Diff(gotTime, gotFake); d != "" {
				t.Errorf("events (-time +fake):\n%s", d)
			}
			if d := cmp.Diff(drawsTime, drawsFake); d != "" {
				t.Errorf("draws (-time +fake):\n%s", d)
			}
		})
	}
}

// JitterTicker's k-th event is in [k*I, (k+1)*I), and gaps span 0 to 2I:
// the worst case of the story, forced with extreme draws.
func TestJitterTickerBounds(t *testing.T) {
	extremes := func(*recorder) loop {
		k := 0
		randN := func(n time.Duration) time.Duration { // n-1, 0, n-1, 0, ...
			k++
			if k%2 == 1 {
				return n - 1
			}
			return 0
		}
		return func(ctx context.Context, c fakeclock.Clock, do func()) { JitterTicker(ctx, c, interval, randN, do) }
	}
	events, _ := onFake(t, 10, extremes)
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
func TestFleetJitterTicker(t *testing.T) {
	const loops, n = 1000, 10
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		recs := make([]*recorder, loops)
		for i := range recs {
			r := &recorder{c: c, start: c.Now()}
			recs[i] = r
			randN := r.randN(seed + uint64(i))
			wg.Go(func() { JitterTicker(ctx, c, interval, randN, r.do) })
		}
		if err := c.Advance(n*interval - 1); err != nil {
			t.Fatal(err)
		}
		cancel()
		wg.Wait()
		for i, r := range recs {
			events, draws := r.result()
			if len(events) != n {
				t.Fatalf("loop %d: %d events in %d intervals, want %d", i, len(events), n, n)
			}
			for k, at := range events {
				if want := time.Duration(k)*interval + draws[k]; at != want {
					t.Fatalf("loop %d event %d at %v, want %v", i, k, at, want)
				}
			}
		}
	})
}
