// Package shapetable measures the loop shapes of package loops, each run as its schedule on a
// fakeclock Fleet (the schedules are shown equal to the loops' code by the tests of package
// loops): the table of docs/examples.md (mean rate, smallest and largest gap, where the 1,000th event
// lands and how far it drifts, the fleet's peak-to-mean load) and the load over one interval
// that the fleetplot command draws. Every figure is a function of the seed.
package shapetable

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/spreadcheck/spreadcheck/examples/loops"
	"github.com/spreadcheck/spreadcheck/fakeclock"
	"github.com/spreadcheck/spreadcheck/spread"
)

// Interval is the loops' interval.
const Interval = time.Second

// Seed is the seed of the docs' table and pictures.
const Seed = 1

// Work is how long the thing takes in the rows that say so.
const Work = 100 * time.Millisecond

// The fleets measured.
const (
	PaceLoops     = 1000    // copies whose pace, gaps and drift are measured...
	PaceIntervals = 1200    // ...for this many intervals (event 1,000 comes by 1,100 in every shape)
	LoadLoops     = 100_000 // copies started in lockstep whose load is counted...
	LoadIntervals = 10      // ...for this many intervals
	PlotBuckets   = 100     // buckets of the load's picture over interval 1
	CheckBuckets  = 32      // buckets per interval of the peak-to-mean figure, as spread's load check
)

// A Shape is a loop shape as its schedule.
type Shape struct {
	Name     string // e.g. "jitter + ticker"
	File     string // a file name for its picture, e.g. "jitter-ticker"
	Schedule func(*rand.Rand) func(time.Duration) time.Duration
}

// Shapes returns the shapes of the table, in the article's order.
func Shapes() []Shape {
	return []Shape{
		{"sleep after 100 ms of work", "sleep-after-work", loops.SleepAfterWorkSchedule(Interval + Work)},
		{"ticker, 100 ms of work", "ticker", spread.Ticker(Interval).Next},
		{"random sleep rand.N(2I)", "random-sleep", spread.RandomSleep(Interval).Next},
		{"jitter + ticker", "jitter-ticker", spread.JitterTicker(Interval, Interval).Next},
		{"jitter over half the interval", "jitter-half", spread.JitterTicker(Interval, Interval/2).Next},
		{"jitter over a fixed 100 ms", "jitter-100ms", spread.JitterTicker(Interval, 100*time.Millisecond).Next},
		{"re-offset every 32 ticks", "reoffset", spread.Reoffset(Interval, loops.Batch).Next},
		{"re-offset inside an outer ticker", "reoffset-ticker", spread.ReoffsetTicker(Interval, loops.Batch).Next},
	}
}

// A Row is what Measure finds of a shape.
type Row struct {
	Shape          Shape
	Rate           float64       // events per interval over the first 1,000 intervals
	MinGap, MaxGap time.Duration // over every copy's whole run
	At1000, Drift  time.Duration // the mean and the standard deviation, over the copies, of event 1,000
	PeakToMean     float64       // the fullest of CheckBuckets buckets per interval over the mean, first LoadIntervals
	PeakAfterOne   float64       // the same from the second interval on
	Load           []float64     // interval 1 in PlotBuckets buckets, as multiples of an even spread
}

// Measure runs the shape's two fleets with the given seed.
func Measure(s Shape, seed uint64) (Row, error) {
	r := Row{Shape: s}
	if err := r.pace(seed); err != nil {
		return r, err
	}
	return r, r.load(seed)
}

// pace measures rate, gaps and event 1,000 on PaceLoops copies.
func (r *Row) pace(seed uint64) error {
	fl := fakeclock.Fleet{Loops: PaceLoops, Seed: seed, For: PaceIntervals * Interval}
	events, err := fl.RunSchedule(r.Shape.Schedule)
	if err != nil {
		return err
	}
	r.MinGap, r.MaxGap = math.MaxInt64, 0
	var counted int
	at := make([]float64, len(events)) // event 1,000 of each copy
	for i, evs := range events {
		if len(evs) <= 1000 {
			return fmt.Errorf("%s: copy %d made %d events in %v, not 1,001", r.Shape.Name, i, len(evs), fl.For)
		}
		for k, at := range evs {
			if at < 1000*Interval {
				counted++
			}
			if k > 0 {
				r.MinGap, r.MaxGap = min(r.MinGap, at-evs[k-1]), max(r.MaxGap, at-evs[k-1])
			}
		}
		at[i] = float64(evs[1000])
	}
	r.Rate = float64(counted) / float64(len(events)) / 1000
	mean, sd := stat.MeanStdDev(at, nil)
	r.At1000, r.Drift = time.Duration(math.Round(mean)), time.Duration(math.Round(sd))
	return nil
}

// load counts LoadLoops copies started in lockstep, streamed, in buckets.
func (r *Row) load(seed uint64) error {
	var check [LoadIntervals * CheckBuckets]int
	plot := make([]int, PlotBuckets)
	fl := fakeclock.Fleet{Loops: LoadLoops, Seed: seed, For: LoadIntervals*Interval - 1,
		Sink: func(_ int, at time.Duration) {
			check[int64(at)*CheckBuckets/int64(Interval)]++
			if at >= Interval && at < 2*Interval {
				plot[int64(at-Interval)*PlotBuckets/int64(Interval)]++
			}
		}}
	if _, err := fl.RunSchedule(r.Shape.Schedule); err != nil {
		return err
	}
	r.PeakToMean = peakToMean(check[:])
	r.PeakAfterOne = peakToMean(check[CheckBuckets:])
	even := float64(LoadLoops) / PlotBuckets
	for _, c := range plot {
		r.Load = append(r.Load, float64(c)/even)
	}
	return nil
}

func peakToMean(counts []int) float64 {
	top, sum := 0, 0
	for _, c := range counts {
		top, sum = max(top, c), sum+c
	}
	return float64(top) * float64(len(counts)) / float64(sum)
}

// Markdown returns the rows as the docs' table.
func Markdown(rows []Row) string {
	var b strings.Builder
	b.WriteString("| shape (I = 1s) | events per interval | smallest gap | largest gap | event 1,000 at (mean) | its drift (sd over copies) | peak/mean load, lockstep start | from the 2nd interval |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.4f | %v | %v | %.1fs | %v | %.2f | %.2f |\n", r.Shape.Name, r.Rate,
			round(r.MinGap), round(r.MaxGap), r.At1000.Seconds(), round(r.Drift), r.PeakToMean, r.PeakAfterOne)
	}
	return b.String()
}

// round rounds d to four significant digits.
func round(d time.Duration) time.Duration {
	for unit := time.Duration(1); unit < time.Hour; unit *= 10 {
		if d.Abs() < unit*10000 {
			return d.Round(unit)
		}
	}
	return d.Round(time.Second)
}
