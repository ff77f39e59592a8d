// Command medians reads go test -bench output on stdin and prints the docs'
// tables. The tick table: per clock, the median ns per delivered tick (or
// else ns/op) over the runs of one loop and of a fleet of 1,000 loops, each
// with its ratio to the channel floor of the same scenario. The fleet
// benchmarks (lines in ns/event) get the docs' fleet table instead: per
// driver, the median ns per event, events per second, CPU ns per event,
// bytes per event, the ratio to fakeclock's median, the ratio of its CPU
// time to the floor's (the same fleet's goroutine hand-offs alone), and
// the number of runs.
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/benchlines"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "medians:", err)
		os.Exit(1)
	}
}

// run reads benchmark lines from r and writes the tables to w.
func run(r io.Reader, w io.Writer) error {
	lines, err := benchlines.Read(r)
	if err != nil {
		return err
	}
	runs := map[string][]float64{}
	fleet := &fleetRuns{byName: map[string]*perEvent{}}
	for _, l := range lines {
		if fleet.add(l) {
			continue
		}
		v, ok := l.Values["ns/tick"]
		if !ok {
			v, ok = l.Values["ns/op"]
		}
		if ok {
			runs[l.Name] = append(runs[l.Name], v)
		}
	}
	printTicks(w, runs)
	fleet.print(w)
	return nil
}

// clocks are the tick table's rows, in order: the benchmarks' names and what
// each row says of them.
var clocks = []struct{ name, label string }{
	{"floor", "unbuffered channel round trip (floor)"},
	{"fakeclock", "**fakeclock**, outside a bubble"},
	{"fakeclock-bubble", "**fakeclock** in `Test` (bubble)"},
	{"k8s", "k8s.io/utils/clock/testing"},
	{"clockwork", "jonboulle/clockwork v0.5.0"},
	{"synctest", "testing/synctest"},
	{"quartz", "coder/quartz v0.3.1"},
	{"benbjohnson", "benbjohnson/clock v1.3.5 (sleeps 1 ms per tick; fleet: 2 ticks)"},
}

// printTicks writes the tick table from the runs of BenchmarkOneLoop/<clock>
// and BenchmarkFleet/<clock>; a clock with no runs of either is left out.
func printTicks(w io.Writer, runs map[string][]float64) {
	if len(runs) == 0 {
		return
	}
	fmt.Fprintln(w, "| | one loop | x floor | fleet, 1,000 loops x 100 ticks | x floor | runs |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|")
	for _, c := range clocks {
		one, fleet := runs["OneLoop/"+c.name], runs["Fleet/"+c.name]
		if len(one)+len(fleet) == 0 {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d |\n", c.label,
			perTick(one), overFloor(one, runs["OneLoop/floor"]),
			perTick(fleet), overFloor(fleet, runs["Fleet/floor"]), max(len(one), len(fleet)))
	}
}

// perTick formats the median ns per tick, "-" without runs.
func perTick(xs []float64) string {
	if len(xs) == 0 {
		return "-"
	}
	return thousands(benchlines.Median(xs))
}

// overFloor formats the ratio of the medians: two decimals below 10, three
// figures below 1,000, whole beyond.
func overFloor(xs, floor []float64) string {
	if len(xs) == 0 || len(floor) == 0 {
		return "-"
	}
	switch r := benchlines.Median(xs) / benchlines.Median(floor); {
	case r < 10:
		return strconv.FormatFloat(r, 'f', 2, 64)
	case r < 1000:
		return strconv.FormatFloat(r, 'g', 3, 64)
	default:
		return thousands(r)
	}
}

// thousands formats x rounded to a whole number, its thousands separated by commas.
func thousands(x float64) string {
	s := strconv.FormatFloat(x, 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// fleetRuns collects the fleet benchmarks' runs, in ns/event and B/event.
type fleetRuns struct {
	byName map[string]*perEvent
	names  []string
}

type perEvent struct{ ns, bytes, cpu []float64 }

// add records a line in ns/event and reports whether it was one.
func (fr *fleetRuns) add(l benchlines.Line) bool {
	ns, ok := l.Values["ns/event"]
	if !ok {
		return false
	}
	if fr.byName[l.Name] == nil {
		fr.byName[l.Name] = &perEvent{}
		fr.names = append(fr.names, l.Name)
	}
	r := fr.byName[l.Name]
	r.ns = append(r.ns, ns)
	if b, ok := l.Values["B/event"]; ok {
		r.bytes = append(r.bytes, b)
	}
	if c, ok := l.Values["cpu-ns/event"]; ok {
		r.cpu = append(r.cpu, c)
	}
	return true
}

func (fr *fleetRuns) print(w io.Writer) {
	if len(fr.names) == 0 {
		return
	}
	base, floor := fr.byName["FleetCode/fakeclock"], fr.byName["FleetCode/floor"]
	fmt.Fprintln(w, "| driver | ns/event (median) | events/s | CPU ns/event | B/event | x fakeclock | CPU x floor | runs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, name := range fr.names {
		r := fr.byName[name]
		ns := benchlines.Median(r.ns)
		ratio, bytes, cpu, overFloor := "-", "-", "-", "-"
		code := strings.HasPrefix(name, "FleetCode/")
		if base != nil && code {
			ratio = fmt.Sprintf("%.2f", ns/benchlines.Median(base.ns))
		}
		if len(r.bytes) > 0 {
			bytes = fmt.Sprintf("%.1f", benchlines.Median(r.bytes))
		}
		if len(r.cpu) > 0 {
			cpu = fmt.Sprintf("%.0f", benchlines.Median(r.cpu))
			if floor != nil && len(floor.cpu) > 0 && code {
				overFloor = fmt.Sprintf("%.2f", benchlines.Median(r.cpu)/benchlines.Median(floor.cpu))
			}
		}
		fmt.Fprintf(w, "| %s | %.0f | %.3g | %s | %s | %s | %s | %d |\n",
			name, ns, 1e9/ns, cpu, bytes, ratio, overFloor, len(r.ns))
	}
}
