package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// build builds the command into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "spreadvet")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// want are the findings on the fixture module, in vet's file:line:col: message format.
var want = []*regexp.Regexp{
	regexp.MustCompile(`jitter\.go:8:\d+: clock-derived randomness: time\.Now\(\)\.UnixNano\(\)%2 `),
	regexp.MustCompile(`jitter_test\.go:10:\d+: blind test: TestJitter draws Jitter 10 times and checks only their bounds \(d < 0\)`),
}

// check runs cmd in the fixture module and checks its output has every finding once, and
// that it failed (a finding is a failure for vet and for the standalone checker alike).
func check(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Dir = filepath.Join("testdata", "mod")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
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

// TestStandalone runs "spreadvet ./..." on the fixture module.
func TestStandalone(t *testing.T) {
	check(t, exec.Command(build(t), "./..."))
}

// TestVetTool runs "go vet -vettool=spreadvet ./..." on the fixture module: go vet calls the
// binary once per package with a .cfg file (unitchecker's protocol).
func TestVetTool(t *testing.T) {
	bin, err := filepath.Abs(build(t))
	if err != nil {
		t.Fatal(err)
	}
	check(t, exec.Command("go", "vet", "-vettool="+bin, "./..."))
}
