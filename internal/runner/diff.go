package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/diff"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// Diff restricts a session to the tests that a change touched, as a pull request's check
// wants: a package whose non-test files changed runs all its tests; one where only test files
// changed runs the Test, Fuzz and Example funcs whose lines changed; the others do not run.
type Diff struct {
	Lines diff.Lines // the changed lines, by path relative to Root
	Root  string     // the directory the paths are relative to: the repository's root
	Since string     // what the change is against, for the report: "since main"
}

// choose returns the packages the change touched, each with the -test.run filter its runs
// take ("" for all its tests within run, the session's -run), and the report of the choice.
func (c *Diff) choose(pkgs []testbin.Package, run string) ([]testbin.Package, map[string]string, *testreport.DiffReport) {
	rep := &testreport.DiffReport{Since: c.Since, Chosen: []testreport.Chosen{}}
	filters := map[string]string{}
	var kept []testbin.Package
	for _, p := range pkgs {
		ch, ok := c.touched(&p)
		if ok && ch.Rule == testreport.TestsChanged {
			if f := OnlyTests(run, ch.Tests); f != "" {
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
func (c *Diff) touched(p *testbin.Package) (testreport.Chosen, bool) {
	ch := testreport.Chosen{Package: p.ImportPath}
	dir, err := diff.Below(c.Root, p.Dir)
	if err != nil {
		return ch, false // outside the repository
	}
	var tests []string
	var funcs map[string]testbin.TestFunc
	lines := c.Lines.Under(dir)
	for f := range lines {
		switch {
		case strings.HasPrefix(f, "testdata/"):
			ch.Rule = testreport.CodeChanged // what the tests read
		case strings.Contains(f, "/"):
			// a file of another package, below this one
		case strings.HasSuffix(f, "_test.go"):
			if funcs == nil {
				funcs = testbin.TestFuncs(p.Dir)
			}
			for name, fn := range funcs {
				if fn.File == f && isTestName(name) && lines.Overlaps(f, fn.Start, fn.End) {
					tests = append(tests, name)
				}
			}
		default:
			if _, err := os.Stat(filepath.Join(p.Dir, f)); err == nil || strings.HasSuffix(f, ".go") {
				ch.Rule = testreport.CodeChanged
			}
		}
	}
	if ch.Rule == testreport.CodeChanged || p.BuildError != "" {
		ch.Rule = testreport.CodeChanged
		return ch, true
	}
	if len(tests) == 0 {
		return ch, false
	}
	slices.Sort(tests)
	ch.Rule, ch.Tests = testreport.TestsChanged, tests
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
