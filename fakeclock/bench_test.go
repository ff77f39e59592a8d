package fakeclock

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// The Fake's own costs, with no goroutine switch: the peers' comparison is
// in the separate module benchmarks/fakeclock.

func BenchmarkAdvanceTicker(b *testing.B) {
	c := NewFake(time.Unix(0, 0))
	tk := c.NewTicker(time.Second)
	for b.Loop() {
		_ = c.Advance(time.Second)
		<-tk.C
	}
}

// BenchmarkAdvanceFleet fires 1,000 tickers due at one instant; ns/op is
// per instant, ns/tick per delivered tick.
func BenchmarkAdvanceFleet(b *testing.B) {
	const n = 1000
	c := NewFake(time.Unix(0, 0))
	tks := make([]*Ticker, n)
	for i := range tks {
		tks[i] = c.NewTicker(time.Second)
	}
	for b.Loop() {
		_ = c.Advance(time.Second)
		for _, tk := range tks {
			<-tk.C
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tick")
}

// BenchmarkSleep is one goroutine sleeping while another advances.
func BenchmarkSleep(b *testing.B) {
	c := NewFake(time.Unix(0, 0))
	woke := make(chan struct{})
	go func() {
		for {
			c.Sleep(time.Second)
			woke <- struct{}{}
		}
	}()
	for b.Loop() {
		for {
			if _, ok := c.AdvanceNext(); ok {
				break
			}
		}
		<-woke
	}
}

func TestNoAllocationsPerTick(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	tks := make([]*Ticker, 100)
	for i := range tks {
		tks[i] = c.NewTicker(time.Duration(i%7+1) * time.Second)
	}
	step := func() {
		_ = c.Advance(time.Second)
		for _, tk := range tks {
			select {
			case <-tk.C:
			default:
			}
		}
	}
	step() // warm the reused batch
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("%v allocations per Advance over 100 tickers, want 0", a)
	}
	tm := c.NewTimer(time.Second)
	if a := testing.AllocsPerRun(100, func() {
		tm.Reset(time.Second)
		_ = c.Advance(time.Second)
		<-tm.C
	}); a != 0 {
		t.Errorf("%v allocations per timer Reset and fire, want 0", a)
	}
}

func TestNoAllocationsPerSleep(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	woke := make(chan struct{})
	stop := make(chan struct{})
	defer func() { // let the sleeper wake and see stop
		close(stop)
		if err := c.WaitArmed(context.Background(), 1); err != nil {
			t.Error(err)
		}
		_ = c.Advance(time.Second)
	}()
	go func() {
		for {
			c.Sleep(time.Second)
			select {
			case woke <- struct{}{}:
			case <-stop:
				return
			}
		}
	}()
	step := func() {
		for {
			if _, ok := c.AdvanceNext(); ok {
				break
			}
			runtime.Gosched() // the sleeper has not armed yet
		}
		<-woke
	}
	step()
	if a := testing.AllocsPerRun(100, step); a != 0 {
		t.Errorf("%v allocations per Sleep, want 0", a)
	}
}

// BenchmarkFleetSchedule streams a fleet of jitter + ticker schedules to a
// Sink that counts; ns/event and B/event are per event.
func BenchmarkFleetSchedule(b *testing.B) {
	schedule := func(r *rand.Rand) func(time.Duration) time.Duration {
		k := time.Duration(-1)
		return func(time.Duration) time.Duration {
			k++
			return k*time.Second + time.Duration(r.Int64N(int64(time.Second)))
		}
	}
	var n int64
	fl := Fleet{Loops: 10_000, Seed: 1, For: 600 * time.Second, Sink: func(int, time.Duration) { n++ }}
	for b.Loop() {
		if _, err := fl.RunSchedule(schedule); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
}

// A timer costs three allocations on any Fake, a fleet's copies' too (they
// make one per sleep): the timer with its handle, and its channel, whose
// buffer the runtime allocates apart (a time.Time holds a pointer).
func TestNewTimerAllocations(t *testing.T) {
	for _, noSites := range []bool{false, true} {
		c := NewFake(time.Unix(0, 0))
		c.noSites = noSites
		if a := testing.AllocsPerRun(100, func() { c.NewTimer(time.Second).Stop() }); a != 3 {
			t.Errorf("noSites %v: %v allocations per NewTimer, want 3", noSites, a)
		}
	}
}
