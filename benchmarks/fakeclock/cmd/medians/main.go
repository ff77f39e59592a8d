// Command medians reads go test -bench output on stdin and prints, for each
// benchmark, the median of its ns/tick (or else ns/op) over the runs, and
// its ratio to the channel floor of the same scenario. The fleet
// benchmarks (lines in ns/event) get the README's fleet table instead: per
// driver, the median ns per event, events per second, CPU ns per event,
// bytes per event, the ratio to fakeclock's median, the ratio of its CPU
// time to the floor's (the same fleet's goroutine hand-offs alone), and
// the number of runs.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var procs = regexp.MustCompile(`-\d+$`)

func main() { run(os.Stdin, os.Stdout) }

// run reads benchmark lines from r and writes the tables to w.
func run(r io.Reader, w io.Writer) {
	runs := map[string][]float64{}
	var names []string
	fleet := &fleetRuns{byName: map[string]*perEvent{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := procs.ReplaceAllString(f[0], "")
		if fleet.add(name, f) {
			continue
		}
		v, ok := metric(f, "ns/tick")
		if !ok {
			v, ok = metric(f, "ns/op")
		}
		if !ok {
			continue
		}
		if _, seen := runs[name]; !seen {
			names = append(names, name)
		}
		runs[name] = append(runs[name], v)
	}
	slices.Sort(names)
	for _, name := range names {
		m := median(runs[name])
		floor := runs[name[:strings.LastIndex(name, "/")+1]+"floor"]
		ratio := ""
		if len(floor) > 0 {
			ratio = fmt.Sprintf("%6.2fx floor", m/median(floor))
		}
		fmt.Fprintf(w, "%-36s %12.1f ns/tick  %s  (n=%d)\n", name, m, ratio, len(runs[name]))
	}
	fleet.print(w)
}

// fleetRuns collects the fleet benchmarks' runs, in ns/event and B/event.
type fleetRuns struct {
	byName map[string]*perEvent
	names  []string
}

type perEvent struct{ ns, bytes, cpu []float64 }

// add records a line in ns/event and reports whether it was one.
func (fr *fleetRuns) add(name string, f []string) bool {
	ns, ok := metric(f, "ns/event")
	if !ok {
		return false
	}
	if fr.byName[name] == nil {
		fr.byName[name] = &perEvent{}
		fr.names = append(fr.names, name)
	}
	r := fr.byName[name]
	r.ns = append(r.ns, ns)
	if b, ok := metric(f, "B/event"); ok {
		r.bytes = append(r.bytes, b)
	}
	if c, ok := metric(f, "cpu-ns/event"); ok {
		r.cpu = append(r.cpu, c)
	}
	return true
}

func (fr *fleetRuns) print(w io.Writer) {
	if len(fr.names) == 0 {
		return
	}
	base, floor := fr.byName["BenchmarkFleetCode/fakeclock"], fr.byName["BenchmarkFleetCode/floor"]
	fmt.Fprintln(w, "| driver | ns/event (median) | events/s | CPU ns/event | B/event | x fakeclock | CPU x floor | runs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, name := range fr.names {
		r := fr.byName[name]
		ns := median(r.ns)
		ratio, bytes, cpu, overFloor := "-", "-", "-", "-"
		code := strings.HasPrefix(name, "BenchmarkFleetCode/")
		if base != nil && code {
			ratio = fmt.Sprintf("%.2f", ns/median(base.ns))
		}
		if len(r.bytes) > 0 {
			bytes = fmt.Sprintf("%.1f", median(r.bytes))
		}
		if len(r.cpu) > 0 {
			cpu = fmt.Sprintf("%.0f", median(r.cpu))
			if floor != nil && len(floor.cpu) > 0 && code {
				overFloor = fmt.Sprintf("%.2f", median(r.cpu)/median(floor.cpu))
			}
		}
		fmt.Fprintf(w, "| %s | %.0f | %.3g | %s | %s | %s | %s | %d |\n",
			strings.TrimPrefix(name, "Benchmark"), ns, 1e9/ns, cpu, bytes, ratio, overFloor, len(r.ns))
	}
}

func metric(f []string, unit string) (float64, bool) {
	for i := 2; i < len(f); i++ {
		if f[i] == unit {
			v, err := strconv.ParseFloat(f[i-1], 64)
			return v, err == nil
		}
	}
	return 0, false
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
