package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// tool is the command, built once for every test that runs it.
var tool struct {
	once      sync.Once
	dir, path string
	err       error
}

// TestMain removes the command the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if tool.dir != "" {
		os.RemoveAll(tool.dir)
	}
	os.Exit(code)
}

// buildTool builds the command, once, and returns its path.
func buildTool(t testing.TB) string {
	t.Helper()
	tool.once.Do(func() {
		if tool.dir, tool.err = os.MkdirTemp("", "spreadvet-test"); tool.err != nil {
			return
		}
		tool.path = filepath.Join(tool.dir, "spreadvet")
		if out, err := exec.Command("go", "build", "-o", tool.path, ".").CombinedOutput(); err != nil {
			tool.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if tool.err != nil {
		t.Fatal(tool.err)
	}
	return tool.path
}

// want are the findings on the fixture module, in vet's file:line:col: message format.
var want = []*regexp.Regexp{
	regexp.MustCompile(`jitter\.go:8:\d+: clock-derived randomness: time\.Now\(\)\.UnixNano\(\)%2 `),
	regexp.MustCompile(`jitter_test\.go:10:\d+: blind test: TestJitter draws Jitter 10 times and checks only their bounds \(d < 0\)`),
}

// check runs cmd in the fixture module and checks its output has every finding once, and
// that it failed (a finding is a failure for vet and for the standalone checker alike).
func check(t *testing.T, cmd *exec.Cmd, extraEnv ...string) {
	t.Helper()
	if cmd.Dir == "" {
		cmd.Dir = filepath.Join("testdata", "mod")
	}
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	cmd.Env = append(cmd.Env, extraEnv...)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Errorf("%v succeeded; want a non-zero exit for the findings", cmd.Args)
	}
	for _, re := range want {
		if n := len(re.FindAllString(string(out), -1)); n != 1 {
			t.Errorf("%v: %d lines match %q, want 1; output:\n%s", cmd.Args, n, re, out)
		}
	}
	if strings.Contains(string(out), "panic") {
		t.Errorf("%v panicked:\n%s", cmd.Args, out)
	}
}

// TestStandalone builds the command and runs "spreadvet ./..." on the fixture module: the
// fast end-to-end test of the normal run.
func TestStandalone(t *testing.T) {
	check(t, exec.Command(buildTool(t), "./..."))
}

// TestStandaloneJSON runs "spreadvet -json ./..." on the fixture module: its findings are in
// the JSON, and it exits 3 as the text does (it exited 0 before, whatever it found).
func TestStandaloneJSON(t *testing.T) {
	cmd := exec.Command(buildTool(t), "-json", "./...")
	cmd.Dir = filepath.Join("testdata", "mod")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("spreadvet -json ./...: %v, want exit status 3 for the findings", err)
	}
	var byPkg map[string]map[string][]struct{ Posn, Message string }
	if err := json.Unmarshal(out, &byPkg); err != nil {
		t.Fatalf("the output is not JSON: %v\n%s", err, out)
	}
	var msgs []string
	for _, analyzers := range byPkg {
		for _, d := range analyzers["spreadvet"] {
			msgs = append(msgs, filepath.Base(d.Posn)+": "+d.Message)
		}
	}
	for _, re := range want {
		found := false
		for _, m := range msgs {
			found = found || re.MatchString(m)
		}
		if !found {
			t.Errorf("no finding in the JSON matches %q; findings:\n%s", re, strings.Join(msgs, "\n"))
		}
	}
}

// TestStandaloneModfile runs the standalone command with -modfile in GOFLAGS (a CI that keeps
// its tools' requirements in a second go.mod): go/packages' query of the go version failed
// under it ("build flag -modfile only valid when using modules") before the flag was moved
// from GOFLAGS to the build flags.
func TestStandaloneModfile(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "mod"))); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	alt := filepath.Join(dir, "alt.mod")
	if err := os.WriteFile(alt, mod, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(buildTool(t), "./...")
	cmd.Dir = dir
	check(t, cmd, "GOFLAGS=-modfile="+alt) // alone: with -mod=mod beside it, the go command lets it pass
}

// TestMoveModfile: -modfile leaves GOFLAGS for the build flags, and the other flags stay.
func TestMoveModfile(t *testing.T) {
	env, flags := moveModfile([]string{"HOME=/h", "GOFLAGS=-mod=mod -modfile=/x/tools.mod -tags=a"})
	if got := strings.Join(env, "|"); got != "HOME=/h|GOFLAGS=-mod=mod -tags=a" {
		t.Errorf("env %q", got)
	}
	if got := strings.Join(flags, "|"); got != "-modfile=/x/tools.mod" {
		t.Errorf("build flags %q", got)
	}
	env, flags = moveModfile([]string{"GOFLAGS=-mod=mod"})
	if len(flags) != 0 || env[0] != "GOFLAGS=-mod=mod" {
		t.Errorf("without -modfile: env %q, flags %q", env, flags)
	}
}

// TestVetTool runs "go vet -vettool=spreadvet ./..." on the fixture module: go vet calls the
// binary once per package with a .cfg file (unitchecker's protocol), and once per dependency
// of the standard library for its types.
func TestVetTool(t *testing.T) {
	longtest.Skip(t)
	bin, err := filepath.Abs(buildTool(t))
	if err != nil {
		t.Fatal(err)
	}
	check(t, exec.Command("go", "vet", "-vettool="+bin, "./..."))
}
