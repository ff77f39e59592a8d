// Command medians reads go test -bench output on stdin and prints, for each benchmark and
// each metric it reports, the median over the runs (-count) and the number of runs, one line
// each, sorted: the file the README shows. Each ratio in the input was taken within one
// iteration, where the machine's load fell on both sides alike; its median is over those.
//
//	(uptime; go test -bench . -benchtime 1x -count 6 -timeout 1h; uptime) | tee raw.txt
//	go run ./cmd/medians < raw.txt > RESULTS.txt
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

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "medians:", err)
		os.Exit(1)
	}
}

// run reads benchmark lines from r and writes the medians to w.
func run(r io.Reader, w io.Writer) error {
	values := map[string][]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(procs.ReplaceAllString(f[0], ""), "Benchmark")
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil || f[i+1] == "ns/op" {
				continue
			}
			key := name + " " + f[i+1]
			values[key] = append(values[key], v)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(values) == 0 {
		return fmt.Errorf("no benchmark lines on stdin")
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%-58s median %8.3f  (%d runs)\n", k, median(values[k]), len(values[k]))
	}
	return nil
}

// median returns the middle value, or the mean of the two middle ones.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
