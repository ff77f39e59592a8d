// Command table reads the output of the module's benchmark (go test -bench . -count N, with
// uptime's lines before and after it) on stdin and prints the docs' table: per sample and
// computation, the median time and bytes per call over the N runs, and the medians of its
// ratios to the floor and to gonum, each ratio taken within one run, where the machine's load
// fell on all the computations alike.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"gonum.org/v1/gonum/stat"
)

// The rows of each sample: the computation's metric prefix and its label.
var computations = []struct{ metric, label string }{
	{"analyze", "`spread.Analyze`, default battery, limits already sized at this n"},
	{"first", "`spread.Analyze` at a new n (sizes every limit)"},
	{"floor", "floor: copy the sample, sort the copy"},
	{"gonum", "gonum: copy to float64, sort, KS distance to `distuv.Uniform` (a statistic only)"},
}

// The samples, by the benchmark's name for them.
var samples = map[string]string{
	"duration": "`time.Duration` over [0, 1s)",
	"float64":  "`float64` over [0, 1)",
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "table:", err)
		os.Exit(1)
	}
}

// run reads the benchmark's output from r and writes the table to w.
func run(r io.Reader, w io.Writer) error {
	in, err := read(r)
	if err != nil {
		return err
	}
	if len(in.names) == 0 {
		return errors.New("no benchmark lines on stdin: pipe in go test -bench output")
	}
	write(w, in)
	return nil
}

// input is what the table needs from the benchmark's output.
type input struct {
	names []string                      // the benchmarks, in the order they first appear
	runs  map[string][]*benchfmt.Result // per benchmark, each run's line
	procs string                        // GOMAXPROCS, from the names' suffix
	loads []string                      // the one-minute load average of each uptime line
}

var loadAverage = regexp.MustCompile(`load average: ([0-9.]+)`)

// read parses the benchmark lines with golang.org/x/perf/benchfmt, as benchstat does, and
// takes the load averages from the uptime lines, which benchfmt ignores.
func read(r io.Reader) (input, error) {
	in := input{runs: map[string][]*benchfmt.Result{}}
	text, err := io.ReadAll(r)
	if err != nil {
		return in, err
	}
	for _, m := range loadAverage.FindAllSubmatch(text, -1) {
		in.loads = append(in.loads, string(m[1]))
	}
	br := benchfmt.NewReader(bytes.NewReader(text), "stdin")
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return in, rec
		case *benchfmt.Result:
			in.add(rec.Clone())
		}
	}
	return in, br.Err()
}

// add records one run of a BenchmarkSpread sub-benchmark under its name less the GOMAXPROCS.
func (in *input) add(r *benchfmt.Result) {
	base, parts := r.Name.Parts()
	if string(base) != "Spread" {
		return
	}
	var name string
	for _, p := range parts {
		if procs, ok := bytes.CutPrefix(p, []byte("-")); ok {
			in.procs = string(procs)
			continue
		}
		name += string(p)
	}
	name = strings.TrimPrefix(name, "/")
	if _, seen := in.runs[name]; !seen {
		in.names = append(in.names, name)
	}
	in.runs[name] = append(in.runs[name], r)
}

func write(w io.Writer, in input) {
	fmt.Fprintln(w, "| sample | computation | time per call | allocated per call | / floor | / gonum | runs x rounds |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|")
	for _, name := range in.names {
		lines := in.runs[name]
		for i, c := range computations {
			label, runs := "", ""
			if i == 0 {
				label, runs = sampleLabel(name), runsLabel(lines)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", label, c.label,
				duration(median(lines, c.metric+"-sec")), size(median(lines, c.metric+"-B")),
				ratio(medianRatio(lines, c.metric, "floor")), ratio(medianRatio(lines, c.metric, "gonum")), runs)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, footer(in))
}

// footer says what the figures are, and the machine's load while they were taken.
func footer(in input) string {
	s := "Medians over the runs; each ratio is taken within a run (the computations interleaved, " +
		"in an order rotating from one round to the next) before its median."
	if len(in.loads) >= 2 {
		s += fmt.Sprintf(" Load average (1 minute) %s before the runs, %s after", in.loads[0], in.loads[len(in.loads)-1])
		if in.procs != "" {
			s += fmt.Sprintf(", GOMAXPROCS %s", in.procs)
		}
		s += "."
	}
	return s
}

// sampleLabel turns "duration/n=1000" into the sample's description.
func sampleLabel(name string) string {
	kind, n, ok := strings.Cut(name, "/n=")
	if label, known := samples[kind]; known {
		kind = label
	}
	if !ok {
		return kind
	}
	if v, err := strconv.Atoi(n); err == nil {
		n = thousands(v)
	}
	return kind + ", n = " + n
}

// runsLabel says how many runs, and how many rounds each, when they all made the same number.
func runsLabel(runs []*benchfmt.Result) string {
	rounds := map[int]bool{}
	for _, r := range runs {
		rounds[r.Iters] = true
	}
	if len(rounds) == 1 {
		return fmt.Sprintf("%d x %d", len(runs), runs[0].Iters)
	}
	return strconv.Itoa(len(runs))
}

func thousands(v int) string {
	s := strconv.Itoa(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// duration prints seconds (benchfmt's unit for the benchmark's -ns metrics) to three
// significant digits in a unit that suits them.
func duration(sec float64) string { return scaled(sec*1e9, "ns", "µs", "ms", "s") }

// size prints a byte count to three significant digits in decimal units.
func size(b float64) string { return scaled(b, "B", "kB", "MB", "GB") }

// scaled prints v in the largest of units (each 1000 times the one before) that leaves it at
// least 1, or nothing for a negative v (a figure no run had).
func scaled(v float64, units ...string) string {
	if v < 0 {
		return ""
	}
	k := 0
	for ; k+1 < len(units) && v >= 999.5; k++ { // 999.5 would print as 1000
		v /= 1000
	}
	return sig3(v) + " " + units[k]
}

func sig3(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func ratio(v float64) string {
	if v < 0 {
		return ""
	}
	return sig3(v)
}

// median returns the median of a unit's values over the runs, or -1 when no run has it.
func median(runs []*benchfmt.Result, unit string) float64 {
	var vs []float64
	for _, r := range runs {
		if v, ok := r.Value(unit); ok {
			vs = append(vs, v)
		}
	}
	return med(vs)
}

// medianRatio returns the median over the runs of one computation's time over another's.
func medianRatio(runs []*benchfmt.Result, of, to string) float64 {
	var vs []float64
	for _, r := range runs {
		v, ok := r.Value(of + "-sec")
		if d, _ := r.Value(to + "-sec"); ok && d > 0 {
			vs = append(vs, v/d)
		}
	}
	return med(vs)
}

// med returns the median of vs, or -1 when vs is empty: for an even count the lower of the two
// middle values, so that every figure in the table is one run's own.
func med(vs []float64) float64 {
	if len(vs) == 0 {
		return -1
	}
	slices.Sort(vs)
	return stat.Quantile(0.5, stat.Empirical, vs, nil)
}
