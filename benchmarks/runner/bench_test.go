// Package runner benchmarks spreadcheck against its peers, side by side in one go test -bench
// run, on a package of five tests of about 1 ms of CPU each, 500 runs:
//
//   - go test -count=500: one process, shared state, no per-run seed, no rate;
//   - golang.org/x/tools/cmd/stress -p 2 -count 500 on the precompiled test binary: parallel
//     processes, no per-test view; and the same preceded by the go test -c it needs;
//   - spreadcheck -runs 500 -p 2: lists and builds the package itself, then per-test results,
//     intervals and seeds.
//
// Each iteration runs the tools one after another, in an order that rotates from one
// iteration to the next, so that the noise of a shared machine falls on all of them alike.
// The benchmark reports each tool's wall time and CPU time (user + system, its child processes
// included) per 500 runs, and the ratios of wall times. Run it as
//
//	go test -bench . -benchtime 1x -count 10
//
// and take medians over the count.
package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

const runs = "500"

// tools builds the commands once, outside the timed part.
func tools(b *testing.B) (bin string) {
	bin = b.TempDir()
	for _, c := range [][]string{
		{"go", "build", "-o", filepath.Join(bin, "spreadcheck"), "github.com/spreadcheck/spreadcheck/cmd/spreadcheck"},
		{"go", "build", "-o", filepath.Join(bin, "stress"), "golang.org/x/tools/cmd/stress"},
		{"go", "test", "-c", "-o", filepath.Join(bin, "fixture.test"), "./fixture"},
		{"go", "test", "-count=1", "./fixture"}, // warm the build cache for go test
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
	return bin
}

// round rotates the order of the tools across the -count invocations of the benchmark.
var round int

func BenchmarkSideBySide(b *testing.B) {
	bin := tools(b)
	stress := []string{filepath.Join(bin, "stress"), "-p", "2", "-count", runs, filepath.Join(bin, "fixture.test")}
	tools := []struct {
		name  string
		steps [][]string
	}{
		{"gotest", [][]string{{"go", "test", "-count=" + runs, "./fixture"}}},
		{"stress", [][]string{stress}},
		{"build+stress", [][]string{{"go", "test", "-c", "-o", filepath.Join(bin, "fixture.test"), "./fixture"}, stress}},
		{"spreadcheck", [][]string{{filepath.Join(bin, "spreadcheck"), "-runs", runs, "-p", "2", "-seed", "1",
			"-progress=false", "-results", filepath.Join(bin, "results.jsonl"), "./fixture"}}},
	}
	wall := make([]time.Duration, len(tools))
	cpu := make([]time.Duration, len(tools))
	for b.Loop() {
		round++
		for j := range tools {
			k := (round + j) % len(tools)
			for _, step := range tools[k].steps {
				cmd := exec.Command(step[0], step[1:]...)
				cmd.Stderr = os.Stderr
				start := time.Now()
				if out, err := cmd.Output(); err != nil {
					b.Fatalf("%v: %v\n%s", step, err, out)
				}
				wall[k] += time.Since(start)
				cpu[k] += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
		}
	}
	n := float64(b.N)
	for k, t := range tools {
		b.ReportMetric(wall[k].Seconds()/n, t.name+"-s")
		b.ReportMetric(cpu[k].Seconds()/n, t.name+"-cpu-s")
	}
	b.ReportMetric(float64(wall[3])/float64(wall[1]), "spreadcheck/stress")
	b.ReportMetric(float64(wall[3])/float64(wall[2]), "spreadcheck/build+stress")
	b.ReportMetric(float64(wall[3])/float64(wall[0]), "spreadcheck/gotest")
}
