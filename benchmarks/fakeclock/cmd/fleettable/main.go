// Command fleettable reads the output of the fleet benchmarks on stdin
// (BenchmarkFleetCode/* and BenchmarkFleetSchedule lines, each run once per
// -count) and prints the README's table: per driver, the median ns per
// event, events per second, bytes per event, the ratio to fakeclock's
// median, and the number of runs.
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var procs = regexp.MustCompile(`-\d+$`)

type runs struct{ ns, bytes []float64 }

func main() {
	byName := map[string]*runs{}
	var names []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkFleet") {
			continue
		}
		ns, ok := metric(f, "ns/event")
		if !ok {
			continue
		}
		name := procs.ReplaceAllString(f[0], "")
		if byName[name] == nil {
			byName[name] = &runs{}
			names = append(names, name)
		}
		r := byName[name]
		r.ns = append(r.ns, ns)
		if b, ok := metric(f, "B/event"); ok {
			r.bytes = append(r.bytes, b)
		}
	}
	base := byName["BenchmarkFleetCode/fakeclock"]
	fmt.Println("| driver | ns/event (median) | events/s | B/event | x fakeclock | runs |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, name := range names {
		r := byName[name]
		ns := median(r.ns)
		ratio := "-"
		if base != nil && strings.HasPrefix(name, "BenchmarkFleetCode/") {
			ratio = fmt.Sprintf("%.2f", ns/median(base.ns))
		}
		bytes := "-"
		if len(r.bytes) > 0 {
			bytes = fmt.Sprintf("%.1f", median(r.bytes))
		}
		fmt.Printf("| %s | %.0f | %.3g | %s | %s | %d |\n",
			strings.TrimPrefix(name, "Benchmark"), ns, 1e9/ns, bytes, ratio, len(r.ns))
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
