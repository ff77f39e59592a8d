package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchPatterns are gonum v0.17.0's blas and lapack packages with their tests: 95,433 lines
// in 428 files (find blas lapack -name '*.go' | xargs cat | wc -l), 12 packages.
var benchPatterns = []string{"./blas/...", "./lapack/..."}

// benchModule is the module the benchmark copies: gonum, or the module@version that
// SPREADVET_BENCH_MODULE names (fetched through the module proxy), with the patterns of
// SPREADVET_BENCH_PATTERNS (separated by spaces; ./... by default).
func benchModule() (string, []string) {
	m := os.Getenv("SPREADVET_BENCH_MODULE")
	if m == "" {
		return "gonum.org/v1/gonum@v0.17.0", benchPatterns
	}
	patterns := strings.Fields(os.Getenv("SPREADVET_BENCH_PATTERNS"))
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	return m, patterns
}

// BenchmarkSpreadvet runs the whole checker over benchPatterns, copied from the module cache
// (gonum is a dependency of this module), or over the module benchModule names:
//
//   - vet-cold: go vet -vettool, every package analyzed afresh, the standard library's
//     dependencies included (go vet keys its cache by the tool's hash, so each iteration
//     appends a byte to a copy of the tool, untimed);
//   - vet-changed: the same tool each time, and every package of blas and lapack changed (a
//     comment appended to one file of each) and compiled again by go vet's own atomic
//     check, untimed: what CI pays after go test has built the change, with the
//     dependencies' results cached;
//   - standalone: spreadvet on the patterns, which loads everything from source each time.
//
// The vet cases also run go vet's own analyzers (the go command's vet tool, "govet", made to
// miss go vet's cache as spreadvet does): the peer whose CPU spreadvet must stay within.
//
// Each case runs this tree's spreadvet ("now") and, when SPREADVET_BASELINE names another
// build of it (an older commit's), that one too, in turn. ns/op is the wall time of one
// whole run; cpu-s/op the CPU time of the command and every process it waited for (user +
// system), which a loaded machine inflates less. The docs' table is TestSpeedTable's
// summary of a recorded run (testdata/bench.txt):
//
//	SPREADVET_BASELINE=$PWD/spreadvet-old go test ./cmd/spreadvet -run XXX -bench Spreadvet -benchtime 1x -count 5 | tee cmd/spreadvet/testdata/bench.txt
func BenchmarkSpreadvet(b *testing.B) {
	module, patterns := benchModule()
	dir := copyModule(b, module)
	govet := goVetTool(b)
	tools := []struct{ name, bin string }{{"now", buildTool(b)}, {"govet", govet}}
	if base := os.Getenv("SPREADVET_BASELINE"); base != "" {
		tools = append(tools, struct{ name, bin string }{"baseline", base})
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	vet := func(tool string) []string { return append([]string{"go", "vet", "-vettool=" + tool}, patterns...) }
	for _, tool := range tools {
		runOnce(b, dir, env, vet(tool.bin)) // compile the dependencies and fill go vet's cache, untimed
	}
	cases := []struct {
		name  string
		setup func(b *testing.B, bin string, i int) []string // untimed; returns the command
	}{
		{"vet-cold", func(b *testing.B, bin string, i int) []string {
			if bin == govet {
				// go vet's own tool says "vet version go1.x" whatever its bytes, so a copy
				// does not miss go vet's cache; a flag that changes nothing (printf.funcs
				// naming no function) changes the cache key instead.
				// The name is new to every run of every process: a name used before, by
				// any process on this machine, hits the cache (the standard library's
				// packages are keyed by their content, not by the module's folder).
				return append(vet(bin), fmt.Sprintf("-printf.funcs=nosuchfunc%d", time.Now().UnixNano()))
			}
			return vet(distinctCopy(b, bin))
		}},
		{"vet-changed", func(b *testing.B, bin string, i int) []string {
			touchPackages(b, dir, patterns, i)
			runOnce(b, dir, env, append([]string{"go", "vet", "-atomic"}, patterns...))
			return vet(bin)
		}},
		{"standalone", func(b *testing.B, bin string, i int) []string { return append([]string{bin}, patterns...) }},
	}
	for _, c := range cases {
		for _, tool := range tools {
			if tool.name == "govet" && c.name == "standalone" {
				continue // go vet's own tool runs only under go vet
			}
			b.Run(c.name+"/"+tool.name, func(b *testing.B) {
				var cpu time.Duration
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					args := c.setup(b, tool.bin, i)
					b.StartTimer()
					cpu += runOnce(b, dir, env, args)
				}
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// runOnce runs args in dir and returns the CPU time it took. Findings are no error (gonum
// has none today, and a benchmark does not judge them); a command that prints nothing and
// fails is.
func runOnce(b *testing.B, dir string, env, args []string) time.Duration {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		b.Fatalf("%v: %v", args, err)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// goVetTool returns the path of the vet tool that plain go vet runs.
func goVetTool(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOTOOLDIR").Output()
	if err != nil {
		b.Fatalf("go env GOTOOLDIR: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "vet")
}

// copies counts the copies distinctCopy made in this process.
var copies int

// distinctCopy writes a copy of the tool with a number of zero bytes appended that no copy
// before it had: it runs the same, and its hash, by which go vet knows it, differs.
func distinctCopy(b *testing.B, bin string) string {
	content, err := os.ReadFile(bin)
	if err != nil {
		b.Fatal(err)
	}
	copies++
	tool := filepath.Join(b.TempDir(), "spreadvet")
	if err := os.WriteFile(tool, append(content, make([]byte, copies)...), 0o755); err != nil {
		b.Fatal(err)
	}
	return tool
}

// touchPackages appends a comment to the first non-test file of every package under the
// patterns, so that go vet analyzes each of them again.
func touchPackages(b *testing.B, dir string, patterns []string, i int) {
	cmd := exec.Command("go", append([]string{"list", "-f", "{{.Dir}}/{{index .GoFiles 0}}"}, patterns...)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("go list: %v", err)
	}
	for _, file := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			_, err = fmt.Fprintf(f, "\n// benchmark run %d\n", i)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}

// copyModule copies module m from the module cache into a writable temporary folder.
func copyModule(b testing.TB, m string) string {
	b.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", m).Output()
	if err != nil {
		b.Fatalf("go mod download %s: %v", m, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "mod")
	for _, args := range [][]string{{"cp", "-r", info.Dir, dir}, {"chmod", "-R", "u+w", dir}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	return dir
}
