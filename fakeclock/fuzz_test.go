package fakeclock

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzFake runs a program decoded from the fuzzer's bytes on a Fake outside
// a bubble, with no goroutine but the driver: timers, tickers, AfterFuncs,
// contexts, stops, resets, polls and advances with any duration, from
// math.MinInt64 to math.MaxInt64. Nothing may panic (a ticker's period is
// made positive, as package time requires), time never moves backwards, an
// Advance is refused exactly when it is negative or passes the largest
// time, and the work is bounded: an Advance fires at most one instant per
// armed timer, plus one per ticker, plus one.
//
// CI runs it for a bounded time:
//
//	go test -run XXX -fuzz FuzzFake -fuzztime 20s ./fakeclock
func FuzzFake(f *testing.F) {
	f.Add([]byte{})
	f.Add(program(fop(1, 1), fop(6, int64(time.Hour))))                        // 1ns ticker, an hour
	f.Add(program(fop(0, 5), fop(1, 3), fop(6, 10), fop(4, 0), fop(6, 1<<62))) // timer, ticker, stops
	f.Add(program(fop(6, math.MaxInt64-1), fop(1, 7), fop(6, 1), fop(6, 1)))   // up to the largest time
	f.Add(program(fop(2, -1), fop(3, math.MinInt64), fop(7, 0), fop(8, 0)))    // negative, AdvanceNext
	f.Add(program(fop(5, 3), fop(5, 1), fop(6, -5), fop(9, math.MaxInt64)))    // resets, contexts
	f.Fuzz(func(t *testing.T, prog []byte) {
		runFuzzProgram(t, prog)
	})
}

// fop encodes one operation: a kind byte and a duration.
func fop(kind byte, d int64) []byte {
	b := []byte{kind}
	return binary.LittleEndian.AppendUint64(b, uint64(d))
}

func program(ops ...[]byte) []byte {
	var p []byte
	for _, o := range ops {
		p = append(p, o...)
	}
	return p
}

func runFuzzProgram(t *testing.T, prog []byte) {
	start := time.Unix(0, 0)
	c := NewFake(start)
	var timers []*Timer
	var tickers []*Ticker
	var cancels []context.CancelFunc
	defer func() {
		for _, cancel := range cancels {
			cancel()
		}
	}()
	armed := func() int64 {
		c.mu.Lock()
		defer c.mu.Unlock()
		return int64(len(c.heap))
	}
	for len(prog) >= 9 {
		kind, d := prog[0]%10, time.Duration(binary.LittleEndian.Uint64(prog[1:9]))
		prog = prog[9:]
		before := c.Since(start)
		switch kind {
		case 0:
			timers = append(timers, c.NewTimer(d))
		case 1:
			p := d
			if p <= 0 {
				p = max(-(p + 1), 1) // any positive period, 1ns included
			}
			tickers = append(tickers, c.NewTicker(p))
		case 2:
			timers = append(timers, c.AfterFunc(d, func() { c.Now() }))
		case 3:
			if len(timers) > 0 {
				timers[int(uint64(d)%uint64(len(timers)))].Stop()
			}
		case 4:
			if len(tickers) > 0 {
				tickers[int(uint64(d)%uint64(len(tickers)))].Stop()
			}
		case 5:
			if len(timers) > 0 {
				timers[int(uint64(d)%uint64(len(timers)))].Reset(d)
			}
		case 6:
			work := c.instants
			limit := armed() + int64(len(tickers)) + 1
			err := c.Advance(d)
			refuse := d < 0 || d > math.MaxInt64-before
			if (err != nil) != refuse {
				t.Fatalf("at +%v, Advance(%v) = %v", before, d, err)
			}
			if refuse && c.Since(start) != before {
				t.Fatalf("a refused Advance(%v) moved the clock from +%v to +%v", d, before, c.Since(start))
			}
			if n := c.instants - work; n > limit {
				t.Fatalf("Advance(%v) fired %d instants with %d armed", d, n, limit-1)
			}
		case 7:
			c.AdvanceNext()
		case 8:
			for _, tk := range tickers {
				select {
				case <-tk.C:
				default:
				}
			}
		case 9:
			ctx, cancel := c.WithDeadline(context.Background(), c.Now().Add(d))
			cancels = append(cancels, cancel)
			_ = ctx.Err()
		}
		if c.Since(start) < before {
			t.Fatalf("time went back from +%v to +%v", before, c.Since(start))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.WaitArmed(ctx, math.MaxInt); err == nil {
		t.Fatal("WaitArmed on an ended context with too many wanted returned nil")
	}
}

// FuzzFleet gives a Fleet any Loops, For and Stagger, from math.MinInt64 to
// math.MaxInt64: Starts and RunSchedule return an error exactly for an
// invalid fleet (Loops outside [1, 1<<20], For <= 0, Stagger < 0), never
// panic or run out of memory, and a valid fleet's starts fall in
// [0, Stagger) (0 without a stagger). RunSchedule runs a schedule of one
// event per copy, on fleets of up to 1<<12 copies, so an input costs at most
// a few milliseconds.
func FuzzFleet(f *testing.F) {
	f.Add(int64(1), uint64(0), int64(time.Second), int64(0))
	f.Add(int64(1<<40), uint64(1), int64(time.Second), int64(time.Millisecond))
	f.Add(int64(1<<20+1), uint64(2), int64(1), int64(0))
	f.Add(int64(math.MaxInt64), uint64(3), int64(math.MaxInt64), int64(math.MaxInt64))
	f.Add(int64(0), uint64(4), int64(-1), int64(-1))
	f.Fuzz(func(t *testing.T, loops int64, seed uint64, span, stagger int64) {
		fl := Fleet{Loops: int(loops), Seed: seed, For: time.Duration(span), Stagger: time.Duration(stagger)}
		valid := loops >= 1 && loops <= 1<<20 && span > 0 && stagger >= 0
		if !valid || loops <= 1<<12 {
			starts, err := fl.Starts()
			if (err == nil) != valid {
				t.Fatalf("%+v.Starts() error %v, want an error %v", fl, err, !valid)
			}
			for i, s := range starts {
				if s < 0 || s >= max(fl.Stagger, 1) {
					t.Fatalf("%+v: copy %d starts at %v, outside [0, Stagger)", fl, i, s)
				}
			}
		}
		if valid && loops > 1<<12 {
			return
		}
		once := func(*rand.Rand) func(time.Duration) time.Duration {
			done := false
			return func(last time.Duration) time.Duration {
				if done {
					return math.MaxInt64
				}
				done = true
				return last
			}
		}
		events, err := fl.RunSchedule(once)
		if (err == nil) != valid {
			t.Fatalf("%+v.RunSchedule error %v, want an error %v", fl, err, !valid)
		}
		if valid && len(events) != fl.Loops {
			t.Fatalf("%+v.RunSchedule gave %d copies' events, want %d", fl, len(events), fl.Loops)
		}
	})
}
