package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// benchLine is one result of BenchmarkSpreadvet: case/tool, wall ns/op, cpu-s/op.
var benchLine = regexp.MustCompile(`^BenchmarkSpreadvet/([a-z-]+)/([a-z]+)-\d+\s+\d+\s+(\d+) ns/op\s+([0-9.]+) cpu-s/op`)

// TestSpeedTable summarises the recorded run of BenchmarkSpreadvet (testdata/bench.txt) as the
// README's table (testdata/speed.md; -update rewrites it): per case and tool, the median wall
// and CPU seconds, and the ratios of the medians, now / baseline.
func TestSpeedTable(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs := map[string][]sample{} // "case/tool"
	var cases []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, _ := strconv.ParseFloat(m[3], 64)
		cpu, _ := strconv.ParseFloat(m[4], 64)
		runs[m[1]+"/"+m[2]] = append(runs[m[1]+"/"+m[2]], sample{ns / 1e9, cpu})
		if !slices.Contains(cases, m[1]) {
			cases = append(cases, m[1])
		}
	}
	if len(cases) == 0 {
		t.Fatal("no BenchmarkSpreadvet lines in testdata/bench.txt")
	}
	var b strings.Builder
	b.WriteString("| case | now: wall | now: CPU | baseline: wall | baseline: CPU | now / baseline: wall | CPU | runs |\n|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, c := range cases {
		now, base := runs[c+"/now"], runs[c+"/baseline"]
		nowWall, nowCPU := median(now, wallOf), median(now, cpuOf)
		baseWall, baseCPU := median(base, wallOf), median(base, cpuOf)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %d |\n", c,
			secs(nowWall), secs(nowCPU), secs(baseWall), secs(baseCPU),
			fixed(nowWall/baseWall), fixed(nowCPU/baseCPU), len(now))
	}
	golden.Check(t, filepath.Join("testdata", "speed.md"), b.String())
}

// A sample is one run: its wall and CPU seconds.
type sample struct{ wall, cpu float64 }

func wallOf(s sample) float64 { return s.wall }
func cpuOf(s sample) float64  { return s.cpu }

// median returns the median of get over the samples, or NaN for none.
func median(ss []sample, get func(sample) float64) float64 {
	if len(ss) == 0 {
		return math.NaN()
	}
	var xs []float64
	for _, s := range ss {
		xs = append(xs, get(s))
	}
	slices.Sort(xs)
	if len(xs)%2 == 0 {
		return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	return xs[len(xs)/2]
}

// secs writes a number of seconds, as fixed does.
func secs(x float64) string {
	if math.IsNaN(x) {
		return fixed(x)
	}
	return fixed(x) + " s"
}

// fixed writes x with two decimals, or "none" for NaN (no baseline recorded).
func fixed(x float64) string {
	if math.IsNaN(x) {
		return "none"
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
