package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFinding(t *testing.T) {
	dir := filepath.Join(string(filepath.Separator)+"tmp", "mod1")
	line := filepath.Join(dir, "retrier", "retrier_test.go") + ":249:3: blind test: TestRetrierJitter draws calcSleep; check the spread"
	got, err := parseFinding(line, dir, mod)
	if err != nil {
		t.Fatal(err)
	}
	want := Finding{Module: mod, File: "retrier/retrier_test.go", Line: 249, Kind: "blind test", Message: "TestRetrierJitter draws calcSleep; check the spread"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseFinding (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"# example.com/m",
		"go: downloading example.com/x v1.0.0",
		filepath.Join(string(filepath.Separator)+"elsewhere", "a.go") + ":1:1: blind test: x",
		filepath.Join(dir, "a.go") + ": blind test: x",
	} {
		if _, err := parseFinding(bad, dir, mod); err == nil {
			t.Errorf("parseFinding(%q) succeeded, want an error", bad)
		}
	}
}

func TestFuncSpans(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a_test.go")
	src := "package a\n\nvar x = 1\n\nfunc A() {\n\t_ = x\n}\n\nfunc (T) B() {}\n\ntype T struct{}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][2]int{{5, 7}, {9, 9}}, funcSpans(path)); diff != "" {
		t.Errorf("funcSpans (-want +got):\n%s", diff)
	}
	if err := os.WriteFile(path, []byte("package a\nfunc {"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := funcSpans(path); got != nil {
		t.Errorf("funcSpans of a file that does not parse = %v, want none", got)
	}
	fns := &functions{dirs: map[string]string{mod: filepath.Dir(path)}, spans: map[string][][2]int{}}
	if got := fns.enclosing(mod, "missing.go", 3); got != 0 {
		t.Errorf("enclosing in a missing file = %d, want 0", got)
	}
}

func TestSummaryOfAPanic(t *testing.T) {
	err := errors.New("spreadvet . on m@v1: exit status 2\npanic: runtime error: invalid memory address\n\ngoroutine 1843 [running]:\n" +
		"golang.org/x/tools/internal/typesinternal.StaticCallee(0x12acc580fb60, 0x12accf6dd548?)\n\t/x/classify_call.go:179 +0x17\n" +
		"github.com/spreadcheck/spreadcheck/spreadvet.(*checker).randomCallee(0x12accab91310, 0x0)\n\t/x/randomfunc.go:157 +0x28\n")
	want := "spreadvet . on m@v1: exit status 2; panic: runtime error: invalid memory address; github.com/spreadcheck/spreadcheck/spreadvet.(*checker).randomCallee()"
	if got := summary(err); got != want {
		t.Errorf("summary =\n%s\nwant\n%s", got, want)
	}
}

// TestEnsureGoMod: a module without go.mod gets one naming its path and go 1.16; one with a
// go.mod keeps it. Before, go-randomdata's copy loaded no package ("directory prefix . does not contain
// main module").
func TestEnsureGoMod(t *testing.T) {
	bare, kept := t.TempDir(), t.TempDir()
	own := "module example.com/kept\n\ngo 1.22\n"
	if err := os.WriteFile(filepath.Join(kept, "go.mod"), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{bare, "module github.com/Pallinder/go-randomdata\n\ngo 1.16\n"},
		{kept, own},
	} {
		if err := ensureGoMod(c.dir, "github.com/Pallinder/go-randomdata"); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(c.dir, "go.mod"))
		if err != nil || string(got) != c.want {
			t.Errorf("go.mod = %q, %v; want %q", got, err, c.want)
		}
	}
}

// A module of a monorepo replaces its siblings by folders its zip does not hold: those
// directives go, a replace by a version stays.
func TestWithoutLocalReplaces(t *testing.T) {
	src := "module example.com/sdk\n\ngo 1.22\n\nrequire (\n\texample.com/api v1.2.0\n\texample.com/x v1.0.0\n)\n\nreplace example.com/api => ../\n\nreplace example.com/x => example.com/y v1.1.0\n"
	got, dropped, err := withoutLocalReplaces("go.mod", []byte(src))
	if err != nil || !dropped {
		t.Fatalf("withoutLocalReplaces = %v, %v; want dropped", dropped, err)
	}
	want := "module example.com/sdk\n\ngo 1.22\n\nrequire (\n\texample.com/api v1.2.0\n\texample.com/x v1.0.0\n)\n\nreplace example.com/x => example.com/y v1.1.0\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("go.mod (-want +got):\n%s", diff)
	}
	if _, dropped, err := withoutLocalReplaces("go.mod", got); err != nil || dropped {
		t.Errorf("again: dropped %v, %v; want nothing to drop", dropped, err)
	}
}
