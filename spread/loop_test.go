package spread

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

const sec = time.Second

// The loops of the tests, written from their descriptions, apart from the checks' model:
// each returns the events in [0, span] and draws with draw(n), a value in [0, n).
type drawFunc func(n time.Duration) time.Duration

func seeded(seed uint64) drawFunc {
	r := rand.New(rand.NewPCG(seed, 0x10095))
	return func(n time.Duration) time.Duration { return time.Duration(r.Int64N(int64(n))) }
}

func tickerEvents(I, span time.Duration) []time.Duration {
	var ev []time.Duration
	for at := time.Duration(0); at <= span; at += I {
		ev = append(ev, at)
	}
	return ev
}

// jitterTickerEvents: sleep draw(W), do, wait for the tick.
func jitterTickerEvents(draw drawFunc, I, W, span time.Duration) []time.Duration {
	var ev []time.Duration
	for k := time.Duration(0); k*I <= span; k++ {
		if at := k*I + draw(W); at <= span {
			ev = append(ev, at)
		}
	}
	return ev
}

// randomSleepEvents: do, sleep draw(2I) (or draw(w) for a wrong range).
func randomSleepEvents(draw drawFunc, w, span time.Duration) []time.Duration {
	var ev []time.Duration
	for at := time.Duration(0); at <= span; at += draw(w) {
		ev = append(ev, at)
	}
	return ev
}

// reoffsetEvents: sleep draw(I), then b events on a fixed ticker, and again; with outer, each
// batch starts on an outer tick every (b+1) intervals.
func reoffsetEvents(draw drawFunc, I time.Duration, b int, outer bool, span time.Duration) []time.Duration {
	var ev []time.Duration
	start := time.Duration(0) // the time the loop begins its next draw
	for m := time.Duration(0); start <= span; m++ {
		if outer {
			start = m * time.Duration(b+1) * I
		}
		s := start + draw(I)
		for j := range time.Duration(b) {
			if at := s + j*I; at <= span {
				ev = append(ev, at)
			}
		}
		start = s + time.Duration(b)*I
	}
	return ev
}

// loopOf returns a correct loop of one of the five shapes (0 Ticker, 1 JitterTicker, 2
// RandomSleep, 3 Reoffset, 4 ReoffsetTicker) over [0, span], with its Schedule.
func loopOf(shape int, draw drawFunc, I, W time.Duration, b int, span time.Duration) (Schedule, []time.Duration) {
	switch shape {
	case 0:
		return Ticker(I), tickerEvents(I, span)
	case 1:
		return JitterTicker(I, W), jitterTickerEvents(draw, I, W, span)
	case 2:
		return RandomSleep(I), randomSleepEvents(draw, 2*I, span)
	case 3:
		return Reoffset(I, b), reoffsetEvents(draw, I, b, false, span)
	}
	return ReoffsetTicker(I, b), reoffsetEvents(draw, I, b, true, span)
}

// sleepAfterWorkEvents: do (taking work), then sleep I.
func sleepAfterWorkEvents(I, work, span time.Duration) []time.Duration {
	return tickerEvents(I+work, span)
}

// Correct loops of every shape pass on every seed.
func TestLoopCorrectPasses(t *testing.T) {
	const span = 1000 * sec
	for seed := range uint64(20) {
		for _, c := range []struct {
			s  Schedule
			ev []time.Duration
		}{
			{Ticker(sec), tickerEvents(sec, span)},
			{JitterTicker(sec, sec), jitterTickerEvents(seeded(seed), sec, sec, span)},
			{JitterTicker(sec, sec/2), jitterTickerEvents(seeded(seed), sec, sec/2, span)},
			{JitterTicker(sec, 100*time.Millisecond), jitterTickerEvents(seeded(seed), sec, 100*time.Millisecond, span)},
			{RandomSleep(sec), randomSleepEvents(seeded(seed), 2*sec, span)},
			{Reoffset(sec, 32), reoffsetEvents(seeded(seed), sec, 32, false, span)},
			{ReoffsetTicker(sec, 32), reoffsetEvents(seeded(seed), sec, 32, true, span)},
		} {
			r, err := AnalyzeLoop(c.ev, c.s, span)
			if err != nil || r.Failed() {
				t.Fatalf("seed %d, %s: %v\n%s", seed, c.s, err, r)
			}
		}
	}
}

// The exact checks (gaps, and pace and rate on a ticker-anchored schedule) never fail a loop
// of the declared shape, whatever its draws: the adversary picks every draw.
func TestLoopExactChecksNeverFail(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		I := time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "interval"))
		intervals := rapid.Int64Range(1, 300).Draw(t, "intervals")
		span := I*time.Duration(intervals) + time.Duration(rapid.Int64Range(0, int64(I)-1).Draw(t, "extra"))
		draw := func(n time.Duration) time.Duration {
			return time.Duration(rapid.Int64Range(0, int64(n)-1).Draw(t, "draw"))
		}
		b := rapid.IntRange(1, 40).Draw(t, "batch")
		W := time.Duration(rapid.Int64Range(1, int64(I)).Draw(t, "window"))
		s, ev := loopOf(rapid.IntRange(0, 4).Draw(t, "shape"), draw, I, W, b, span)
		if len(ev) == 0 {
			return // a re-offset loop still in its first sleep
		}
		r, err := AnalyzeLoop(ev, s, span, FalseFailureRate(0.5))
		if err != nil {
			t.Fatalf("%s over %v: %v", s, span, err)
		}
		for _, f := range r.Failures() {
			if f.Alpha == 0 {
				t.Fatalf("%s over %v, %d events: the exact check %s fails: %s\n%s", s, span, len(ev), f.Name(), f.Observed, r)
			}
		}
	})
}

// Each loop written the wrong way fails exactly the checks that see it.
func TestLoopWrongWays(t *testing.T) {
	const span = 1000 * sec
	tick := func(n time.Duration) time.Duration { return n - 1 } // a draw stuck at the top
	for _, c := range []struct {
		name string
		ev   []time.Duration
		s    Schedule
		want []string
	}{
		{"sleep after 100ms of work, declared a ticker", sleepAfterWorkEvents(sec, 100*time.Millisecond, span), Ticker(sec),
			[]string{string(CheckGaps), string(CheckPace), string(CheckRate)}},
		{"a ticker, declared a jitter + ticker: no jitter", tickerEvents(sec, span), JitterTicker(sec, sec),
			[]string{string(CheckRuns) + "/short", string(CheckRuns) + "/long"}},
		{"random sleep over rand.N(I), not rand.N(2I)", randomSleepEvents(seeded(1), sec, span), RandomSleep(sec),
			[]string{string(CheckPace), string(CheckRate), string(CheckRuns) + "/short", string(CheckRuns) + "/long"}},
		{"random sleep stuck at the top of its range", randomSleepEvents(tick, 2*sec, span), RandomSleep(sec),
			[]string{string(CheckPace), string(CheckRate), string(CheckRuns) + "/short", string(CheckRuns) + "/long"}},
		{"a random sleep loop, declared a jitter + ticker", randomSleepEvents(seeded(2), 2*sec, span), JitterTicker(sec, sec),
			[]string{string(CheckGaps), string(CheckPace), string(CheckRate)}},
		{"jitter + ticker over half the window declared", jitterTickerEvents(seeded(3), sec, sec/2, span), JitterTicker(sec, sec),
			[]string{string(CheckRuns) + "/short", string(CheckRuns) + "/long"}},
		{"re-offset without the outer ticker, declared with it", reoffsetEvents(seeded(4), sec, 32, false, span), ReoffsetTicker(sec, 32),
			[]string{string(CheckPace), string(CheckRate)}},
		{"re-offset inside the outer ticker, declared without it", reoffsetEvents(seeded(5), sec, 32, true, span), Reoffset(sec, 32),
			[]string{string(CheckGaps), string(CheckPace), string(CheckRate)}},
		{"a jitter + ticker that stops after 500 intervals", jitterTickerEvents(seeded(6), sec, sec, span/2), JitterTicker(sec, sec),
			[]string{string(CheckGaps), string(CheckRate)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := AnalyzeLoop(c.ev, c.s, span)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, failed(r)); diff != "" {
				t.Errorf("failing checks (-want +got):\n%s\n%s", diff, r)
			}
		})
	}
}

// TestGoldenLoopReports pins the failure messages of the checks on event times.
func TestGoldenLoopReports(t *testing.T) {
	const span = 100 * sec
	lockstep := make([][]time.Duration, 1000)
	half := make([][]time.Duration, 1000)
	for i := range lockstep {
		lockstep[i] = tickerEvents(sec, 10*sec)
		half[i] = jitterTickerEvents(seeded(uint64(i)), sec, sec/2, 10*sec)
	}
	for _, c := range []struct {
		name string
		run  func() (Report, error)
	}{
		{"loop-sleep-after-work", func() (Report, error) {
			return AnalyzeLoop(sleepAfterWorkEvents(sec, 100*time.Millisecond, span), Ticker(sec), span)
		}},
		{"loop-random-sleep-half-range", func() (Report, error) {
			return AnalyzeLoop(randomSleepEvents(seeded(1), sec, 10*span), RandomSleep(sec), 10*span)
		}},
		{"loop-jitter-ticker", func() (Report, error) {
			return AnalyzeLoop(jitterTickerEvents(seeded(1), sec, sec, 10*span), JitterTicker(sec, sec), 10*span)
		}},
		{"fleet-lockstep-ticker", func() (Report, error) { return AnalyzeFleet(lockstep, Ticker(sec), 10*sec) }},
		{"fleet-half-window", func() (Report, error) { return AnalyzeFleet(half, JitterTicker(sec, sec), 10*sec) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.run()
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", c.name+".golden"), r.String())
		})
	}
}

// The rate of a re-offset loop inside its outer ticker is exact: 32 events per 33 intervals,
// and one event more or less fails.
func TestReoffsetTickerRateExact(t *testing.T) {
	span := 33*30*sec - 1 // the 31st batch could start at 33*30s exactly
	ev := reoffsetEvents(seeded(7), sec, 32, true, span)
	if len(ev) != 32*30 {
		t.Fatalf("%d events in 30 outer periods, want 960", len(ev))
	}
	r, _ := AnalyzeLoop(ev, ReoffsetTicker(sec, 32), span)
	rate := r.Results[2]
	if rate.Check != CheckRate || rate.Failed || rate.Value != 960 || !strings.Contains(rate.Want, "exactly 960 events: 32 per 33 intervals") {
		t.Errorf("rate: %+v", rate)
	}
	r, _ = AnalyzeLoop(ev[:len(ev)-1], ReoffsetTicker(sec, 32), span)
	if !slices.Contains(failed(r), string(CheckRate)) {
		t.Errorf("one event short: rate passes\n%s", r)
	}
}

// The drift band of a random sleep is sizing.UniformSumTol at alpha/K for each of the K batch
// starts: a loop whose sleeps all sit a little above their mean drifts past it by the end,
// and fails just past the band, not just inside it.
func TestRandomSleepDriftBand(t *testing.T) {
	const k, alpha = 900, 1e-9
	share := alpha / 4 // pace, rate and the two runs
	band, err := sizing.UniformSumTol(uint64(2*sec), k, share/k)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    float64
		fail bool
	}{{0.99, false}, {1.01, true}} {
		// The mean sleep is 1s - 0.5ns; each sleep is that plus band*f/k, rounded up.
		step := time.Duration(math.Ceil(float64(sec) - 0.5 + band*c.f/k))
		ev := make([]time.Duration, k+1)
		for i := range ev {
			ev[i] = time.Duration(i) * step
		}
		r, err := AnalyzeLoop(ev, RandomSleep(sec), ev[k]+1, FalseFailureRate(alpha))
		if err != nil {
			t.Fatal(err)
		}
		pace := r.Results[1]
		if pace.Check != CheckPace || pace.Failed != c.fail || math.Abs(pace.Limit-band) > 1 {
			t.Errorf("drift %.2f of the band after %d sleeps: pace %+v; want failed = %v, limit %.0f", c.f, k, pace, c.fail, band)
		}
	}
}

// TestReoffsetOneNanosecond: Reoffset(1ns, b) draws its offsets from [0, 1ns), always 0, so its
// pace and rate are exact: a correct loop passes (its drift of 0 had failed a tolerance of 0),
// and one nanosecond of drift fails. The report gives no sd for draws that have none.
// FuzzCorrectLoop found it.
func TestReoffsetOneNanosecond(t *testing.T) {
	const span = 3936
	ev := reoffsetEvents(seeded(0), 1, 46, false, span)
	r, err := AnalyzeLoop(ev, Reoffset(1, 46), span)
	if err != nil || r.Failed() {
		t.Fatalf("a correct Reoffset(1ns, 46) loop: %v\n%s", err, r)
	}
	if strings.Contains(r.String(), "NaN") {
		t.Errorf("the report says NaN:\n%s", r)
	}
	late := slices.Clone(ev)
	for i := 46 * 40; i < len(late); i++ { // one nanosecond more before the 41st batch
		late[i]++
	}
	r, err = AnalyzeLoop(late[:len(late)-1], Reoffset(1, 46), span)
	if err != nil || !find(r, "pace").Failed {
		t.Errorf("a loop 1ns behind its pace: %v\n%s", err, r)
	}
}

// TestLoopRefusesFleetOptions: WarmUp and Buckets configure the fleet checks (load and
// phases), which a single loop does not run: CheckLoop refuses them rather than ignore them,
// as it refuses LoopStarts. Before, AnalyzeLoop accepted WarmUp and Buckets and ignored them.
func TestLoopRefusesFleetOptions(t *testing.T) {
	events := []time.Duration{0, time.Second, 2 * time.Second}
	for name, o := range map[string]TimeOption{"WarmUp": WarmUp(1), "Buckets": Buckets(8), "LoopStarts": LoopStarts([]time.Duration{0})} {
		if _, err := AnalyzeLoop(events, Ticker(time.Second), 2*time.Second, o); err == nil || !strings.Contains(err.Error(), "applies to fleets") {
			t.Errorf("AnalyzeLoop with %s: error %v, want one saying it applies to fleets", name, err)
		}
	}
	if _, err := AnalyzeFleet([][]time.Duration{events}, Ticker(time.Second), 2*time.Second, WarmUp(1), Buckets(8)); err != nil {
		t.Errorf("AnalyzeFleet with WarmUp and Buckets: %v", err)
	}
}
