package spread

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// A Schedule declares when a loop that does a thing once per interval may do it: its shape and
// its interval. Make one with Ticker, JitterTicker, RandomSleep, Reoffset or ReoffsetTicker;
// CheckLoop and CheckFleet check event times against it. The zero Schedule is invalid.
//
// Every shape is a run of batches: a batch is b events one interval apart on a fixed ticker,
// and a random draw, uniform over the integer nanoseconds of [0, window) as rand.N draws it,
// places each batch. A ticker-anchored shape starts batch m at m*period + draw, so that its
// pace is fixed; a sleep-anchored one starts it after the previous batch and a sleep, so that
// its pace drifts like the square root of the number of sleeps.
type Schedule struct {
	name     string
	interval int64 // I, nanoseconds
	window   int64 // draws are uniform over 0..window-1; 0: no draw
	batch    int64 // events per batch, one interval apart
	anchored bool  // ticker-anchored: batch m starts at m*period + draw
	period   int64 // anchored: the outer period; sleep-anchored: the fixed time between the
	// end of a batch's last interval and the start of the next batch's draw, plus batch*I
	sleepFirst bool  // sleep-anchored: the loop draws before its first batch
	lastBatch  int64 // ticker-anchored: the last batch whose windows end within int64
	err        error
}

// Ticker declares a loop that does the thing, then waits for the next tick of a ticker with the
// given interval: event k at exactly k*interval, however long the thing takes (below one
// interval).
func Ticker(interval time.Duration) Schedule {
	s := Schedule{name: fmt.Sprintf("Ticker(%v)", interval), interval: int64(interval), batch: 1, anchored: true, period: int64(interval)}
	return s.validate()
}

// JitterTicker declares a loop that sleeps rand.N(window), does the thing, then waits for the
// next tick of a ticker with the given interval: event k in [k*interval, k*interval + window),
// and two events between interval - window and interval + window apart (0 to 2 intervals when
// the window is the whole interval). The window must be in (0, interval].
func JitterTicker(interval, window time.Duration) Schedule {
	s := Schedule{name: fmt.Sprintf("JitterTicker(%v, window %v)", interval, window), interval: int64(interval),
		window: int64(window), batch: 1, anchored: true, period: int64(interval)}
	if s.err == nil && (window <= 0 || window > interval) {
		s.err = fmt.Errorf("spread: %s: the window must be in (0, interval]", s.name)
	}
	return s.validate()
}

// RandomSleep declares a loop that does the thing, then sleeps rand.N(2*interval): the first
// event at 0, then gaps uniform over [0, 2*interval), one event per interval on average, with
// hot and cold runs, and a pace that drifts like sqrt(k).
func RandomSleep(interval time.Duration) Schedule {
	s := Schedule{name: fmt.Sprintf("RandomSleep(%v)", interval), interval: int64(interval), batch: 1}
	if interval > math.MaxInt64/2 {
		s.err = fmt.Errorf("spread: %s: twice the interval overflows a Duration", s.name)
	}
	s.window = 2 * s.interval
	return s.validate()
}

// Reoffset declares a loop that sleeps rand.N(interval), then does the thing batch times on a
// fixed ticker with the given interval, and starts again: gaps of exactly one interval within a
// batch and one to two intervals between batches, batch events per batch*interval plus half an
// interval on average, and a pace that drifts like the square root of the number of batches.
func Reoffset(interval time.Duration, batch int) Schedule {
	s := Schedule{name: fmt.Sprintf("Reoffset(%v, batch %d)", interval, batch), interval: int64(interval),
		window: int64(interval), batch: int64(batch), sleepFirst: true}
	s.period = s.checkBatch(batch, 0)
	return s.validate()
}

// ReoffsetTicker declares Reoffset inside an outer ticker of (batch+1) intervals: each batch
// starts rand.N(interval) after an outer tick, so that event j of batch m lies in
// [(m*(batch+1) + j)*interval, (m*(batch+1) + j + 1)*interval): exactly batch events per
// batch+1 intervals, and a fixed pace.
func ReoffsetTicker(interval time.Duration, batch int) Schedule {
	s := Schedule{name: fmt.Sprintf("ReoffsetTicker(%v, batch %d)", interval, batch), interval: int64(interval),
		window: int64(interval), batch: int64(batch), anchored: true}
	s.period = s.checkBatch(batch, 1)
	return s.validate()
}

// checkBatch validates the batch size and returns (batch+extra) intervals, the period.
func (s *Schedule) checkBatch(batch, extra int) int64 {
	if batch < 1 || s.interval <= 0 || int64(batch+extra) > math.MaxInt64/s.interval || batch > math.MaxInt32 {
		if s.interval > 0 {
			s.err = fmt.Errorf("spread: %s: the batch must be at least 1 and (batch+%d) intervals must fit in a Duration", s.name, extra)
		}
		return 0
	}
	return int64(batch+extra) * s.interval
}

// validate sets the error for a bad interval, keeping an earlier error, and the last batch
// whose windows end within int64.
func (s Schedule) validate() Schedule {
	if s.interval <= 0 {
		s.err = fmt.Errorf("spread: %s: the interval must be positive", s.name)
	}
	if s.err == nil && s.anchored {
		s.lastBatch = (math.MaxInt64 - (s.batch-1)*s.interval - max(s.window-1, 0)) / s.period
	}
	return s
}

// String returns the declaration, e.g. "JitterTicker(1s, window 1s)".
func (s Schedule) String() string {
	if s.name == "" {
		return "Schedule{}"
	}
	return s.name
}

// check returns the declaration's error, or one for the zero Schedule.
func (s Schedule) check() error {
	if s.name == "" {
		return fmt.Errorf("spread: the zero Schedule declares no loop: use Ticker, JitterTicker, RandomSleep, Reoffset or ReoffsetTicker")
	}
	return s.err
}

// Next returns the next-event function of one copy of the declared loop, drawing from r as
// the loop does (each batch's offset as r.Int64N(window), in order): given the time of the
// copy's last event (at first, its start) it returns the time of its next one. It is what
// fakeclock's Fleet.RunSchedule drives, so that one declaration serves the fleet's run and its
// check: events, err := fleet.RunSchedule(s.Next), then spread.CheckFleet(t, events, s,
// fleet.For). A time past the end of int64 is math.MaxInt64, which ends a copy. Next of an
// invalid Schedule panics with its error (RunSchedule reports it).
func (s Schedule) Next(r *rand.Rand) func(last time.Duration) time.Duration {
	if err := s.check(); err != nil {
		panic(err)
	}
	draw := func() int64 {
		if s.window == 0 {
			return 0
		}
		return r.Int64N(s.window)
	}
	var start, batchStart int64
	m, j := int64(-1), s.batch // batch m, events of it made so far
	return func(last time.Duration) time.Duration {
		if m < 0 {
			start = int64(last)
		}
		if j == s.batch {
			m, j = m+1, 0
			switch {
			case s.anchored && m > s.lastBatch:
				return math.MaxInt64
			case s.anchored:
				batchStart = satAdd(start, m*s.period+draw())
			case m == 0 && s.sleepFirst:
				batchStart = satAdd(start, draw())
			case m == 0:
				batchStart = start
			default:
				batchStart = satAdd(int64(last), satAdd(s.sleepGap(), draw()))
			}
		}
		j++
		return time.Duration(satAdd(batchStart, (j-1)*s.interval))
	}
}

// satAdd returns a + b for b >= 0, or math.MaxInt64 where it overflows.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// random reports whether the schedule draws.
func (s Schedule) random() bool { return s.window > 0 }

// sleepGap returns the fixed part of the gap between the last event of a batch and the first
// of the next, on a sleep-anchored schedule: the rest of the batch's last interval.
func (s Schedule) sleepGap() int64 { return s.period - (s.batch-1)*s.interval }

// mean returns the mean of one draw, (window-1)/2 nanoseconds.
func (s Schedule) mean() float64 { return float64(s.window-1) / 2 }
