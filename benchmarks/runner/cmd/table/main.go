// Command table reads the output of the side-by-side benchmark (go test -bench . -count N)
// on stdin and prints the docs' table: per suite and tool, the median wall and CPU time
// over the N iterations, and the medians of spreadcheck's ratios to its peers and to the
// floor, each ratio taken within one iteration, where the machine's load fell on all alike.
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/spreadcheck/spreadcheck/internal/benchlines"
)

// A row of the table: the label, and the metric it shows.
var rows = []struct{ label, metric string }{
	{"`go test -count=500` (one process: no seed per run, no rate, no isolation)", "gotest"},
	{"stress on a precompiled binary (a process per run, no per-test view)", "stress"},
	{"`go test -c`, then stress", "build+stress"},
	{"**spreadcheck** (build included; runs per process chosen from measured times)", "spreadcheck"},
	{"spreadcheck `-batch 1` (a process per run, as stress)", "spreadcheck-batch1"},
	{"floor: the tests' own CPU time / 2 cores, plus one `go test -c`", "floor"},
}

// The ratios, each of spreadcheck's wall time to another's.
var ratios = []struct{ label, of string }{
	{"spreadcheck / stress", "stress"},
	{"spreadcheck / `go test -count=500`", "gotest"},
	{"spreadcheck / floor", "floor"},
}

var suites = []string{"SlowSuite", "FastSuite"}

func main() {
	lines, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
	write(os.Stdout, lines)
}

// read returns, per benchmark, the metrics of each of its lines.
func read(r io.Reader) (map[string][]map[string]float64, error) {
	lines, err := benchlines.Read(r)
	out := map[string][]map[string]float64{}
	for _, l := range lines {
		out[l.Name] = append(out[l.Name], l.Values)
	}
	return out, err
}

func write(w io.Writer, lines map[string][]map[string]float64) {
	n := len(lines[suites[0]])
	fmt.Fprintf(w, "| 500 runs, `-p 2`, 2 shared cores (medians of %d) | slow suite: wall | CPU | fast suite: wall | CPU |\n", n)
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|")
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |", r.label)
		for _, s := range suites {
			fmt.Fprintf(w, " %s | %s |", secs(median(lines[s], r.metric+"-s")), secs(median(lines[s], r.metric+"-cpu-s")))
		}
		fmt.Fprintln(w)
	}
	for _, r := range ratios {
		fmt.Fprintf(w, "| %s |", r.label)
		for _, s := range suites {
			fmt.Fprintf(w, " %.2f | |", medianRatio(lines[s], r.of+"-s"))
		}
		fmt.Fprintln(w)
	}
}

func secs(v float64) string {
	if v < 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " s"
}

// median returns the median of a metric over the lines, or -1 when no line has it.
func median(lines []map[string]float64, metric string) float64 {
	var vs []float64
	for _, l := range lines {
		if v, ok := l[metric]; ok {
			vs = append(vs, v)
		}
	}
	return med(vs)
}

// medianRatio returns the median over the lines of spreadcheck's wall time over another's.
func medianRatio(lines []map[string]float64, of string) float64 {
	var vs []float64
	for _, l := range lines {
		if d := l[of]; d > 0 {
			vs = append(vs, l["spreadcheck-s"]/d)
		}
	}
	return med(vs)
}

// med returns the median of vs, or -1 when vs is empty.
func med(vs []float64) float64 {
	if len(vs) == 0 {
		return -1
	}
	return benchlines.Median(vs)
}
