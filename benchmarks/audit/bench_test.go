// Package audit benchmarks spreadcheck audit against gremlins (github.com/go-gremlins/gremlins),
// the most used Go mutation tester, side by side in one go test -bench run, on the same
// fixture: internal/audit/testdata/story, a bidder's retry backoff in four copies, each tested
// differently.
//
//   - gremlins unleash --workers 2: gathers coverage, then builds and runs go test once per
//     mutant (arithmetic and comparison operators), in a copy of the module;
//   - spreadcheck audit -p 2: finds the draws, builds one mutant schema, traces which tests
//     reach each draw, runs them R = 20 times at baseline, then each mutant up to R times;
//   - spreadcheck audit -p 2 -per-mutant: the same with one test binary built per mutant, to
//     measure what the schema saves;
//   - spreadcheck audit -p 2 -all-runs: every mutant run R = 20 times, no sequential stopping.
//
// Each iteration runs the four one after another, in an order that rotates from one
// iteration to the next, so that the noise of a shared machine falls on all of them alike.
// It reports each tool's wall time in total and per mutant that ran, spreadcheck's mean runs
// per mutant, and the ratios of the per-mutant times. Run it as
//
//	go test -bench . -benchtime 1x -count 6 | tee b.txt && ../runner/median.sh b.txt
package audit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// setup builds both commands and copies the fixture to a temporary module whose replace
// directive points at this repository, outside the timed part.
func setup(b *testing.B) (bin, fixture string) {
	bin = b.TempDir()
	for _, c := range [][]string{
		{"go", "build", "-o", filepath.Join(bin, "spreadcheck"), "github.com/spreadcheck/spreadcheck/cmd/spreadcheck"},
		{"go", "build", "-o", filepath.Join(bin, "gremlins"), "github.com/go-gremlins/gremlins/cmd/gremlins"},
	} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	fixture = filepath.Join(b.TempDir(), "story")
	src := filepath.Join(root, "internal", "audit", "testdata", "story")
	if out, err := exec.Command("cp", "-r", src, fixture).CombinedOutput(); err != nil {
		b.Fatalf("cp: %v\n%s", err, out)
	}
	mod := filepath.Join(fixture, "go.mod")
	data, err := os.ReadFile(mod)
	if err != nil {
		b.Fatal(err)
	}
	data = regexp.MustCompile(`=> \S+`).ReplaceAll(data, []byte("=> "+root))
	if err := os.WriteFile(mod, data, 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", ".") // warm the build cache for both
	cmd.Dir = fixture
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go test: %v\n%s", err, out)
	}
	return bin, fixture
}

// tool is one command under test, and how to count the mutants it ran.
type tool struct {
	name    string
	args    []string
	mutants func(out []byte, file string) (mutants, runs int)
}

// round rotates the order of the tools across the -count invocations of the benchmark.
var round int

func BenchmarkSideBySide(b *testing.B) {
	bin, fixture := setup(b)
	out := filepath.Join(b.TempDir(), "gremlins.json")
	tools := []tool{
		{"gremlins", []string{filepath.Join(bin, "gremlins"), "unleash", "--workers", "2", "-o", out, "."}, gremlinsMutants},
		{"spreadcheck", []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json", "-progress=false"}, auditMutants},
		{"spreadcheck-per-mutant", []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json",
			"-progress=false", "-per-mutant"}, auditMutants},
		{"spreadcheck-all-runs", []string{filepath.Join(bin, "spreadcheck"), "audit", "-p", "2", "-seed", "1", "-json",
			"-progress=false", "-all-runs"}, auditMutants},
	}
	wall := make([]time.Duration, len(tools))
	muts := make([]int, len(tools))
	runs := make([]int, len(tools))
	for b.Loop() {
		round++
		for j := range tools {
			k := (round + j) % len(tools)
			t := tools[k]
			cmd := exec.Command(t.args[0], t.args[1:]...)
			cmd.Dir = fixture
			start := time.Now()
			stdout, err := cmd.Output()
			wall[k] += time.Since(start)
			if _, exit := err.(*exec.ExitError); err != nil && !exit { // both exit 1 when a mutant lives
				b.Fatalf("%s: %v", t.name, err)
			}
			m, r := t.mutants(stdout, out)
			if m == 0 {
				b.Fatalf("%s ran no mutant:\n%s", t.name, stdout)
			}
			muts[k] += m
			runs[k] += r
		}
	}
	per := make([]float64, len(tools))
	for k, t := range tools {
		per[k] = wall[k].Seconds() / float64(muts[k])
		b.ReportMetric(wall[k].Seconds()/float64(b.N), t.name+"-s")
		b.ReportMetric(per[k], t.name+"-s/mutant")
		b.ReportMetric(float64(muts[k])/float64(b.N), t.name+"-mutants")
		if runs[k] > 0 {
			b.ReportMetric(float64(runs[k])/float64(muts[k]), t.name+"-runs/mutant")
		}
	}
	b.ReportMetric(per[0]/per[1], "gremlins/spreadcheck-per-mutant")
	b.ReportMetric(per[0]/per[3], "gremlins/spreadcheck-all-runs-per-mutant")
	b.ReportMetric(per[2]/per[1], "per-mutant/schemata")
	b.ReportMetric(0, "ns/op") // the metrics above say it all
}

// gremlinsMutants counts the mutants gremlins ran (killed, lived, timed out), once each.
func gremlinsMutants(_ []byte, file string) (int, int) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, 0
	}
	var r struct {
		Files []struct {
			Mutations []struct{ Status string } `json:"mutations"`
		} `json:"files"`
	}
	if json.Unmarshal(data, &r) != nil {
		return 0, 0
	}
	n := 0
	for _, f := range r.Files {
		for _, m := range f.Mutations {
			if s := strings.ToUpper(m.Status); s == "KILLED" || s == "LIVED" || s == "TIMED OUT" {
				n++
			}
		}
	}
	return n, n
}

// auditMutants counts the mutants spreadcheck audit ran (killed or survived) and their runs.
func auditMutants(out []byte, _ string) (int, int) {
	var r struct {
		Sites []struct {
			Mutants []struct {
				Verdict string
				Runs    int
			}
		}
	}
	if json.Unmarshal(out, &r) != nil {
		return 0, 0
	}
	n, runs := 0, 0
	for _, s := range r.Sites {
		for _, m := range s.Mutants {
			if m.Verdict == "killed" || m.Verdict == "survived" {
				n++
				runs += m.Runs
			}
		}
	}
	return n, runs
}
