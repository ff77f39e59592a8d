package benchfakeclock

import (
	"container/heap"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	k8sclock "k8s.io/utils/clock/testing"

	"github.com/spreadcheck/spreadcheck/examples/loops"
	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/spread"
)

// The fleet of issue 12: copies of the jitter + ticker loop of
// examples/loops, started in lockstep, each with its own generator from one
// seed, for a number of intervals, every event time recorded per copy.
// Three drivers run the same fleet: fakeclock.Fleet.Run, package time in a
// testing/synctest bubble (both on the loop's own code), and
// k8s.io/utils/clock/testing's FakeClock in a bubble, on the same loop
// ported to its interface. The floor makes the same events with the
// fleet's goroutine hand-offs alone and no clock, and one-fake runs the
// loop's code with every copy on one Fake (an instant, and a settle, per
// event). TestFleetPeersAgree checks that all of them make the same events;
// TestFleetBenchmarks times them.

const fleetInterval = time.Second

// fleetSize is one benchmark's fleet.
type fleetSize struct{ loops, intervals int }

// driver runs a fleet of jitter + ticker loops with seed and returns each
// copy's event times. t is the test the bubbles run in.
type driver func(t *testing.T, size fleetSize, seed uint64) [][]time.Duration

func rngOf(seed uint64, i int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(i))) }

var drivers = []struct {
	name string
	run  driver
}{
	{"fakeclock", func(t *testing.T, size fleetSize, seed uint64) [][]time.Duration {
		fl := fakeclock.Fleet{Loops: size.loops, Seed: seed, For: time.Duration(size.intervals) * fleetInterval}
		events, err := fl.Run(t, func(ctx context.Context, c fakeclock.Clock, r *rand.Rand, event func()) {
			loops.JitterTicker(ctx, c, fleetInterval, r, event)
		})
		if err != nil {
			t.Fatal(err)
		}
		return events
	}},
	{"synctest", func(t *testing.T, size fleetSize, seed uint64) [][]time.Duration {
		events := make([][]time.Duration, size.loops)
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			var wg sync.WaitGroup
			startCopies(ctx, fakeclock.Real(), size, seed, events, &wg)
			time.Sleep(time.Duration(size.intervals) * fleetInterval)
			synctest.Wait()
			cancel()
			wg.Wait()
		})
		return events
	}},
	{"k8s", runK8s},
	{"floor", runFloor},
	{"one-fake", runOneFake},
}

// startCopies starts the fleet's copies of loops.JitterTicker on c, all on
// one clock, copy i recording its events in events[i] as times since now.
func startCopies(ctx context.Context, c fakeclock.Clock, size fleetSize, seed uint64, events [][]time.Duration, wg *sync.WaitGroup) {
	start := c.Now()
	for i := range size.loops {
		r := rngOf(seed, i)
		wg.Go(func() {
			loops.JitterTicker(ctx, c, fleetInterval, r, func() { events[i] = append(events[i], c.Since(start)) })
		})
	}
}

// runOneFake runs every copy on one Fake in fakeclock.Test, advanced through
// the run: a round per instant of the fleet, each with a settle, which for
// jittered copies is an instant per event (Fleet.Run's copies each have a
// Fake, and a round fires the next instant of all of them).
func runOneFake(t *testing.T, size fleetSize, seed uint64) [][]time.Duration {
	events := make([][]time.Duration, size.loops)
	fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		startCopies(ctx, c, size, seed, events, &wg)
		if err := c.Advance(time.Duration(size.intervals) * fleetInterval); err != nil {
			t.Error(err)
		}
		cancel()
		wg.Wait()
	})
	return events
}

// runFloor is the least that any driver of the loop's code on goroutines
// costs at this size: each copy is a goroutine that waits in a select, on a
// channel of its own (buffered, as a Fake's) or its own context, twice per
// event, as the loop waits for its timer and its tick, and records the
// event the loop would. As Fleet.Run does, the driver runs the copies in
// tiles of 256, each tile's goroutines started with it, through all its
// rounds, and ended before the next, a round sending a value to each copy
// of the tile and settling the bubble once; the tiles are shared among a
// bubble per core. There is no clock, no timer and no allocation per event:
// what is left is the goroutines' wake-ups in a bubble. (Rounds of all
// 10,000 copies at once cost about twice as much per wake-up: they touch
// more memory than the caches hold; TestFloorStudy measures both.)
func runFloor(t *testing.T, size fleetSize, seed uint64) [][]time.Duration {
	events := make([][]time.Duration, size.loops)
	n := min(runtime.GOMAXPROCS(0), (size.loops+floorTile-1)/floorTile)
	var wg sync.WaitGroup
	for b := range n {
		wg.Go(func() {
			synctest.Test(t, func(t *testing.T) {
				for lo := b * floorTile; lo < size.loops; lo += n * floorTile {
					floorTileRun(t.Context(), size, seed, lo, min(lo+floorTile, size.loops), events)
				}
			})
		})
	}
	wg.Wait()
	return events
}

// floorTileRun runs the floor's copies lo to hi-1 in the current bubble.
func floorTileRun(ctx context.Context, size fleetSize, seed uint64, lo, hi int, events [][]time.Duration) {
	end := time.Duration(size.intervals) * fleetInterval
	timers, ticks := make([]chan time.Time, hi-lo), make([]chan time.Time, hi-lo)
	cancels := make([]context.CancelFunc, hi-lo)
	var wg sync.WaitGroup
	for j := range hi - lo {
		ctx, cancel := context.WithCancel(ctx)
		timer, tick, r, i := make(chan time.Time, 1), make(chan time.Time, 1), rngOf(seed, lo+j), lo+j
		timers[j], ticks[j], cancels[j] = timer, tick, cancel
		wg.Go(func() {
			for k := time.Duration(0); ; k++ {
				at := k*fleetInterval + time.Duration(r.Int64N(int64(fleetInterval)))
				if !receive(ctx, timer) || at > end {
					return
				}
				events[i] = append(events[i], at)
				if !receive(ctx, tick) {
					return
				}
			}
		})
	}
	synctest.Wait()
	for range size.intervals {
		sendAll(timers)
		sendAll(ticks)
	}
	sendAll(timers) // the event at the end, if a draw is 0
	for _, cancel := range cancels {
		cancel()
	}
	wg.Wait()
}

func receive(ctx context.Context, c chan time.Time) bool {
	select {
	case <-c:
		return true
	case <-ctx.Done():
		return false
	}
}

// floorTile is the floor's tile, Fleet.Run's.
const floorTile = 256

// sendAll is one round of the floor: a value to every channel of a tile,
// without blocking, then one settle.
func sendAll(chans []chan time.Time) {
	for _, c := range chans {
		select {
		case c <- epoch:
		default:
		}
	}
	synctest.Wait()
}

// runK8s drives k8s's FakeClock in a bubble. It has no call that says when
// the next timer is due, so each loop pushes the time it waits for onto a
// heap, and the driver sets the clock to the earliest once every loop is
// blocked.
func runK8s(t *testing.T, size fleetSize, seed uint64) [][]time.Duration {
	events := make([][]time.Duration, size.loops)
	end := time.Duration(size.intervals) * fleetInterval
	synctest.Test(t, func(t *testing.T) {
		start := epoch
		c := k8sclock.NewFakeClock(start)
		due := &deadlines{}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		for i := range size.loops {
			r := rngOf(seed, i)
			wg.Go(func() {
				jitterTickerK8s(ctx, c, due, r, func() { events[i] = append(events[i], c.Since(start)) })
			})
		}
		for {
			synctest.Wait()
			next, ok := due.next(c.Since(start))
			if !ok || next > end {
				break
			}
			c.SetTime(start.Add(next))
		}
		cancel()
		wg.Wait()
	})
	return events
}

// jitterTickerK8s is loops.JitterTicker on k8s's clock, telling due what it
// waits for.
func jitterTickerK8s(ctx context.Context, c *k8sclock.FakeClock, due *deadlines, r *rand.Rand, event func()) {
	start := c.Now()
	tick := c.NewTicker(fleetInterval)
	defer tick.Stop()
	nextTick := fleetInterval
	for ctx.Err() == nil {
		if d := time.Duration(r.Int64N(int64(fleetInterval))); d > 0 {
			timer := c.NewTimer(d)
			due.push(c.Since(start) + d)
			select {
			case <-timer.C():
			case <-ctx.Done():
				timer.Stop()
				return
			}
		}
		event()
		due.push(nextTick)
		select {
		case <-tick.C():
			nextTick += fleetInterval
		case <-ctx.Done():
			return
		}
	}
}

// deadlines is a min-heap of the times the k8s loops wait for.
type deadlines struct {
	mu sync.Mutex
	h  durationHeap
}

func (d *deadlines) push(at time.Duration) {
	d.mu.Lock()
	heap.Push(&d.h, at)
	d.mu.Unlock()
}

// next pops the earliest deadline after now.
func (d *deadlines) next(now time.Duration) (time.Duration, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.h.Len() > 0 {
		if at := heap.Pop(&d.h).(time.Duration); at > now {
			return at, true
		}
	}
	return 0, false
}

type durationHeap []time.Duration

func (h durationHeap) Len() int           { return len(h) }
func (h durationHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h durationHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *durationHeap) Push(x any)        { *h = append(*h, x.(time.Duration)) }
func (h *durationHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// The drivers make the same events from the same seed: the fleet they are
// timed on is one fleet, of more than two tiles.
func TestFleetPeersAgree(t *testing.T) {
	size := fleetSize{loops: 2*floorTile + 50, intervals: 30}
	want := drivers[0].run(t, size, 5)
	for _, d := range drivers[1:] {
		got := d.run(t, size, 5)
		if !slices.EqualFunc(want, got, slices.Equal) {
			t.Errorf("%s's events differ from fakeclock's", d.name)
		}
	}
	if n := len(want[0]); n != 30 {
		t.Errorf("%d events in 30 intervals", n)
	}
}

// The sizes timed: the 10,000 loops x 1,000 intervals. k8s's clock
// scans every waiter at each instant (O(loops) per event), so it runs the
// same 10,000 loops for 10 intervals, and one Fake, which settles at every
// event, for 100: their costs per event do not depend on the number of
// intervals.
var (
	codeSize  = fleetSize{loops: 10_000, intervals: 1000}
	shorter   = map[string]fleetSize{"k8s": {loops: 10_000, intervals: 10}, "one-fake": {loops: 10_000, intervals: 100}}
	schedSize = fleetSize{loops: 100_000, intervals: 3600}
)

var (
	fleetDrivers = flag.String("fleet.drivers", "", "the drivers TestFleetBenchmarks times, comma-separated (default: all)")
	fleetCopies  = flag.Int("fleet.loops", codeSize.loops, "the loops of TestFleetBenchmarks' fleet, for quicker comparisons")
	fleetLength  = flag.Int("fleet.intervals", codeSize.intervals, "the intervals of TestFleetBenchmarks' fleet (k8s and one-fake run their shorter ones)")
)

// TestFleetBenchmarks times each driver (or those of -fleet.drivers) once
// per -count with testing.Benchmark (the bubbles need a *testing.T) when
// -bench is given, and prints benchmark lines with ns/event, CPU ns/event,
// B/event and events/s.
func TestFleetBenchmarks(t *testing.T) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		t.Skip("runs only with -bench")
	}
	procs := fmt.Sprintf("-%d", testingProcs())
	for _, d := range drivers {
		if *fleetDrivers != "" && !slices.Contains(strings.Split(*fleetDrivers, ","), d.name) {
			continue
		}
		size, ok := shorter[d.name]
		if !ok {
			size = fleetSize{loops: *fleetCopies, intervals: *fleetLength}
		}
		var events int
		var cpu time.Duration
		r := testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for i := range b.N {
				events = count(d.run(t, size, uint64(i)))
			}
			cpu = cpuTime() - start
		})
		report(fmt.Sprintf("BenchmarkFleetCode/%s%s", d.name, procs), r, events, cpu)
	}
}

// BenchmarkFleetSchedule streams 100,000 jitter + ticker schedules for an
// hour (3.6e8 events) to a Sink that counts them.
func BenchmarkFleetSchedule(b *testing.B) {
	var events int
	fl := fakeclock.Fleet{Loops: schedSize.loops, Seed: 1, For: time.Duration(schedSize.intervals) * fleetInterval,
		Sink: func(int, time.Duration) { events++ }}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := cpuTime()
	for b.Loop() {
		events = 0
		if _, err := fl.RunSchedule(spread.JitterTicker(fleetInterval, fleetInterval).Next); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	cpu = cpuTime() - cpu
	n := float64(b.N * events)
	// CPU time per event, which a loaded machine inflates far less than
	// the time on the wall.
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/event")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/event")
	b.ReportMetric(1e9*n/float64(b.Elapsed().Nanoseconds()), "events/s")
	b.ReportMetric(float64(events), "events/op")
}

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func count(events [][]time.Duration) int {
	n := 0
	for _, es := range events {
		n += len(es)
	}
	return n
}

// report prints r as a benchmark line, per event, with the process's CPU
// time over the last launch of r's function (cpu), which a loaded machine
// inflates far less than the time on the wall.
func report(name string, r testing.BenchmarkResult, events int, cpu time.Duration) {
	n := float64(r.N * events)
	ns := float64(r.T.Nanoseconds()) / n
	fmt.Printf("%s\t%d\t%.1f ns/event\t%.1f cpu-ns/event\t%.2f B/event\t%.0f events/s\t%d events/op\n",
		name, r.N, ns, float64(cpu.Nanoseconds())/n, float64(r.MemBytes)/n, 1e9/ns, events)
	runtime.GC()
}
