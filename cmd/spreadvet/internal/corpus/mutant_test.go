package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMutantParses(t *testing.T) {
	l := label("a_test.go", 12, "blind test")
	l.Confirm = "chance: 1e-3; mutant: pkg/util/rand/rand.go:103,107 `rng.rand.Int63()` -> `int64(7)` (the same string); go test -run '^TestString$' ./pkg/util/rand passes after 2s"
	m, ok, err := l.mutant()
	if err != nil || !ok {
		t.Fatalf("mutant() = %v, %v", ok, err)
	}
	want := Mutant{File: "pkg/util/rand/rand.go", Lines: []int{103, 107}, Old: "rng.rand.Int63()", New: "int64(7)", Run: "^TestString$", Pkg: "./pkg/util/rand"}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("mutant (-want +got):\n%s", diff)
	}
	l.Confirm = "mutant: a.go:3 `x` -> `y`; go test -run 'A|B' passes"
	if m, _, _ := l.mutant(); m.Pkg != "." || m.Run != "A|B" {
		t.Errorf("mutant without a package = %+v, want Pkg . and Run A|B", m)
	}
	l.Confirm = "mutant: internal/pool/pool.go:955 `rand.Int63n(r)` -> `0`; go test -run '^TestGinkgoSuite$' ./internal/pool -args -ginkgo.focus=jitter -ginkgo.v passes"
	m, _, err = l.mutant()
	if want := (Mutant{File: "internal/pool/pool.go", Lines: []int{955}, Old: "rand.Int63n(r)", New: "0", Run: "^TestGinkgoSuite$",
		Pkg: "./internal/pool", Args: []string{"-ginkgo.focus=jitter", "-ginkgo.v"}}); err != nil || !cmp.Equal(want, m) {
		t.Errorf("mutant with -args: %v (-want +got):\n%s", err, cmp.Diff(want, m))
	}
	l.Confirm = "mutant: uuid.go:131 `io.ReadFull(rand.Reader, u[:])` -> `0, error(nil)`; go test -tags unit -run '^TestRandomUUID$' ./ passes"
	m, _, err = l.mutant()
	if want := (Mutant{File: "uuid.go", Lines: []int{131}, Old: "io.ReadFull(rand.Reader, u[:])", New: "0, error(nil)", Tags: "unit", Run: "^TestRandomUUID$",
		Pkg: "./"}); err != nil || !cmp.Equal(want, m) {
		t.Errorf("mutant with -tags: %v (-want +got):\n%s", err, cmp.Diff(want, m))
	}
	for _, bad := range []string{
		"mutant: a.go:0 `x` -> `y`; go test -run 'A' passes",
		"mutant: a.go:3 x -> y; go test -run 'A' passes",
		"mutant: a.go:3 `x` -> `y`",
	} {
		l.Confirm = bad
		if _, _, err := l.mutant(); err == nil {
			t.Errorf("mutant(%q) succeeded, want an error", bad)
		}
	}
	l.Confirm = "chance: 1/56"
	if _, ok, err := l.mutant(); ok || err != nil {
		t.Errorf("a chance confirmation gave a mutant (%v, %v)", ok, err)
	}
}

// TestMutantApplyAndTest builds a module whose test is blind to its draw and one whose test
// is not, and checks that the first mutant is confirmed and the second is not.
func TestMutantApplyAndTest(t *testing.T) {
	dir := t.TempDir()
	jitterModule(t, dir, "package m\n\nimport \"testing\"\n\n"+
		"func TestBlind(t *testing.T) {\n\tif d := Jitter(); d < 0 || d >= 1 {\n\t\tt.Fatal(d)\n\t}\n}\n\n"+
		"func TestSharp(t *testing.T) {\n\tif Jitter() == Jitter() {\n\t\tt.Fatal(\"constant\")\n\t}\n}\n")
	m := Mutant{File: "m.go", Lines: []int{5}, Old: "rand.Float64()", New: "0.5", Run: "^TestBlind$", Pkg: "."}
	if err := m.apply(dir); err != nil {
		t.Fatal(err)
	}
	if src, _ := os.ReadFile(filepath.Join(dir, "m.go")); !strings.Contains(string(src), "return 0.5 }") || !strings.Contains(string(src), "var _ = rand.Int") {
		t.Fatalf("mutated file:\n%s", src)
	}
	if passed, out, err := m.test(dir); err != nil || !passed {
		t.Errorf("blind test under its mutant: passed %v, %v\n%s", passed, err, out)
	}
	m.Run = "^TestSharp$"
	if passed, out, err := m.test(dir); err != nil || passed {
		t.Errorf("sharp test under the mutant: passed %v, %v\n%s", passed, err, out)
	}
	m.Run, m.Args = "^TestSharp$", []string{"-test.run=^TestBlind$"} // the binary's own flag, after -args, wins
	if passed, out, err := m.test(dir); err != nil || !passed {
		t.Errorf("-args -test.run=^TestBlind$: passed %v, %v\n%s", passed, err, out)
	}
	m.Args = nil
	m.Run = "^TestNothing$"
	if _, _, err := m.test(dir); err == nil {
		t.Error("a pattern that runs no test was taken for a verdict")
	}
	if err := (Mutant{File: "m.go", Lines: []int{5}, Old: "rand.Float64()", New: "1"}).apply(dir); err == nil {
		t.Error("applying a mutant whose old text is gone succeeded")
	}
}

// Labels that name the same mutant share one copy of the module, so that it is built once; a
// mutant that differs gets a copy of its own.
func TestMutatedShared(t *testing.T) {
	copies, made := map[string]string{}, 0
	fresh := func() (string, error) {
		made++
		dir := t.TempDir()
		return dir, os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n\nfunc F() float64 { return rnd() }\n"), 0o644)
	}
	a := Mutant{File: "m.go", Lines: []int{3}, Old: "rnd()", New: "0.5", Run: "^TestA$", Pkg: "."}
	b := a
	b.Run = "^TestB$" // another test under the same change
	c := a
	c.New = "0.25"
	da, err := mutated(copies, a, fresh)
	if err != nil {
		t.Fatal(err)
	}
	db, err := mutated(copies, b, fresh)
	if err != nil || db != da || made != 1 {
		t.Errorf("the same mutant: dirs %s and %s, %d copies made (%v); want one shared", da, db, made, err)
	}
	dc, err := mutated(copies, c, fresh)
	if err != nil || dc == da || made != 2 {
		t.Errorf("another mutant: dir %s beside %s, %d copies made (%v); want a copy of its own", dc, da, made, err)
	}
	if src, _ := os.ReadFile(filepath.Join(dc, "m.go")); !strings.Contains(string(src), "return 0.25 }") {
		t.Errorf("the second copy holds\n%s", src)
	}
}

// A label whose mutant fails its test is named in confirm's error, with the end of the
// test's output; a confirmed one is not, and the table says which is which.
func TestConfirmNamesFailures(t *testing.T) {
	src := t.TempDir()
	jitterModule(t, src, "package m\n\nimport \"testing\"\n\n"+
		"func TestBlind(t *testing.T) {\n\tif d := Jitter(); d < 0 || d >= 1 {\n\t\tt.Fatal(d)\n\t}\n}\n\n"+
		"func TestSharp(t *testing.T) {\n\tif Jitter() == Jitter() {\n\t\tt.Fatal(\"constant\")\n\t}\n}\n")
	fetchTo := func(_, tmp string) (string, error) {
		dir, err := os.MkdirTemp(tmp, "m")
		if err != nil {
			return "", err
		}
		return dir, os.CopyFS(dir, os.DirFS(src))
	}
	mods := []Module{{Path: "example.com/m@v1", Packages: []string{"."}}}
	labels := []Label{
		{Module: "example.com/m@v1", File: "m_test.go", Line: 6, Kinds: []Kind{"blind test"},
			Confirm: "mutant: m.go:5 `rand.Float64()` -> `0.5`; go test -run '^TestBlind$' passes"},
		{Module: "example.com/m@v1", File: "m_test.go", Line: 12, Kinds: []Kind{"blind test"},
			Confirm: "mutant: m.go:5 `rand.Float64()` -> `0.5`; go test -run '^TestSharp$' passes"},
	}
	var table strings.Builder
	err := confirmFrom(mods, labels, t.TempDir(), &table, io.Discard, fetchTo)
	if err == nil {
		t.Fatalf("a mutant that fails its test gave no error; table:\n%s", table.String())
	}
	msg := err.Error()
	if !strings.Contains(msg, "1 mutants failed") || !strings.Contains(msg, "m_test.go:12 (-run '^TestSharp$')") ||
		!strings.Contains(msg, "constant") || strings.Contains(msg, "m_test.go:6") {
		t.Errorf("error does not name the one failing label with its output:\n%s", msg)
	}
	if got := table.String(); !strings.Contains(got, "m_test.go:6 | m.go:5 `rand.Float64()` -> `0.5` | -run '^TestBlind$' . | yes: confirmed |") ||
		!strings.Contains(got, "m_test.go:12 | m.go:5 `rand.Float64()` -> `0.5` | -run '^TestSharp$' . | NO: not confirmed |") {
		t.Errorf("table:\n%s", got)
	}
}

// A test that fails once and then passes (a flaky test of correct code) still confirms its
// label; a test that fails each time does not (TestConfirmNamesFailures).
func TestPassesMostly(t *testing.T) {
	dir := t.TempDir()
	// The first run leaves a mark and fails; the runs after it find the mark and pass.
	jitterModule(t, dir, "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n"+
		"func TestOnceFlaky(t *testing.T) {\n\tif _, err := os.Stat(\"mark\"); err != nil {\n\t\tos.WriteFile(\"mark\", nil, 0o644)\n\t\tt.Fatal(\"first run\")\n\t}\n\t_ = Jitter()\n}\n")
	m := Mutant{File: "m.go", Lines: []int{5}, Old: "rand.Float64()", New: "0.5", Run: "^TestOnceFlaky$", Pkg: "."}
	if err := m.apply(dir); err != nil {
		t.Fatal(err)
	}
	passed, out, err := passesMostly(m, dir)
	if err != nil || !passed || !strings.Contains(out, "first run") {
		t.Errorf("a test failing once then passing: passed %v, %v; output\n%s", passed, err, out)
	}
}

// jitterModule writes a module of one package into dir: Jitter, which draws rand.Float64, and
// the test file test.
func jitterModule(t *testing.T, dir, test string) {
	t.Helper()
	for name, src := range map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"m.go":      "package m\n\nimport \"math/rand/v2\"\n\nfunc Jitter() float64 { return rand.Float64() }\n",
		"m_test.go": test,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
