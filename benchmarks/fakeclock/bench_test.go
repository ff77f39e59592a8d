package benchfakeclock

import (
	"context"
	"flag"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	bjclock "github.com/benbjohnson/clock"
	"github.com/coder/quartz"
	"github.com/jonboulle/clockwork"
	k8sclock "k8s.io/utils/clock/testing"

	"github.com/spreadcheck/spreadcheck/fakeclock"
)

// The scenarios of issue 4: one ticker loop with the test side advancing
// tick by tick, and a fleet of loops ticking in one timeline. Every loop
// acknowledges each tick, so the test side knows it was handled before it
// advances again, and no tick can be lost or counted twice.

const (
	period     = time.Second
	fleetLoops = 1000
	fleetTicks = 100
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// clockUnderTest is what a benchmark needs from a fake: make a ticker and
// move time by one period.
type clockUnderTest struct {
	newTicker func(d time.Duration) <-chan time.Time
	advance   func(d time.Duration)
}

// peer makes a fresh clock; its setup runs outside the timed region.
type peer struct {
	name string
	make func(tb testing.TB) clockUnderTest
}

var peers = []peer{
	{"floor", func(testing.TB) clockUnderTest {
		// An unbuffered channel handed to the loop: "advancing" is one send.
		var chans []chan time.Time
		return clockUnderTest{
			newTicker: func(time.Duration) <-chan time.Time {
				c := make(chan time.Time)
				chans = append(chans, c)
				return c
			},
			advance: func(time.Duration) {
				for _, c := range chans {
					c <- epoch
				}
			},
		}
	}},
	{"fakeclock", func(testing.TB) clockUnderTest {
		c := fakeclock.NewFake(epoch)
		return clockUnderTest{
			newTicker: func(d time.Duration) <-chan time.Time { return c.NewTicker(d).C },
			advance:   func(d time.Duration) { _ = c.Advance(d) },
		}
	}},
	{"k8s", func(testing.TB) clockUnderTest {
		c := k8sclock.NewFakeClock(epoch)
		return clockUnderTest{
			newTicker: func(d time.Duration) <-chan time.Time { return c.NewTicker(d).C() },
			advance:   c.Step,
		}
	}},
	{"clockwork", func(testing.TB) clockUnderTest {
		c := clockwork.NewFakeClockAt(epoch)
		return clockUnderTest{
			newTicker: func(d time.Duration) <-chan time.Time { return c.NewTicker(d).Chan() },
			advance:   c.Advance,
		}
	}},
	{"quartz", func(tb testing.TB) clockUnderTest {
		c := quartz.NewMock(tb).WithLogger(quartz.NoOpLogger)
		return clockUnderTest{
			newTicker: func(d time.Duration) <-chan time.Time { return c.NewTicker(d).C },
			advance:   func(d time.Duration) { c.Advance(d).MustWait(context.Background()) },
		}
	}},
	{"benbjohnson", func(testing.TB) clockUnderTest {
		c := bjclock.NewMock()
		c.Set(epoch)
		return clockUnderTest{
			newTicker: func(d time.Duration) <-chan time.Time { return c.Ticker(d).C },
			advance:   c.Add,
		}
	}},
}

// oneLoop runs n ticks of one loop and returns the time they took,
// excluding the setup.
func oneLoop(c clockUnderTest, n int, now func() time.Time) time.Duration {
	tick := c.newTicker(period) // made before the loop starts: no first-tick race
	ack := make(chan struct{})
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-tick:
				ack <- struct{}{}
			case <-done:
				return
			}
		}
	})
	start := now()
	for range n {
		c.advance(period)
		<-ack
	}
	elapsed := now().Sub(start)
	close(done)
	wg.Wait()
	return elapsed
}

// fleet runs fleetLoops loops for ticks ticks in one timeline and returns
// the time the ticks took, excluding the setup.
func fleet(c clockUnderTest, ticks int, now func() time.Time) time.Duration {
	done := make(chan struct{})
	var loops, acks sync.WaitGroup
	for range fleetLoops {
		tick := c.newTicker(period)
		loops.Go(func() {
			for {
				select {
				case <-tick:
					acks.Done()
				case <-done:
					return
				}
			}
		})
	}
	start := now()
	for range ticks {
		acks.Add(fleetLoops)
		c.advance(period)
		acks.Wait()
	}
	elapsed := now().Sub(start)
	close(done)
	loops.Wait()
	return elapsed
}

func BenchmarkOneLoop(b *testing.B) {
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			c := p.make(b)
			b.ResetTimer()
			oneLoop(c, b.N, time.Now)
		})
	}
}

// ticksFor returns how many ticks of the fleet a peer runs: benbjohnson's
// mock sleeps 1 ms of real time for every ticker tick (gosched in
// internalTicker.Tick), 100 s for a full fleet run, so it runs 2.
func ticksFor(name string) int {
	if name == "benbjohnson" {
		return 2
	}
	return fleetTicks
}

func BenchmarkFleet(b *testing.B) {
	for _, p := range peers {
		b.Run(p.name, func(b *testing.B) {
			ticks := ticksFor(p.name)
			var total time.Duration
			for range b.N {
				total += fleet(p.make(b), ticks, time.Now)
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N*fleetLoops*ticks), "ns/tick")
		})
	}
}

// The bubble variants need a *testing.T, which a benchmark does not have,
// so TestBubbleBenchmarks runs them with testing.Benchmark (timed on the
// real clock, outside the bubble) when -bench is given, and prints lines
// in the benchmark format among the others.

var bubbles = []struct {
	name string
	run  func(t *testing.T, body func(clockUnderTest))
}{
	{"synctest", func(t *testing.T, body func(clockUnderTest)) {
		synctest.Test(t, func(t *testing.T) {
			body(clockUnderTest{
				newTicker: func(d time.Duration) <-chan time.Time { return time.NewTicker(d).C },
				advance:   time.Sleep,
			})
		})
	}},
	{"fakeclock-bubble", func(t *testing.T, body func(clockUnderTest)) {
		fakeclock.Test(t, func(t *testing.T, c *fakeclock.Fake) {
			body(clockUnderTest{
				newTicker: func(d time.Duration) <-chan time.Time { return c.NewTicker(d).C },
				advance:   func(d time.Duration) { _ = c.Advance(d) },
			})
		})
	}},
}

func TestBubbleBenchmarks(t *testing.T) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		t.Skip("runs only with -bench")
	}
	procs := fmt.Sprintf("-%d", testingProcs())
	for _, bb := range bubbles {
		r := testing.Benchmark(func(b *testing.B) {
			var elapsed time.Duration
			bb.run(t, func(c clockUnderTest) { elapsed = oneLoop(c, b.N, realNow) })
			b.ReportMetric(float64(elapsed.Nanoseconds())/float64(b.N), "ns/op")
		})
		fmt.Printf("BenchmarkOneLoop/%s%s\t%s\n", bb.name, procs, r)
	}
	for _, bb := range bubbles {
		r := testing.Benchmark(func(b *testing.B) {
			var total time.Duration
			for range b.N {
				bb.run(t, func(c clockUnderTest) { total += fleet(c, fleetTicks, realNow) })
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N*fleetLoops*fleetTicks), "ns/tick")
		})
		fmt.Printf("BenchmarkFleet/%s%s\t%s\n", bb.name, procs, r)
	}
}

// testingProcs is the -N suffix go test puts on benchmark names.
func testingProcs() int {
	n := 0
	if f := flag.Lookup("test.cpu"); f != nil && f.Value.String() != "" {
		fmt.Sscan(f.Value.String(), &n)
	}
	if n == 0 {
		n = runtimeProcs()
	}
	return n
}

// realNow reads the system's clock, which a synctest bubble does not
// replace (inside one, time.Now is the bubble's virtual time).
func realNow() time.Time {
	var tv syscall.Timeval
	if err := syscall.Gettimeofday(&tv); err != nil {
		panic(err)
	}
	return time.Unix(tv.Sec, tv.Usec*1000)
}
