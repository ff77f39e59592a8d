package main

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Mutant is the constant mutant that confirms a blind test: Old replaced by New on each of
// Lines of File, then go test -run Run Pkg, which still passes.
type Mutant struct {
	File  string // slash path inside the module
	Lines []int
	Old   string
	New   string
	Tags  string // the build tags of go test -tags, or ""
	Run   string // the -run pattern
	Pkg   string // the package, "." when the confirmation names none
	// Args are the test binary's arguments after -args (a Ginkgo suite's -ginkgo.focus=jitter,
	// which picks one spec of the one Go test that runs them all), or none.
	Args []string
}

// mutantClause is a mutant in a label's confirmation:
//
//	mutant: file.go:174 `rand.Float64()` -> `0.5`; go test -run '^TestBackOff$' passes
//	mutant: pool.go:955 `rand.Int63n(r)` -> `0`; go test -run '^TestGinkgoSuite$' ./pool -args -ginkgo.focus=jitter passes
//	mutant: uuid.go:131 `io.ReadFull(rand.Reader, u[:])` -> `0, error(nil)`; go test -tags unit -run '^TestRandomUUID$' ./ passes
var mutantClause = regexp.MustCompile("mutant: (\\S+?\\.go):([0-9,]+) `([^`]+)` -> `([^`]*)`[^;]*; go test (?:-tags (\\S+) )?-run '([^']+)'(?: (\\./\\S*|\\.))?(?: -args ([^;]+?))? passes")

// mutant returns the mutant l's confirmation names, ok false when it names none, and an error
// when it says "mutant:" in another form.
func (l Label) mutant() (m Mutant, ok bool, err error) {
	if !strings.Contains(l.Confirm, "mutant:") {
		return Mutant{}, false, nil
	}
	sub := mutantClause.FindStringSubmatch(l.Confirm)
	if sub == nil {
		return Mutant{}, false, fmt.Errorf("mutant not in the form: mutant: file.go:LINE `old` -> `new`; go test -run 'RE' [./pkg] [-args ARGS] passes")
	}
	m = Mutant{File: sub[1], Old: sub[3], New: sub[4], Tags: sub[5], Run: sub[6], Pkg: sub[7]}
	if sub[8] != "" {
		m.Args = strings.Fields(sub[8])
	}
	if m.Pkg == "" {
		m.Pkg = "."
	}
	for _, s := range strings.Split(sub[2], ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return Mutant{}, false, fmt.Errorf("mutant line %q, want positive integers", s)
		}
		m.Lines = append(m.Lines, n)
	}
	return m, true, nil
}

// apply rewrites the mutant's file in the module copied to dir. When the file imports
// math/rand or math/rand/v2, a use of it is added, since the draw replaced may have been the
// only one.
func (m Mutant) apply(dir string) error {
	path := filepath.Join(dir, filepath.FromSlash(m.File))
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(src), "\n")
	for _, n := range m.Lines {
		if n > len(lines) || !strings.Contains(lines[n-1], m.Old) {
			return fmt.Errorf("%s:%d has no %q", m.File, n, m.Old)
		}
		lines[n-1] = strings.Replace(lines[n-1], m.Old, m.New, 1)
	}
	out := strings.Join(lines, "\n")
	if name := randImport(path); name != "" {
		out += "\nvar _ = " + name + ".Int\n"
	}
	return os.WriteFile(path, []byte(out), 0o644)
}

// randImport is the name the file at path imports math/rand or math/rand/v2 under, or "".
func randImport(path string) string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		return ""
	}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "math/rand" || p == "math/rand/v2" {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "rand"
		}
	}
	return ""
}

// test runs the mutant's tests in dir and reports whether they passed; a pattern that runs no
// test is an error, not a pass.
func (m Mutant) test(dir string) (bool, string, error) {
	args := []string{"test", "-vet=off", "-count=1", "-v"}
	if m.Tags != "" {
		args = append(args, "-tags", m.Tags)
	}
	args = append(args, "-run", m.Run, m.Pkg)
	if len(m.Args) > 0 {
		args = append(append(args, "-args"), m.Args...)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off") // -tags goes on the command line
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return false, "", err
	}
	if !bytes.Contains(out, []byte("--- PASS: ")) && !bytes.Contains(out, []byte("--- FAIL: ")) {
		return false, string(out), fmt.Errorf("go test -run %q %s ran no test:\n%s", m.Run, m.Pkg, out)
	}
	return err == nil, string(out), nil
}

// confirm applies each label's mutant to a fresh copy of its module and runs its tests, and
// writes a table of the verdicts: a blind test is confirmed when its mutant still passes.
func confirm(mods []Module, labels []Label, tmp string, w, progress io.Writer) error {
	return confirmFrom(mods, labels, tmp, w, progress, fetch)
}

// confirmFrom is confirm with the copies of the modules made by fetchTo (fetch, from the module
// proxy; a folder of a test's own in the tests). A label whose mutant fails its test is named in
// the error, with the end of the test's output, so that a failure says which label to look at.
func confirmFrom(mods []Module, labels []Label, tmp string, w, progress io.Writer, fetchTo func(m, tmp string) (string, error)) error {
	var b strings.Builder
	b.WriteString("| module | label | mutant | tests | still passes |\n|---|---|---|---|---|\n")
	var failed []string
	for _, mod := range mods {
		// The labels of a module that name the same mutant (go-faker's 72 tests under one
		// constant source) share one copy, so the go command builds it once.
		copies := map[string]string{}
		for _, l := range inModule(labels, mod.Path) {
			m, ok, err := l.mutant()
			if err != nil || !ok {
				continue // ParseLabels has checked the form
			}
			fmt.Fprintf(progress, "%s %s:%d: %s -> %s\n", l.Module, l.File, l.Line, m.Old, m.New)
			dir, err := mutated(copies, m, func() (string, error) { return fetchTo(mod.Path, tmp) })
			if err != nil {
				return fmt.Errorf("%s %s:%d: %v", l.Module, l.File, l.Line, err)
			}
			passed, out, err := passesMostly(m, dir)
			if err != nil {
				return fmt.Errorf("%s %s:%d: %v", l.Module, l.File, l.Line, err)
			}
			verdict := "yes: confirmed"
			if !passed {
				verdict = "NO: not confirmed"
				failed = append(failed, fmt.Sprintf("%s %s:%d (-run '%s'):\n%s", l.Module, l.File, l.Line, m.Run, lastLines(out, 8)))
			}
			fmt.Fprintf(&b, "| %s | %s:%d | %s:%s `%s` -> `%s` | -run '%s' %s | %s |\n", l.Module, l.File, l.Line,
				m.File, joinInts(m.Lines), m.Old, m.New, m.Run, m.Pkg, verdict)
		}
		for _, dir := range copies {
			os.RemoveAll(dir)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d mutants failed their tests: those labels are not confirmed:\n%s", len(failed), strings.Join(failed, "\n"))
	}
	return nil
}

// passesMostly runs a mutant's test, and twice more when it fails: the label is confirmed when
// the test passes the first time, or both times after. A test that fails now and then on
// correct code (google/uuid's TestVersion6 said "time reversed" once in a CI run, and 0 times
// in 300 runs with or without the mutant) is not taken for a mutant it sees; a test the mutant
// makes fail, fails again. The output is the first failing run's.
func passesMostly(m Mutant, dir string) (bool, string, error) {
	passed, out, err := m.test(dir)
	if passed || err != nil {
		return passed, out, err
	}
	for range 2 {
		if again, _, err := m.test(dir); !again || err != nil {
			return false, out, err
		}
	}
	return true, out, nil
}

// lastLines returns the last n lines of out.
func lastLines(out string, n int) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// mutated returns a copy of a module with m applied: the one copies holds for the same change,
// or a fresh one from fresh, which it then holds.
func mutated(copies map[string]string, m Mutant, fresh func() (string, error)) (string, error) {
	key := fmt.Sprintf("%s:%s %q -> %q", m.File, joinInts(m.Lines), m.Old, m.New)
	if dir, ok := copies[key]; ok {
		return dir, nil
	}
	dir, err := fresh()
	if err != nil {
		return "", err
	}
	if err := m.apply(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	copies[key] = dir
	return dir, nil
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
