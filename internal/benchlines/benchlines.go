// Package benchlines reads the lines that go test -bench prints, for the commands under
// benchmarks/ that turn a recorded run into a docs table, and takes their medians: one
// reading of the format for all of them.
package benchlines

import (
	"bufio"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Line is one benchmark line: the benchmark's name without Benchmark and the GOMAXPROCS
// suffix (OneLoop/floor), and each value it reports by its unit as printed (ns/op, B/event,
// spreadcheck-s).
type Line struct {
	Name   string
	Values map[string]float64
}

var procs = regexp.MustCompile(`-\d+$`)

// Read returns the benchmark lines of r, in order. Other lines (headers, the load, comments,
// PASS) are skipped, as is a value that is not a number.
func Read(r io.Reader) ([]Line, error) {
	var lines []Line
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		l := Line{Name: strings.TrimPrefix(procs.ReplaceAllString(f[0], ""), "Benchmark"), Values: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				l.Values[f[i+1]] = v
			}
		}
		lines = append(lines, l)
	}
	return lines, sc.Err()
}

// Median returns the middle value of xs, or the mean of the two middle ones; xs must not be
// empty.
func Median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
