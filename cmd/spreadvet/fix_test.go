package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// TestFixEndToEnd proves a suggested spread.Check on a module that uses the real package
// spread (testdata/fixmod, in a workspace with this repository): the blind test passes a
// collapsed jitter; "spreadvet -fix" adds the check (the file then equals its .golden); the
// fixed test passes the correct jitter and fails the collapsed one. Seeded, so each verdict
// is the same on every run.
func TestFixEndToEnd(t *testing.T) {
	longtest.Skip(t)
	bin := buildTool(t)
	src := filepath.Join("testdata", "fixmod")
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", src+string(filepath.Separator)+".", dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "go.work")
	writeFile(t, work, "go 1.26.0\n\nuse (\n\t.\n\t"+root+"\n)\n")
	env := append(os.Environ(), "GOWORK="+work, "GOFLAGS=", "SPREADCHECK_SEED=1")
	jitter := filepath.Join(dir, "jitter", "jitter.go")
	correct, collapsed := readFile(t, jitter), readFile(t, jitter+".collapsed")

	writeFile(t, jitter, collapsed)
	if out, err := run(dir, env, "go", "test", "-count=1", "./..."); err != nil {
		t.Fatalf("the blind test rejects the collapsed jitter; want it to pass it: %v\n%s", err, out)
	}
	writeFile(t, jitter, correct)
	if out, err := run(dir, env, bin, "-fix", "./..."); err != nil {
		t.Fatalf("spreadvet -fix: %v\n%s", err, out)
	}
	test := filepath.Join("jitter", "jitter_test.go")
	if got, want := readFile(t, filepath.Join(dir, test)), readFile(t, filepath.Join(src, test+".golden")); got != want {
		t.Fatalf("%s after spreadvet -fix:\n%s\nwant (%s.golden):\n%s", test, got, test, want)
	}
	if out, err := run(dir, env, "go", "test", "-count=1", "./..."); err != nil {
		t.Fatalf("the fixed test fails the correct jitter: %v\n%s", err, out)
	}
	writeFile(t, jitter, collapsed)
	out, err := run(dir, env, "go", "test", "-count=1", "./...")
	if err == nil || !strings.Contains(out, "most likely: collapsed-range") {
		t.Fatalf("the fixed test on the collapsed jitter: %v; want a failure that names collapsed-range:\n%s", err, out)
	}
}

func run(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
