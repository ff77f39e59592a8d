package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/runner"
)

// inFixtures runs the test in the runner's fixture module, as a user would run spreadcheck in
// their own module.
func inFixtures(t *testing.T) {
	// The default results file goes to TMPDIR, the binary cache under XDG_CACHE_HOME; the go
	// command's build cache, which also defaults to XDG_CACHE_HOME, stays where it is.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Chdir("../../internal/runner/testdata/fixtures")
}

func spreadcheck(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestFlakyPackage(t *testing.T) {
	inFixtures(t)
	dir := t.TempDir()
	md := filepath.Join(dir, "summary.md")
	code, out, errOut := spreadcheck(t, "-runs", "30", "-seed", "1", "-p", "2", "-o", dir, "-summary", md, "./flaky", "./readsdata")
	if code != runner.ExitFlaky {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, runner.ExitFlaky, errOut)
	}
	for _, want := range []string{
		"spreadcheck: 30 runs of 2 packages, seed 1,",
		"fixtures/flaky (30 runs)",
		"TestFlaky: ",
		" go test -run '^TestFlaky$' -count=1 ./flaky",
		"replaying a failing run's seed fails again",
		"fixtures/readsdata (30 runs)",
		"FLAKY: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// Progress goes to stderr, as plain lines when stderr is not a terminal.
	if !strings.Contains(errOut, "60/60 runs") {
		t.Errorf("stderr lacks the progress lines:\n%s", errOut)
	}
	if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), "| `fixtures/flaky.TestFlaky` | 30 |") {
		t.Errorf("summary %s: %v\n%s", md, err, b)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "fixtures_flaky.run*.log"))
	if _, err := os.Stat(filepath.Join(dir, "results.jsonl")); err != nil || len(logs) == 0 {
		t.Errorf("-o %s: results file %v, %d logs", dir, err, len(logs))
	}
	// A threshold of 50% is above every interval.
	if code, out, _ := spreadcheck(t, "-runs", "30", "-seed", "1", "-max-flake", "0.5", "-progress=false", "./flaky"); code != runner.ExitClean {
		t.Errorf("-max-flake 0.5: exit %d\n%s", code, out)
	}
}

func TestJSON(t *testing.T) {
	inFixtures(t)
	code, out, errOut := spreadcheck(t, "-runs", "5", "-seed", "2", "-json", "-progress=false", "./readsdata")
	if code != runner.ExitClean {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	var rep runner.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("-json output does not decode: %v\n%s", err, out)
	}
	if rep.Runs != 5 || rep.Seed != 2 || len(rep.Packages) != 1 || rep.Packages[0].Tests[0].Runs != 5 {
		t.Errorf("decoded report: %+v", rep)
	}
	if !strings.Contains(errOut, "results saved in ") {
		t.Errorf("stderr does not say where the results are:\n%s", errOut)
	}
}

func TestBuildError(t *testing.T) {
	inFixtures(t)
	code, out, _ := spreadcheck(t, "-runs", "2", "-progress=false", "./broken", "./readsdata")
	if code != runner.ExitBuild || !strings.Contains(out, "undefined: undefinedName") || !strings.Contains(out, "BUILD FAILED") {
		t.Errorf("exit %d, want %d, and the compiler's message:\n%s", code, runner.ExitBuild, out)
	}
}

func TestUsageErrors(t *testing.T) {
	inFixtures(t)
	for _, args := range [][]string{
		{"-runs", "0", "./readsdata"},
		{"-p", "0", "./readsdata"},
		{"-max-flake", "1.5", "./readsdata"},
		{"-max-flake", "NaN", "./readsdata"},
		{"-detect", "0", "./readsdata"},
		{"-shard", "3/2", "./readsdata"},
		{"-bogus"},
		{"./notests"},        // no package with tests
		{"./does/not/exist"}, // go list fails
		{"merge"},            // no files
		{"merge", "nonexistent.jsonl"},
	} {
		code, _, errOut := spreadcheck(t, args...)
		if code != runner.ExitBuild || !strings.Contains(errOut, "spreadcheck") {
			t.Errorf("spreadcheck %v: exit %d, want %d with a message; stderr:\n%s", args, code, runner.ExitBuild, errOut)
		}
	}
}

func TestShardMerge(t *testing.T) {
	inFixtures(t)
	dir := t.TempDir()
	var files []string
	for _, s := range []string{"1/2", "2/2"} {
		f := filepath.Join(dir, strings.ReplaceAll(s, "/", "of")+".jsonl")
		files = append(files, f)
		code, out, errOut := spreadcheck(t, "-runs", "20", "-seed", "3", "-shard", s, "-results", f, "-progress=false", "./flaky")
		if code != runner.ExitFlaky || !strings.Contains(out, "(10 runs)") {
			t.Errorf("shard %s: exit %d\n%s%s", s, code, out, errOut)
		}
	}
	code, out, errOut := spreadcheck(t, append([]string{"merge"}, files...)...)
	if code != runner.ExitFlaky || !strings.Contains(out, "shards 1/2, 2/2") || !strings.Contains(out, "fixtures/flaky (20 runs)") {
		t.Errorf("merge: exit %d\n%s%s", code, out, errOut)
	}
}

// TestInterrupt sends the command a real SIGINT while its runs hang: it must stop them, print
// the report of what finished and exit 3.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "spreadcheck")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	inFixtures(t)
	results := filepath.Join(t.TempDir(), "r.jsonl")
	cmd := exec.Command(bin, "-runs", "50", "-seed", "1", "-timeout", "1h", "-progress=false",
		"-results", results, "./flaky", "./hang")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until a run has finished (flaky's runs do; hang's never will), then interrupt.
	deadline := time.Now().Add(time.Minute)
	for {
		b, _ := os.ReadFile(results)
		if bytes.Contains(b, []byte(`"record"`)) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no run finished within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if cmd.ProcessState.ExitCode() != runner.ExitInterrupted {
		t.Errorf("exit %v, want %d", err, runner.ExitInterrupted)
	}
	if s := out.String(); !strings.Contains(s, "INTERRUPTED") || !strings.Contains(s, "fixtures/hang (0 runs)") {
		t.Errorf("report:\n%s", s)
	}
	m, err := runner.MergeResults(results)
	if err != nil || !m.Incomplete || len(m.Records) == 0 {
		t.Errorf("results file: %v, %d records, incomplete %v", err, len(m.Records), m.Incomplete)
	}
}

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	tty := &progress{w: &b, tty: true}
	tty.update(runner.Progress{Done: 1, Total: 4, Failed: 1, Elapsed: time.Second})
	tty.end()
	if want := "\r\033[Kspreadcheck: 1/4 runs, 1 with failures, 1s elapsed, ETA 3s\n"; b.String() != want {
		t.Errorf("terminal progress %q, want %q", b.String(), want)
	}
	b.Reset()
	log := &progress{w: &b}
	for i := 1; i <= 20; i++ {
		log.update(runner.Progress{Done: i, Total: 20})
	}
	log.end()
	if n := strings.Count(b.String(), "\n"); n != 10 || strings.Contains(b.String(), "\r") {
		t.Errorf("CI progress: %d lines, want one per tenth:\n%s", n, b.String())
	}
}
