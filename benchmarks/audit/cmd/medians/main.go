// Command medians reads go test -bench output on stdin and prints, for each benchmark and
// each metric it reports, the median over the runs (-count) and the number of runs, one line
// each, sorted: the file the docs show. Each ratio in the input was taken within one
// iteration, where the machine's load fell on both sides alike; its median is over those.
//
//	(uptime; go test -bench . -benchtime 1x -count 6 -timeout 1h; uptime) | tee raw.txt
//	go run ./cmd/medians < raw.txt > RESULTS.txt
package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/spreadcheck/spreadcheck/internal/benchlines"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "medians:", err)
		os.Exit(1)
	}
}

// run reads benchmark lines from r and writes the medians to w.
func run(r io.Reader, w io.Writer) error {
	lines, err := benchlines.Read(r)
	if err != nil {
		return err
	}
	values := map[string][]float64{}
	for _, l := range lines {
		for unit, v := range l.Values {
			if unit != "ns/op" {
				values[l.Name+" "+unit] = append(values[l.Name+" "+unit], v)
			}
		}
	}
	if len(values) == 0 {
		return fmt.Errorf("no benchmark lines on stdin")
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		fmt.Fprintf(w, "%-58s median %8.3f  (%d runs)\n", k, benchlines.Median(values[k]), len(values[k]))
	}
	return nil
}
