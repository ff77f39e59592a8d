// Command medians reads go test -bench output on stdin and prints, for each
// benchmark, the median of its ns/tick (or else ns/op) over the runs, and
// its ratio to the channel floor of the same scenario.
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

func main() {
	runs := map[string][]float64{}
	var names []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := procs.ReplaceAllString(f[0], "")
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
		fmt.Printf("%-36s %12.1f ns/tick  %s  (n=%d)\n", name, m, ratio, len(runs[name]))
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
