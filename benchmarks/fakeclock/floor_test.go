package benchfakeclock

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
)

// The floor's study: what one wake-up of a goroutine per copy costs as the
// fleet grows, and what the driver's way of waking them changes. Each
// configuration wakes the same number of goroutines in total (floorWakes),
// in rounds of one value per copy per wait, so the cost per wake-up is
// compared at equal work.

// floorCase is one configuration of the study.
type floorCase struct {
	loops  int  // goroutines woken each round
	waits  int  // receives per event: 1, or 2 as the jitter + ticker loop's timer and tick
	ctx    bool // each receive is a select with the copy's ctx.Done, as the loop's
	bubble bool // in a synctest bubble, settled by synctest.Wait; else by a WaitGroup of acks
	chunk  int  // copies per sending goroutine; 0: the driver sends every value itself
	idle   int  // goroutines blocked for the whole run beside the copies
	group  int  // if > 0, a round wakes the copies group by group, settling after each
	tile   int  // if > 0, the copies run tile by tile, each tile all its rounds before the next
}

func (c floorCase) String() string {
	return fmt.Sprintf("loops=%d/waits=%d/ctx=%v/bubble=%v/chunk=%d/idle=%d/group=%d/tile=%d",
		c.loops, c.waits, c.ctx, c.bubble, c.chunk, c.idle, c.group, c.tile)
}

const floorWakes = 2_000_000

var floorStudy = flag.String("floor.study", "", "the studies TestFloorStudy runs, comma-separated: loops, work, chunk, group, tile, idle, profile1k, profile10k")

// TestFloorStudy prints CPU and wall ns per wake-up, and the collections
// meanwhile, for the cases of the studies named by -floor.study, in order
// (-test.count repeats them, interleaved). With -test.cpuprofile, the
// profile1k and profile10k studies (one case each) give the profiles that
// compare 1,000 goroutines with 10,000.
func TestFloorStudy(t *testing.T) {
	if *floorStudy == "" {
		t.Skip("runs only with -floor.study")
	}
	var cases []floorCase
	for _, s := range strings.Split(*floorStudy, ",") {
		cs, ok := floorCases[s]
		if !ok {
			t.Fatalf("-floor.study: no study %q", s)
		}
		cases = append(cases, cs...)
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		cpu, wall := cpuTime(), realNow()
		runFloorCase(t, c, floorWakes/(c.loops*c.waits))
		n := float64(floorWakes)
		cpu, elapsed := cpuTime()-cpu, realNow().Sub(wall)
		runtime.ReadMemStats(&after)
		fmt.Printf("BenchmarkFloor/%v\t1\t%.1f ns/wake\t%.1f cpu-ns/wake\t%d gcs\n",
			c, float64(elapsed)/n, float64(cpu)/n, after.NumGC-before.NumGC)
	}
}

var floorCases = map[string][]floorCase{
	"loops": casesOf(func(l int) floorCase { return floorCase{loops: l, waits: 2, ctx: true, bubble: true, chunk: 256} }),
	"work": slices.Concat(
		casesOf(func(l int) floorCase { return floorCase{loops: l, waits: 1, ctx: false, bubble: true, chunk: 256} }),
		casesOf(func(l int) floorCase { return floorCase{loops: l, waits: 1, ctx: true, bubble: true, chunk: 256} }),
		casesOf(func(l int) floorCase { return floorCase{loops: l, waits: 1, ctx: false, bubble: false, chunk: 256} }),
		casesOf(func(l int) floorCase { return floorCase{loops: l, waits: 1, ctx: false, bubble: false, chunk: 0} }),
	),
	"chunk": casesOf(func(l int) floorCase { return floorCase{loops: l, waits: 2, ctx: true, bubble: true, chunk: 0} }),
	"group": {
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 0, group: 1000},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 0},
		{loops: 1000, waits: 2, ctx: true, bubble: true, chunk: 0},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256, group: 1000},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256},
		{loops: 1000, waits: 2, ctx: true, bubble: true, chunk: 256},
	},
	"tile": {
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256, tile: 2000},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256, tile: 1000},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256, tile: 500},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 0, tile: 500},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 128, tile: 256},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 0, tile: 256},
		{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 0, tile: 128},
	},
	"profile1k":  {{loops: 1000, waits: 2, ctx: true, bubble: true, chunk: 256}},
	"profile10k": {{loops: 10_000, waits: 2, ctx: true, bubble: true, chunk: 256}},
	"idle": {
		{loops: 1000, waits: 2, ctx: true, bubble: true, chunk: 256, idle: 9000},
		{loops: 1000, waits: 2, ctx: true, bubble: true, chunk: 256},
	},
}

// casesOf returns f's cases for fleets of 1,000 to 10,000 goroutines.
func casesOf(f func(loops int) floorCase) []floorCase {
	var cs []floorCase
	for _, l := range []int{1000, 2000, 5000, 10_000} {
		cs = append(cs, f(l))
	}
	return cs
}

// runFloorCase runs rounds rounds of c.
func runFloorCase(t *testing.T, c floorCase, rounds int) {
	if c.bubble {
		synctest.Test(t, func(t *testing.T) { floorRounds(c, rounds, synctest.Wait, nil) })
		return
	}
	var acks sync.WaitGroup
	floorRounds(c, rounds, acks.Wait, &acks)
}

// floorRounds starts c's goroutines and wakes each c.waits times per round,
// tile by tile.
func floorRounds(c floorCase, rounds int, settle func(), acks *sync.WaitGroup) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	chans := startFloorCopies(ctx, c, acks, &wg)
	settle()
	tile := c.tile
	if tile == 0 {
		tile = c.loops
	}
	for lo := 0; lo < c.loops; lo += tile {
		tiled := make([][]chan struct{}, len(chans))
		for w, cs := range chans {
			tiled[w] = cs[lo:min(lo+tile, len(cs))]
		}
		tileRounds(c, tiled, rounds, settle, acks)
	}
	cancel()
	for _, cs := range chans {
		for _, ch := range cs {
			close(ch)
		}
	}
	wg.Wait()
}

// startFloorCopies starts c's copies, each with a context of its own under
// ctx, and its idle goroutines, and returns the copies' channels: chans[w][i]
// is copy i's w-th wait.
func startFloorCopies(ctx context.Context, c floorCase, acks *sync.WaitGroup, wg *sync.WaitGroup) [][]chan struct{} {
	chans := make([][]chan struct{}, c.waits)
	for w := range chans {
		chans[w] = make([]chan struct{}, c.loops)
	}
	for i := range c.loops {
		mine := make([]chan struct{}, c.waits)
		for w := range mine {
			mine[w] = make(chan struct{}, 1)
			chans[w][i] = mine[w]
		}
		// A context of its own, as Fleet.Run gives each copy: ended
		// with ctx.
		cctx, ccancel := context.WithCancel(ctx)
		context.AfterFunc(cctx, ccancel)
		wg.Go(func() { floorCopy(cctx, c.ctx, mine, acks) })
	}
	for range c.idle {
		wg.Go(func() { <-ctx.Done() })
	}
	return chans
}

// tileRounds runs rounds rounds of the copies of chans.
func tileRounds(c floorCase, chans [][]chan struct{}, rounds int, settle func(), acks *sync.WaitGroup) {
	for range rounds {
		for _, cs := range chans {
			g := c.group
			if g == 0 {
				g = len(cs)
			}
			for lo := 0; lo < len(cs); lo += g {
				part := cs[lo:min(lo+g, len(cs))]
				if acks != nil {
					acks.Add(len(part))
				}
				sendEach(part, c.chunk)
				settle()
			}
		}
	}
}

// floorCopy is one copy: it receives from each of its channels in turn,
// in a select with ctx if withCtx, until they are closed.
func floorCopy(ctx context.Context, withCtx bool, mine []chan struct{}, acks *sync.WaitGroup) {
	for {
		for _, ch := range mine {
			if withCtx {
				select {
				case _, ok := <-ch:
					if !ok {
						return
					}
				case <-ctx.Done():
					return
				}
			} else if _, ok := <-ch; !ok {
				return
			}
			if acks != nil {
				acks.Done()
			}
		}
	}
}

// sendEach sends a value to every channel, from goroutines of chunk
// channels each, or from this one if chunk is 0.
func sendEach(cs []chan struct{}, chunk int) {
	if chunk == 0 {
		for _, ch := range cs {
			ch <- struct{}{}
		}
		return
	}
	var wg sync.WaitGroup
	for lo := 0; lo < len(cs); lo += chunk {
		part := cs[lo:min(lo+chunk, len(cs))]
		wg.Go(func() { sendEach(part, 0) })
	}
	wg.Wait()
}
