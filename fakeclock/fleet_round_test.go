package fakeclock

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// roundLoop is a jitter + ticker loop, two instants per interval (the random
// sleep's and the tick's), that waits without its ctx: the fleet's drain
// fires the instants that let it see the end.
func roundLoop(ctx context.Context, c Clock, r *rand.Rand, event func()) {
	tick := c.NewTicker(time.Second)
	defer tick.Stop()
	for ctx.Err() == nil {
		c.Sleep(time.Duration(r.Int64N(int64(time.Second))))
		event()
		<-tick.C
	}
}

// A fleet makes as many rounds as its busiest copy has instants, each round
// firing every copy at once: 200 copies of two instants per interval for 50
// intervals take about 100 rounds, not one per window of a fixed grid of
// virtual time (1,024 and more before), which cost a settle each for a few
// copies. With a Sink, the windows adapt, adding a round or two per window.
func TestFleetRoundsFireEveryCopy(t *testing.T) {
	const intervals = 50
	for _, c := range []struct {
		sink  bool
		limit int
	}{{false, 2*intervals + 2}, {true, 2*intervals + 2*12}} {
		fl := Fleet{Loops: 200, Seed: 1, For: intervals * time.Second}
		events := 0
		if c.sink {
			fl.Sink = func(int, time.Duration) { events++ }
		}
		var run *fleetRun
		synctest.Test(t, func(*testing.T) { run = fl.runBubble(roundLoop) })
		if run.err != nil {
			t.Fatal(run.err)
		}
		if run.nRounds > c.limit || run.nRounds < 2*intervals {
			t.Errorf("sink %v: %d rounds for %d intervals of two instants each; want %d to %d", c.sink, run.nRounds, intervals, 2*intervals, c.limit)
		}
		if c.sink && events < 200*intervals {
			t.Errorf("the Sink got %d events, want at least %d", events, 200*intervals)
		}
	}
}

// Each copy gets a context of its own: one Done channel shared by all would
// be locked by every select of every copy, from every core.
func TestFleetContextPerCopy(t *testing.T) {
	fl := Fleet{Loops: 50, Seed: 2, For: time.Second}
	var mu sync.Mutex
	var dones []<-chan struct{}
	synctest.Test(t, func(*testing.T) {
		run := fl.runBubble(func(ctx context.Context, c Clock, r *rand.Rand, event func()) {
			mu.Lock()
			dones = append(dones, ctx.Done())
			mu.Unlock()
			<-ctx.Done()
		})
		if run.err != nil {
			t.Fatal(run.err)
		}
	})
	seen := map[<-chan struct{}]bool{}
	for _, d := range dones {
		seen[d] = true
	}
	if len(dones) != fl.Loops || len(seen) != fl.Loops {
		t.Errorf("%d copies ran with %d Done channels among them, want %d and %d", len(dones), len(seen), fl.Loops, fl.Loops)
	}
}

func TestAdaptWindow(t *testing.T) {
	for _, c := range []struct {
		width time.Duration
		n     int
		want  time.Duration
	}{
		{10, 0, 20},
		{10, windowEvents/2 - 1, 20},
		{10, windowEvents / 2, 10},
		{10, 2 * windowEvents, 10},
		{10, 2*windowEvents + 1, 5},
		{1, 4 * windowEvents, 1},
		{1 << 62, 0, 1 << 62},
		{1<<62 + 1, 0, 1<<62 + 1},
	} {
		if got := adapt(c.width, c.n); got != c.want {
			t.Errorf("adapt(%d, %d) = %d, want %d", c.width, c.n, got, c.want)
		}
	}
}

// A fleet larger than a tile runs tile by tile, each tile making its own
// rounds to the end of the window (here, the run): four tiles of a loop of
// two instants per interval make four times a tile's rounds, never one
// round of all the copies, and every copy's events are those of its own
// draws, as in a fleet of one tile.
func TestFleetRunsTileByTile(t *testing.T) {
	const intervals, tiles = 20, 4
	fl := Fleet{Loops: (tiles-1)*tile + 10, Seed: 3, For: intervals * time.Second}
	var run *fleetRun
	synctest.Test(t, func(*testing.T) { run = fl.runBubble(roundLoop) })
	if run.err != nil {
		t.Fatal(run.err)
	}
	if lo, hi := tiles*2*intervals, tiles*(2*intervals+2); run.nRounds < lo || run.nRounds > hi {
		t.Errorf("%d copies in tiles of %d: %d rounds for %d intervals of two instants each; want %d to %d",
			fl.Loops, tile, run.nRounds, intervals, lo, hi)
	}
	for i, got := range run.events {
		r := fl.rng(i)
		var want []time.Duration
		for k := time.Duration(0); ; k++ {
			at := k*time.Second + time.Duration(r.Int64N(int64(time.Second)))
			if at > fl.For {
				break
			}
			want = append(want, at)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("copy %d (tile %d): events %v, want %v from its draws", i, i/tile, got, want)
		}
	}
}

// Without a Sink, a tile's copies start when it starts and have returned
// before the next starts: at most a tile of goroutines, whose stacks the
// collector scans at every cycle, however large the fleet. With a Sink,
// every copy runs at once, as each window needs every copy.
func TestFleetRunsTilesApart(t *testing.T) {
	for _, sink := range []bool{false, true} {
		fl := Fleet{Loops: 2*tile + 10, Seed: 4, For: 5 * time.Second}
		want := tile
		if sink {
			fl.Sink, want = func(int, time.Duration) {}, fl.Loops
		}
		var live, most atomic.Int64
		synctest.Test(t, func(*testing.T) {
			run := fl.runBubble(func(ctx context.Context, c Clock, r *rand.Rand, event func()) {
				n := live.Add(1)
				defer live.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				roundLoop(ctx, c, r, event)
			})
			if run.err != nil {
				t.Fatal(run.err)
			}
		})
		if most.Load() != int64(want) {
			t.Errorf("sink %v: %d of %d copies running at once, want %d", sink, most.Load(), fl.Loops, want)
		}
	}
}
