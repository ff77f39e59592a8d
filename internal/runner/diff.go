package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/diff"
)

// Diff restricts a session to the tests that a change touched, as a pull request's check
// wants: a package whose non-test files changed runs all its tests; one where only test files
// changed runs the Test, Fuzz and Example funcs whose lines changed; the others do not run.
type Diff struct {
	Lines diff.Lines // the changed lines, by path relative to Root
	Root  string     // the directory the paths are relative to: the repository's root
	Since string     // what the change is against, for the report: "since main"
}

// Chosen is a package that a change chose to run, and why.
type Chosen struct {
	Package string   `json:"package"`         // the package's import path
	Rule    Rule     `json:"rule"`            // "code changed" (all its tests ran) or "tests changed"
	Tests   []string `json:"tests,omitempty"` // the changed tests, when only tests changed
}

// Rule is why a change chose a package's tests.
type Rule string

// The rules by which a change chooses tests.
const (
	CodeChanged  Rule = "code changed"  // a file of the package that is not a test file changed: all its tests run
	TestsChanged Rule = "tests changed" // only test files changed: the changed tests run
)

// DiffReport says which change a session was restricted to, and what it chose.
type DiffReport struct {
	Since  string   `json:"since"`    // what the change is against: "since main"
	Chosen []Chosen `json:"chosen"`   // the packages that ran, and why
	Left   int      `json:"left_out"` // packages the change did not touch
}

// choose returns the packages the change touched, each with the -test.run filter its runs
// take ("" for all its tests within run, the session's -run), and the report of the choice.
func (c *Diff) choose(pkgs []Package, run string) ([]Package, map[string]string, *DiffReport) {
	rep := &DiffReport{Since: c.Since, Chosen: []Chosen{}}
	filters := map[string]string{}
	var kept []Package
	for _, p := range pkgs {
		ch, ok := c.touched(&p)
		if ok && ch.Rule == TestsChanged {
			if f := onlyTests(run, ch.Tests); f != "" {
				filters[p.ImportPath] = f
			} else {
				ok = false // the changed tests are outside -run
			}
		}
		if !ok {
			rep.Left++
			continue
		}
		kept = append(kept, p)
		rep.Chosen = append(rep.Chosen, ch)
	}
	return kept, filters, rep
}

// touched says whether the change touched the package, and how. A package that did not build
// is touched as its code: its build error is the change's.
func (c *Diff) touched(p *Package) (Chosen, bool) {
	ch := Chosen{Package: p.ImportPath}
	dir, err := diff.Below(c.Root, p.Dir)
	if err != nil {
		return ch, false // outside the repository
	}
	var tests []string
	var funcs map[string]testFunc
	lines := c.Lines.Under(dir)
	for f := range lines {
		switch {
		case strings.HasPrefix(f, "testdata/"):
			ch.Rule = CodeChanged // what the tests read
		case strings.Contains(f, "/"):
			// a file of another package, below this one
		case strings.HasSuffix(f, "_test.go"):
			if funcs == nil {
				funcs = testFuncs(p.Dir)
			}
			for name, fn := range funcs {
				if fn.file == f && isTestName(name) && lines.Overlaps(f, fn.start, fn.end) {
					tests = append(tests, name)
				}
			}
		default:
			if _, err := os.Stat(filepath.Join(p.Dir, f)); err == nil || strings.HasSuffix(f, ".go") {
				ch.Rule = CodeChanged
			}
		}
	}
	if ch.Rule == CodeChanged || p.BuildError != "" {
		ch.Rule = CodeChanged
		return ch, true
	}
	if len(tests) == 0 {
		return ch, false
	}
	slices.Sort(tests)
	ch.Rule, ch.Tests = TestsChanged, tests
	return ch, true
}

// isTestName reports whether a func name is one package testing runs: Test, Fuzz or Example,
// followed by nothing or by something that does not start with a lower-case letter.
func isTestName(name string) bool {
	for _, prefix := range []string{"Test", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && (rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')) {
			return true
		}
	}
	return false
}

// String describes the choice in a line of the report.
func (c Chosen) String() string {
	if c.Rule == TestsChanged {
		return fmt.Sprintf("%s: %s (%s)", c.Package, c.Rule, strings.Join(c.Tests, ", "))
	}
	return fmt.Sprintf("%s: %s (all its tests)", c.Package, c.Rule)
}

// write prints what the change chose, a line per package.
func (d *DiffReport) write(w io.Writer) {
	if len(d.Chosen) == 0 {
		fmt.Fprintf(w, "no package's code or tests changed %s (%d package%s left out): nothing to run\n\n", d.Since, d.Left, plural(d.Left))
		return
	}
	fmt.Fprintf(w, "only what changed %s (%d package%s left out):\n", d.Since, d.Left, plural(d.Left))
	for _, c := range d.Chosen {
		fmt.Fprintf(w, "  %s\n", c)
	}
	fmt.Fprintln(w)
}
