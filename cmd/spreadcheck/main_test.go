package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
		"replaying the first failing run's seed fails again",
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
