package spread

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/sizing"
)

// fleetOf returns n loops' events, loop i drawing from seed+i.
func fleetOf(n int, seed uint64, loop func(draw drawFunc) []time.Duration) [][]time.Duration {
	out := make([][]time.Duration, n)
	for i := range out {
		out[i] = loop(seeded(seed + uint64(i)))
	}
	return out
}

// Correct fleets started in lockstep pass, on every seed: the jitter + ticker and the re-offset
// loops spread over the interval within their first one.
func TestFleetCorrectPasses(t *testing.T) {
	const n, span = 1000, 66 * sec
	for seed := range uint64(5) {
		for _, c := range []struct {
			s     Schedule
			loops [][]time.Duration
		}{
			{JitterTicker(sec, sec), fleetOf(n, seed*n, func(d drawFunc) []time.Duration { return jitterTickerEvents(d, sec, sec, span) })},
			{ReoffsetTicker(sec, 32), fleetOf(n, seed*n, func(d drawFunc) []time.Duration { return reoffsetEvents(d, sec, 32, true, span) })},
			{Reoffset(sec, 32), fleetOf(n, seed*n, func(d drawFunc) []time.Duration { return reoffsetEvents(d, sec, 32, false, span) })},
		} {
			r, err := AnalyzeFleet(c.loops, c.s, span)
			if err != nil || r.Failed() {
				t.Fatalf("seed %d, %s: %v\n%s", seed, c.s, err, r)
			}
		}
	}
}

// Fleets in lockstep, or packed into part of the interval, fail the load and the phases; the
// load check's suggestion says which.
func TestFleetWrongWays(t *testing.T) {
	const n, span = 10000, 3 * sec
	jitterAfterWork := func(d drawFunc) []time.Duration { // do, sleep rand.N(I), wait for the tick
		return tickerEvents(sec, span)
	}
	for _, c := range []struct {
		name    string
		loop    func(drawFunc) []time.Duration
		suspect Suspect
		why     string
	}{
		{"a ticker in lockstep", func(drawFunc) []time.Duration { return tickerEvents(sec, span) }, SuspectLockstep, "the loops fire together"},
		{"jitter after the work", jitterAfterWork, SuspectLockstep, "the loops fire together"},
		{"jitter over half the interval", func(d drawFunc) []time.Duration { return jitterTickerEvents(d, sec, sec/2, span) }, SuspectPacked, "the loops fire within 50%"},
		{"a fixed 100ms jitter window", func(d drawFunc) []time.Duration { return jitterTickerEvents(d, sec, 100*time.Millisecond, span) }, SuspectPacked, "the loops fire within 12%"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := AnalyzeFleet(fleetOf(n, 1, c.loop), JitterTicker(sec, sec), span)
			if err != nil {
				t.Fatal(err)
			}
			got := failed(r)
			if !slices.Contains(got, string(CheckLoad)) || !slices.Contains(got, string(CheckPhases)) {
				t.Fatalf("failing %v, want load and phases\n%s", got, r)
			}
			load := r.Results[len(r.Results)-2]
			if d := r.Diagnosis(); !slices.Equal(load.Suspects, []Suspect{c.suspect}) || !strings.HasPrefix(load.why, c.why) || d[0] != c.suspect {
				t.Errorf("load suspects %v (%q), diagnosis %v; want %s (%s...)", load.Suspects, load.why, d, c.suspect, c.why)
			}
		})
	}
}

// The warm-up skips the intervals before a fleet spreads: a fleet that jitters only from its
// second interval on fails from the start and passes after one interval of warm-up.
func TestFleetWarmUp(t *testing.T) {
	const n, span = 2000, 5 * sec
	late := fleetOf(n, 9, func(d drawFunc) []time.Duration {
		return append([]time.Duration{0}, jitterTickerEvents(d, sec, sec, span)[1:]...)
	})
	r, err := AnalyzeFleet(late, JitterTicker(sec, sec), span)
	if err != nil || !slices.Contains(failed(r), string(CheckLoad)) {
		t.Errorf("no warm-up: %v, failing %v; want load to fail", err, failed(r))
	}
	if r, err := AnalyzeFleet(late, JitterTicker(sec, sec), span, WarmUp(1)); err != nil || slices.Contains(failed(r), string(CheckLoad)) || slices.Contains(failed(r), string(CheckPhases)) {
		t.Errorf("a warm-up of one interval: %v\n%s", err, r)
	}
}

// The streaming form gives the report of AnalyzeFleet, whatever order the loops' events
// interleave in, safely from many goroutines.
func TestFleetStreamMatchesAnalyzeFleet(t *testing.T) {
	const n, span = 300, 70 * sec
	for _, s := range []Schedule{JitterTicker(sec, sec/2), RandomSleep(sec), Reoffset(sec, 8)} {
		loops := fleetOf(n, 3, func(d drawFunc) []time.Duration {
			switch s.drawNoun() {
			case "sleep":
				return randomSleepEvents(d, 2*sec, span)
			case "offset":
				return reoffsetEvents(d, sec, 8, false, span)
			}
			return jitterTickerEvents(d, sec, sec/2, span)
		})
		want, err := AnalyzeFleet(loops, s, span, WarmUp(2), Buckets(10))
		if err != nil {
			t.Fatal(err)
		}
		f, err := NewFleetStream(n, s, span, WarmUp(2), Buckets(10))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range 4 { // each goroutine feeds a quarter of the loops, interleaved
			wg.Go(func() {
				next := make([]int, n)
				for more := true; more; {
					more = false
					for i := w; i < n; i += 4 {
						if next[i] < len(loops[i]) {
							if err := f.Add(i, loops[i][next[i]]); err != nil {
								t.Error(err)
								return
							}
							next[i]++
							more = true
						}
					}
				}
			})
		}
		wg.Wait()
		got, err := f.Report()
		if err != nil {
			t.Fatal(err)
		}
		names := regexp.MustCompile(`, from loops [0-9, ]*[0-9]( and \d+ more)?`) // only AnalyzeFleet has the events to name them
		if diff := cmp.Diff(names.ReplaceAllString(want.String(), ""), got.String()); diff != "" {
			t.Errorf("%s: the stream's report differs (-AnalyzeFleet +FleetStream):\n%s", s, diff)
		}
	}
}

func TestTimeChecksBadInput(t *testing.T) {
	ok := tickerEvents(sec, 10*sec)
	for _, c := range []struct {
		name   string
		events [][]time.Duration
		s      Schedule
		span   time.Duration
		opts   []TimeOption
		want   string
	}{
		{"no loops", nil, Ticker(sec), 10 * sec, nil, "a fleet of 0 loops"},
		{"a loop with no events", [][]time.Duration{ok, {}, ok}, Ticker(sec), 10 * sec, nil, "loop 1 made no event"},
		{"out of order", [][]time.Duration{{0, 2 * sec, sec}}, Ticker(sec), 10 * sec, nil, "event 2 at 1s comes before event 1 at 2s"},
		{"negative", [][]time.Duration{{-1}}, Ticker(sec), 10 * sec, nil, "never negative"},
		{"the smallest Duration", [][]time.Duration{{math.MinInt64}}, Ticker(sec), 10 * sec, nil, "never negative"},
		{"after the span", [][]time.Duration{{0, 10*sec + 1}}, Ticker(sec), 10 * sec, nil, "after the end of the span"},
		{"zero span", [][]time.Duration{ok}, Ticker(sec), 0, nil, "positive time"},
		{"zero interval", [][]time.Duration{ok}, Ticker(0), 10 * sec, nil, "the interval must be positive"},
		{"negative interval", [][]time.Duration{ok}, JitterTicker(-sec, sec), 10 * sec, nil, "the interval must be positive"},
		{"zero Schedule", [][]time.Duration{ok}, Schedule{}, 10 * sec, nil, "the zero Schedule"},
		{"window above the interval", [][]time.Duration{ok}, JitterTicker(sec, 2*sec), 10 * sec, nil, "window must be in (0, interval]"},
		{"zero window", [][]time.Duration{ok}, JitterTicker(sec, 0), 10 * sec, nil, "window must be in (0, interval]"},
		{"zero batch", [][]time.Duration{ok}, Reoffset(sec, 0), 10 * sec, nil, "the batch must be at least 1"},
		{"batch overflow", [][]time.Duration{ok}, ReoffsetTicker(time.Hour, math.MaxInt32), 10 * sec, nil, "must fit in a Duration"},
		{"random sleep overflow", [][]time.Duration{ok}, RandomSleep(math.MaxInt64), 10 * sec, nil, "overflows"},
		{"negative warm-up", [][]time.Duration{ok}, Ticker(sec), 10 * sec, []TimeOption{WarmUp(-1)}, "WarmUp(-1)"},
		{"warm-up past the span", [][]time.Duration{ok}, Ticker(sec), 10 * sec, []TimeOption{WarmUp(10)}, "none after a warm-up of 10"},
		{"one bucket", [][]time.Duration{ok}, Ticker(sec), 10 * sec, []TimeOption{Buckets(1)}, "at least 2 buckets"},
		{"more buckets than nanoseconds", [][]time.Duration{{0, 5}}, Ticker(5), 10, []TimeOption{Buckets(6)}, "more buckets than nanoseconds"},
		{"too many buckets", [][]time.Duration{{0}}, Ticker(1000), math.MaxInt64, nil, "beyond the"},
		{"alpha", [][]time.Duration{ok}, Ticker(sec), 10 * sec, []TimeOption{FalseFailureRate(2)}, "FalseFailureRate(2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := AnalyzeFleet(c.events, c.s, c.span, c.opts...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("AnalyzeFleet: error %v, want one containing %q", err, c.want)
			}
			if len(c.events) != 1 {
				return
			}
			fleetOnly := strings.Contains(c.want, "bucket") || strings.Contains(c.want, "warm-up") || strings.Contains(c.want, "beyond")
			if _, err := AnalyzeLoop(c.events[0], c.s, c.span, c.opts...); err == nil && !fleetOnly {
				t.Errorf("AnalyzeLoop: no error, want one containing %q", c.want)
			}
		})
	}
}

// A stream keeps its first error: Report returns it, and later events are refused.
func TestFleetStreamKeepsItsError(t *testing.T) {
	f, err := NewFleetStream(2, Ticker(sec), 10*sec)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Add(2, 0); err == nil || !strings.Contains(err.Error(), "loop 2, in a fleet of 2") {
		t.Fatalf("Add(2, 0): %v", err)
	}
	if err := f.Add(0, 0); err == nil {
		t.Error("Add after an error: no error")
	}
	if _, err := f.Report(); err == nil {
		t.Error("Report after an error: no error")
	}
	if _, err := NewFleetStream(0, Ticker(sec), sec); err == nil {
		t.Error("NewFleetStream(0, ...): no error")
	}
}

// Calibration: correct random-sleep loops, jitter + ticker loops and jitter fleets fail at
// most at their rate. The table is pinned in testdata/time-calibration.md (-update rewrites
// it), which the docs quote.
func TestTimeChecksCalibration(t *testing.T) {
	longtest.Skip(t)
	const alpha, runs = 0.01, 4000
	table := "| correct loops, each on its own seed (alpha 0.01) | runs | failed | rate | / alpha |\n|---|--:|--:|--:|--:|\n"
	for _, c := range []struct {
		name string
		run  func(seed uint64) (Report, error)
	}{
		{"RandomSleep(1s), 1,000 intervals", func(seed uint64) (Report, error) {
			return AnalyzeLoop(randomSleepEvents(seeded(seed), 2*sec, 1000*sec), RandomSleep(sec), 1000*sec, FalseFailureRate(alpha))
		}},
		{"JitterTicker(1s, 1s), 1,000 intervals", func(seed uint64) (Report, error) {
			return AnalyzeLoop(jitterTickerEvents(seeded(seed), sec, sec, 1000*sec), JitterTicker(sec, sec), 1000*sec, FalseFailureRate(alpha))
		}},
		{"Reoffset(1s, 32), 3,300 intervals", func(seed uint64) (Report, error) {
			return AnalyzeLoop(reoffsetEvents(seeded(seed), sec, 32, false, 3300*sec), Reoffset(sec, 32), 3300*sec, FalseFailureRate(alpha))
		}},
		{"a fleet of 300 JitterTicker(1s, 1s), 10 intervals (load and phases)", func(seed uint64) (Report, error) {
			loops := fleetOf(300, seed*300, func(d drawFunc) []time.Duration { return jitterTickerEvents(d, sec, sec, 10*sec) })
			return AnalyzeFleet(loops, JitterTicker(sec, sec), 10*sec, FalseFailureRate(alpha))
		}},
	} {
		fails := 0
		for seed := range uint64(runs) {
			r, err := c.run(seed + 1e6)
			if err != nil {
				t.Fatal(err)
			}
			if r.Failed() {
				fails++
			}
		}
		rate := float64(fails) / runs
		table += fmt.Sprintf("| %s | %d | %d | %.4f | %.2f |\n", c.name, runs, fails, rate, rate/alpha)
		if rate > alpha+5*math.Sqrt(alpha/runs) {
			t.Errorf("%s: false-failure rate %.4f above alpha %g", c.name, rate, alpha)
		}
	}
	t.Log("\n" + table)
	golden.Check(t, filepath.Join("testdata", "time-calibration.md"), table)
}

// FuzzAnalyzeLoop: any events, schedule and span get a report or an error, never a panic or a
// hang.
func FuzzAnalyzeLoop(f *testing.F) {
	f.Add(uint8(1), int64(sec), int64(sec), 32, int64(100*sec), []byte{0, 1, 2, 3, 250, 7})
	f.Add(uint8(2), int64(1), int64(1), 1, int64(math.MaxInt64), []byte{255, 255, 0})
	f.Add(uint8(4), int64(math.MaxInt64), int64(-1), -5, int64(-1), []byte{})
	f.Fuzz(func(t *testing.T, shape uint8, interval, window int64, batch int, span int64, raw []byte) {
		I, W := time.Duration(interval), time.Duration(window)
		s := []Schedule{Ticker(I), JitterTicker(I, W), RandomSleep(I), Reoffset(I, batch), ReoffsetTicker(I, batch), {}}[int(shape)%6]
		var events []time.Duration
		at := time.Duration(0)
		for i := 0; i+1 < len(raw); i += 2 {
			at += time.Duration(raw[i]) * time.Duration(1+int64(raw[i+1])*int64(I)/256)
			events = append(events, at)
		}
		r, err := AnalyzeLoop(events, s, time.Duration(span), FalseFailureRate(0.01))
		if err == nil {
			_ = r.String()
		}
		fleet := [][]time.Duration{events, events}
		if r, err := AnalyzeFleet(fleet, s, time.Duration(span), FalseFailureRate(0.01), Buckets(4)); err == nil {
			_ = r.String()
		}
	})
}

// A staggered fleet: each loop's events are checked from its own start. A staggered ticker
// fleet is on its schedule loop by loop, and its uniform starts spread the load.
func TestFleetLoopStarts(t *testing.T) {
	const n, span = 2000, 20 * sec
	draw := seeded(11)
	starts := make([]time.Duration, n)
	loops := make([][]time.Duration, n)
	for i := range loops {
		starts[i] = draw(sec)
		for _, at := range tickerEvents(sec, span-starts[i]) {
			loops[i] = append(loops[i], starts[i]+at)
		}
	}
	r, err := AnalyzeFleet(loops, Ticker(sec), span, LoopStarts(starts), WarmUp(1))
	if err != nil || r.Failed() {
		t.Fatalf("a staggered ticker fleet: %v\n%s", err, r)
	}
	if r, _ := AnalyzeFleet(loops, Ticker(sec), span, WarmUp(1)); !slices.Contains(failed(r), string(CheckPace)) {
		t.Errorf("the same fleet taken as started in lockstep: failing %v, want pace", failed(r))
	}
	for _, c := range []struct {
		starts []time.Duration
		want   string
	}{
		{starts[:3], "gives 3 starts for a fleet of 2000"},
		{append(slices.Clone(starts[:n-1]), -1), "loop 1999 starts at -1ns"},
		{append(slices.Clone(starts[:n-1]), 2*sec), "comes before the loop's start"},
	} {
		if _, err := AnalyzeFleet(loops, Ticker(sec), span, LoopStarts(c.starts)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoopStarts: error %v, want %q", err, c.want)
		}
	}
	if _, err := AnalyzeLoop(loops[0], Ticker(sec), span, LoopStarts(starts[:1])); err == nil {
		t.Error("AnalyzeLoop with LoopStarts: no error")
	}
}

// The phases are those of each loop's first event at or after the warm-up: a re-offset loop
// may skip the interval where its batch ends, and the loops that skip it are those whose next
// batch starts late in it, so that the phases of the loops with an event there lean late. A
// correct re-offset fleet passes with a warm-up that ends on that interval.
func TestFleetPhasesAfterABatchBoundary(t *testing.T) {
	const n, span = 4000, 40 * sec
	loops := fleetOf(n, 5, func(d drawFunc) []time.Duration { return reoffsetEvents(d, sec, 32, false, span) })
	r, err := AnalyzeFleet(loops, Reoffset(sec, 32), span, WarmUp(32))
	if err != nil || r.Failed() {
		t.Errorf("a correct re-offset fleet, warm-up of 32 intervals: %v\n%s", err, r)
	}
}

// TestSkippedSaysWhatItNeeds: a statistic skipped for too small a sample carries the
// *sizing.TooSmallError, whose Need says how large a sample it wants (the reason was a string,
// which said it only in words).
func TestSkippedSaysWhatItNeeds(t *testing.T) {
	var events [][]time.Duration
	for i := range 3 {
		at := time.Duration(i) * 100 * time.Millisecond
		events = append(events, []time.Duration{at, time.Second + at})
	}
	r, err := AnalyzeFleet(events, JitterTicker(time.Second, time.Second), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"runs/short", "load"} {
		res := find(r, name)
		var small *sizing.TooSmallError
		if !errors.As(res.Skipped, &small) || small.Need <= small.N {
			t.Errorf("%s: skipped %v, want a *sizing.TooSmallError that names a larger sample", name, res.Skipped)
		}
	}
	if res := find(r, "gaps"); res.Skipped != nil {
		t.Errorf("gaps skipped: %v", res.Skipped)
	}
}
