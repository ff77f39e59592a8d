package spread_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/spreadcheck/spreadcheck/spread"
)

// A loop that sleeps an interval after 100ms of work, declared as a ticker: its pace slips by
// the work's duration at every event, and the report says where.
func ExampleAnalyzeLoop() {
	var events []time.Duration
	for at := time.Duration(0); at <= 5*time.Second; at += 1100 * time.Millisecond {
		events = append(events, at)
	}
	report, err := spread.AnalyzeLoop(events, spread.Ticker(time.Second), 5*time.Second)
	if err != nil {
		panic(err)
	}
	fmt.Print(report)
	// Output:
	// spread: 3 of 3 statistics fail on n = 5 values against Ticker(1s) over [0s, 5s] (false-failure rate 1e-9 for the call, split by Bonferroni)
	//   most likely: off-schedule
	//   FAIL gaps: gap of 1.1s before event 1 (at 1.1s); smallest gap 1.1s (before event 1), largest 1.1s (before event 1); 4 of 4 gaps outside; and no event after 4.4s, where event 5 was due by 5s; want the gap before event 1 exactly 1s
	//        exact: a Ticker(1s)'s gaps are exactly 1s
	//        outside the limit: 100ms too late; suggests: off-schedule: gaps the schedule does not have (a sleep after the work adds the work to every gap)
	//   FAIL pace: event 4 at 4.4s; 4 of 5 events off their windows; want event 4 exactly 4s
	//        exact: a Ticker(1s)'s event k lies at k*1s
	//        outside the limit: 400ms too late; suggests: off-schedule: events off the ticker's grid (a sleep in place of the ticker, or work that outlasts the interval)
	//   FAIL rate: 5 events in [0s, 5s]; want exactly 6 events: 1 per interval
	//        exact: a Ticker(1s)'s event k lies at k*1s, so the windows that end by the end of the span count its events
	//        outside the limit: 1 event too few
	//   events by their place in their interval, 32 buckets of 31.25ms (a loop spread over the interval puts about 0.156 in each; fullest here: 1):
	//     0s |█  █  █  █  █                   | 1s
	//   the other statistics:
	//     runs/short                   skipped: the schedule draws nothing
	//     runs/long                    skipped: the schedule draws nothing
}

// A fleet of jitter + ticker loops started together spreads over the whole interval from the
// first one; the same fleet jittering over a fixed 100ms window stays packed.
func ExampleAnalyzeFleet() {
	const loops, span = 2000, 5 * time.Second
	fleet := func(window time.Duration) [][]time.Duration {
		r := rand.New(rand.NewPCG(1, 2))
		events := make([][]time.Duration, loops)
		for i := range events {
			for k := time.Duration(0); k*time.Second <= span; k++ {
				if at := k*time.Second + time.Duration(r.Int64N(int64(window))); at <= span {
					events[i] = append(events[i], at)
				}
			}
		}
		return events
	}
	for _, window := range []time.Duration{time.Second, 100 * time.Millisecond} {
		report, err := spread.AnalyzeFleet(fleet(window), spread.JitterTicker(time.Second, time.Second), span)
		if err != nil {
			panic(err)
		}
		fmt.Printf("window %v: failed %v, most likely %v\n", window, report.Failed(), report.Diagnosis())
	}
	// Output:
	// window 1s: failed false, most likely []
	// window 100ms: failed true, most likely [packed]
}

// A FleetStream takes the events one at a time, as a fakeclock Fleet's Sink hands them over,
// and keeps no event: here a lockstep fleet of plain tickers.
func ExampleFleetStream() {
	const loops, span = 1000, 3 * time.Second
	stream, err := spread.NewFleetStream(loops, spread.Ticker(time.Second), span)
	if err != nil {
		panic(err)
	}
	for at := time.Duration(0); at <= span; at += time.Second {
		for i := range loops {
			stream.Add(i, at) // a Sink has no error to return: Report returns the stream's first
		}
	}
	report, err := stream.Report()
	if err != nil {
		panic(err)
	}
	for _, f := range report.Failures() {
		fmt.Printf("%s: %s; want %s\n", f.Name(), f.Observed, f.Want)
	}
	// Output:
	// load: fullest bucket [0s, 31.25ms) holds 1000 events, 32 times the mean 31.2 per bucket; want at most 75 events in every bucket of 31.25ms
	// phases: phases (offsets into their interval) of 1000 loops' first events from 0s on: D = 1.0000 (largest gap between the sample's CDF and the declared one); want D < 0.1049
}
