// Command table reads the output of the module's benchmark (go test -bench . -count N, with
// uptime's lines before and after it) on stdin and prints the README's table: per sample and
// computation, the median time and bytes per call over the N runs, and the medians of its
// ratios to the floor and to gonum, each ratio taken within one run, where the machine's load
// fell on all the computations alike.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
	names  []string                        // the benchmarks, in the order they first appear
	runs   map[string][]map[string]float64 // per benchmark, each line's metrics
	rounds map[string][]int                // per benchmark, each line's rounds (its b.N)
	procs  string                          // GOMAXPROCS, from the names' suffix
	loads  []string                        // the one-minute load average of each uptime line
}

var (
	procsSuffix = regexp.MustCompile(`-(\d+)$`)
	loadAverage = regexp.MustCompile(`load average: ([0-9.]+)`)
)

func read(r io.Reader) (input, error) {
	in := input{runs: map[string][]map[string]float64{}, rounds: map[string][]int{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if m := loadAverage.FindStringSubmatch(sc.Text()); m != nil {
			in.loads = append(in.loads, m[1])
			continue
		}
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkSpread/") {
			continue
		}
		in.add(f)
	}
	return in, sc.Err()
}

// add records one benchmark line: name, rounds, then value-unit pairs.
func (in *input) add(f []string) {
	name := strings.TrimPrefix(f[0], "BenchmarkSpread/")
	if m := procsSuffix.FindStringSubmatch(name); m != nil {
		in.procs, name = m[1], strings.TrimSuffix(name, m[0])
	}
	if _, seen := in.runs[name]; !seen {
		in.names = append(in.names, name)
	}
	metrics := map[string]float64{}
	for i := 2; i+1 < len(f); i += 2 {
		if v, err := strconv.ParseFloat(f[i], 64); err == nil {
			metrics[f[i+1]] = v
		}
	}
	rounds, _ := strconv.Atoi(f[1])
	in.runs[name] = append(in.runs[name], metrics)
	in.rounds[name] = append(in.rounds[name], rounds)
}

func write(w io.Writer, in input) {
	fmt.Fprintln(w, "| sample | computation | time per call | allocated per call | / floor | / gonum | runs x rounds |")
	fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|")
	for _, name := range in.names {
		lines := in.runs[name]
		for i, c := range computations {
			label, runs := "", ""
			if i == 0 {
				label, runs = sampleLabel(name), runsLabel(in.rounds[name])
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", label, c.label,
				duration(median(lines, c.metric+"-ns")), size(median(lines, c.metric+"-B")),
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
func runsLabel(rounds []int) string {
	if len(rounds) > 0 && slices.Min(rounds) == slices.Max(rounds) {
		return fmt.Sprintf("%d x %d", len(rounds), rounds[0])
	}
	return strconv.Itoa(len(rounds))
}

func thousands(v int) string {
	s := strconv.Itoa(v)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// duration prints nanoseconds to three significant digits in a unit that suits them.
func duration(ns float64) string {
	switch {
	case ns < 0:
		return ""
	case ns < 1e3:
		return sig3(ns) + " ns"
	case ns < 1e6:
		return sig3(ns/1e3) + " µs"
	case ns < 1e9:
		return sig3(ns/1e6) + " ms"
	}
	return sig3(ns/1e9) + " s"
}

// size prints a byte count to three significant digits in decimal units.
func size(b float64) string {
	switch {
	case b < 0:
		return ""
	case b < 1e3:
		return sig3(b) + " B"
	case b < 1e6:
		return sig3(b/1e3) + " kB"
	}
	return sig3(b/1e6) + " MB"
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

// medianRatio returns the median over the lines of one computation's time over another's.
func medianRatio(lines []map[string]float64, of, to string) float64 {
	var vs []float64
	for _, l := range lines {
		v, ok := l[of+"-ns"]
		if d := l[to+"-ns"]; ok && d > 0 {
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
