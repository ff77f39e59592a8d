// Package runner benchmarks spreadcheck against its peers, side by side in one go test -bench
// run, on two suites, 500 runs each, two processes at a time on this 2-core machine:
//
//   - slow: five tests of about 1 ms of CPU each (a process's start-up is a fair share of a run);
//   - fast: twenty subtests of about 20 µs each (start-up costs more than a whole run).
//
// The tools:
//
//   - go test -count=500: one process, shared state, no per-run seed, no rate;
//   - golang.org/x/tools/cmd/stress -p 2 -count 500 on the precompiled test binary: a process
//     per run, no per-test view; and the same preceded by the go test -c it needs;
//   - spreadcheck -runs 500 -p 2: lists and builds the package itself, then per-test results,
//     intervals, a seed per run and crash isolation, several runs per process when start-up
//     dominates; and spreadcheck -batch 1, a process per run as stress;
//   - the floor: the tests' own CPU time (one process making the 500 runs, measured) divided by
//     the two cores, plus one build (go test -c of the unchanged package, which checks that
//     its binary is up to date and does not link it again, as a warm cache allows).
//
// Each iteration runs the tools one after another, in an order that rotates from one
// iteration to the next, so that the noise of a shared machine falls on all of them alike. The
// benchmark reports each tool's wall time and CPU time (user + system, its child processes
// included) per 500 runs. Run it and make the docs' table as
//
//	go test -bench . -benchtime 1x -count 10 -timeout 1h | tee RESULTS.txt
//	go run ./cmd/table < RESULTS.txt > testdata/table.md
//
// (then go test ./internal/readme -update in the repository's root copies the table in).
package runner

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

const runs = "500"

// setup builds the commands and the suite's binary once, outside the timed part, and warms the
// build cache for go test and spreadcheck's binary cache.
func setup(b *testing.B, suite string) (bin string) {
	bin = b.TempDir()
	for _, c := range [][]string{
		{"go", "build", "-o", filepath.Join(bin, "spreadcheck"), "github.com/spreadcheck/spreadcheck/cmd/spreadcheck"},
		{"go", "build", "-o", filepath.Join(bin, "stress"), "golang.org/x/tools/cmd/stress"},
		{"go", "test", "-c", "-o", filepath.Join(bin, "suite.test"), "./" + suite},
		{"go", "test", "-count=1", "./" + suite},
		{filepath.Join(bin, "spreadcheck"), "-runs", "1", "-progress=false", "-results", filepath.Join(bin, "warm.jsonl"), "./" + suite},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
	return bin
}

// tool is one way to make the runs: its steps run in turn.
type tool struct {
	name  string
	steps [][]string
}

func tools(bin, suite string) []tool {
	stress := []string{filepath.Join(bin, "stress"), "-p", "2", "-count", runs, filepath.Join(bin, "suite.test")}
	sc := []string{filepath.Join(bin, "spreadcheck"), "-runs", runs, "-p", "2", "-seed", "1", "-progress=false",
		"-results", filepath.Join(bin, "results.jsonl")}
	return []tool{
		{"gotest", [][]string{{"go", "test", "-count=" + runs, "./" + suite}}},
		{"stress", [][]string{stress}},
		{"build+stress", [][]string{{"go", "test", "-c", "-o", filepath.Join(bin, "suite.test"), "./" + suite}, stress}},
		{"spreadcheck", [][]string{append(sc, "./"+suite)}},
		{"spreadcheck-batch1", [][]string{append(sc, "-batch", "1", "./"+suite)}},
		// The floor's parts: one build (of a package whose binary is up to date, which the go
		// command does not link again), and the tests' own CPU time in one process.
		{"build", [][]string{{"go", "test", "-c", "-o", filepath.Join(bin, "suite.test"), "./" + suite}}},
		{"tests", [][]string{{filepath.Join(bin, "suite.test"), "-test.count=" + runs}}},
	}
}

// round rotates the order of the tools across the -count invocations of the benchmark.
var round int

func BenchmarkSlowSuite(b *testing.B) { sideBySide(b, "slow") }

func BenchmarkFastSuite(b *testing.B) { sideBySide(b, "fast") }

func sideBySide(b *testing.B, suite string) {
	bin := setup(b, suite)
	ts := tools(bin, suite)
	wall := make([]time.Duration, len(ts))
	cpu := make([]time.Duration, len(ts))
	for b.Loop() {
		round++
		for j := range ts {
			k := (round + j) % len(ts)
			w, c := runSteps(b, ts[k].steps)
			wall[k] += w
			cpu[k] += c
		}
	}
	n := float64(b.N)
	for k, t := range ts {
		b.ReportMetric(wall[k].Seconds()/n, t.name+"-s")
		b.ReportMetric(cpu[k].Seconds()/n, t.name+"-cpu-s")
	}
	floor := (cpu[6].Seconds()/2 + wall[5].Seconds()) / n
	b.ReportMetric(floor, "floor-s")
}

// runSteps runs a tool's steps and returns their wall and CPU time.
func runSteps(b *testing.B, steps [][]string) (wall, cpu time.Duration) {
	for _, step := range steps {
		cmd := exec.Command(step[0], step[1:]...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%v: %v\n%s", step, err, out.Bytes())
		}
		wall += time.Since(start)
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return wall, cpu
}
