package spread

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"
)

type fleetEvent struct {
	loop int
	at   time.Duration
}

// inTimeOrder merges a fleet's events in time order (ties in loop order), as a fakeclock
// Fleet's Sink delivers them.
func inTimeOrder(loops [][]time.Duration) []fleetEvent {
	var out []fleetEvent
	for i, evs := range loops {
		for _, at := range evs {
			out = append(out, fleetEvent{i, at})
		}
	}
	slices.SortStableFunc(out, func(a, b fleetEvent) int { return cmp.Compare(a.at, b.at) })
	return out
}

// BenchmarkFleetStream feeds a fleet's events one at a time, as a fakeclock Fleet's Sink hands
// them over, and reports: the cost per event of Add (ns/event) and of the whole check with
// its report (ns/event-total), and the memory per event of the whole (B/event), which does
// not grow with the events.
func BenchmarkFleetStream(b *testing.B) {
	for _, c := range []struct {
		loops, intervals int
		s                Schedule
	}{
		{10_000, 100, JitterTicker(sec, sec)},
		{10_000, 100, RandomSleep(sec)},
		{1_000, 3_600, Reoffset(sec, 32)},
	} {
		span := time.Duration(c.intervals) * sec
		loops := fleetOf(c.loops, 1, func(d drawFunc) []time.Duration {
			switch c.s.drawNoun() {
			case "sleep":
				return randomSleepEvents(d, 2*sec, span)
			case "offset":
				return reoffsetEvents(d, sec, 32, false, span)
			}
			return jitterTickerEvents(d, sec, sec, span)
		})
		events := inTimeOrder(loops)
		b.Run(fmt.Sprintf("%s/loops=%d/intervals=%d", c.s.drawNoun(), c.loops, c.intervals), func(b *testing.B) {
			b.ReportAllocs()
			var add time.Duration
			for b.Loop() {
				f, err := NewFleetStream(c.loops, c.s, span)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for _, e := range events {
					if err := f.Add(e.loop, e.at); err != nil {
						b.Fatal(err)
					}
				}
				add += time.Since(start)
				if _, err := f.Report(); err != nil {
					b.Fatal(err)
				}
			}
			n := float64(b.N) * float64(len(events))
			b.ReportMetric(float64(add.Nanoseconds())/n, "ns/event")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/event-total")
		})
	}
}
