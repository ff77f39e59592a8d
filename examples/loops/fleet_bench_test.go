package loops

import (
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/spread"
)

// BenchmarkFleetChecks runs 100,000 jitter + ticker loops for 100 intervals as their schedule,
// side by side: the fleet alone (a Sink that only counts) and the fleet streamed into spread's
// fleet checks (a FleetStream as the Sink, then its Report). ns/event is per delivered event;
// the checks' memory does not grow with the events (B/op is the same order for both).
func BenchmarkFleetChecks(b *testing.B) {
	const loops, intervals = 100_000, 100
	span := intervals * interval
	for _, c := range []struct {
		name  string
		check bool
	}{{"fleet-alone", false}, {"fleet-with-checks", true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			events := 0
			for b.Loop() {
				sink := func(int, time.Duration) { events++ }
				var stream *spread.FleetStream
				if c.check {
					var err error
					if stream, err = spread.NewFleetStream(loops, spread.JitterTicker(interval, interval), span); err != nil {
						b.Fatal(err)
					}
					sink = func(i int, at time.Duration) { events++; stream.Add(i, at) }
				}
				fl := fakeclock.Fleet{Loops: loops, Seed: 1, For: span, Sink: sink}
				if _, err := fl.RunSchedule(spread.JitterTicker(interval, interval).Next); err != nil {
					b.Fatal(err)
				}
				if c.check {
					if r, err := stream.Report(); err != nil || r.Failed() {
						b.Fatal(err, r)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
		})
	}
}
