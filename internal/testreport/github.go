package testreport

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/annotate"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
)

// Annotations returns a GitHub Actions annotation at the func line of every test that failed
// a run: a warning for a flaky test (its title says whether it is past -max-flake), an error
// for one that failed every run; and an error for a package that did not build. Paths are
// relative to cwd, the directory the session ran in.
func (r *Report) Annotations(cwd string) []annotate.Annotation {
	against := map[string]bool{}
	for _, n := range slices.Concat(r.Flaky, r.Failing) {
		against[n] = true
	}
	var as []annotate.Annotation
	for i := range r.Packages {
		p := &r.Packages[i]
		dir := packageDir(&p.Package, cwd)
		if p.BuildError != "" {
			as = append(as, annotate.Annotation{Level: annotate.Error, Title: p.ImportPath + " does not build",
				Message: p.BuildError})
			continue
		}
		var funcs map[string]testbin.TestFunc
		for j := range p.Tests {
			t := &p.Tests[j]
			if t.Bad() == 0 || failingSubtest(p.Tests, t.Name) {
				continue // a parent whose subtest failed is annotated by the subtest
			}
			if funcs == nil {
				funcs = testbin.TestFuncs(dir)
			}
			as = append(as, testAnnotation(p.ImportPath, t, against[p.ImportPath+"."+t.Name], funcs, dir))
		}
	}
	return as
}

// failingSubtest reports whether a subtest of the named test failed a run.
func failingSubtest(tests []TestSummary, name string) bool {
	for i := range tests {
		if strings.HasPrefix(tests[i].Name, name+"/") && tests[i].Bad() > 0 {
			return true
		}
	}
	return false
}

func testAnnotation(pkg string, t *TestSummary, against bool, funcs map[string]testbin.TestFunc, dir string) annotate.Annotation {
	a := annotate.Annotation{Level: annotate.Warning,
		Title: fmt.Sprintf("%s.%s: %d of %d runs failed", path.Base(pkg), t.Name, t.Bad(), t.Runs)}
	switch {
	case t.EveryRun():
		a.Level = annotate.Error
	case against:
		a.Title += ", flaky past -max-flake"
	default:
		a.Title += ", within -max-flake"
	}
	a.Message = t.verdict()
	if len(t.Failing) > 0 {
		a.Message += "\nreplay: " + t.Failing[0].Replay
	}
	top, _, _ := strings.Cut(t.Name, "/")
	if f, ok := funcs[top]; ok {
		a.File, a.Line = filepath.ToSlash(filepath.Join(dir, f.File)), f.Line
	}
	return a
}

// packageDir returns the package's directory relative to cwd: from how a replay reaches it
// (CdDir and a relative Target), which holds on any machine with the same checkout, else from
// the directory it ran in.
func packageDir(p *testbin.Package, cwd string) string {
	if strings.HasPrefix(p.Target, "./") || p.Target == "." {
		return filepath.Join(p.CdDir, p.Target)
	}
	if rel, err := filepath.Rel(cwd, p.Dir); err == nil && p.Dir != "" {
		return rel
	}
	return p.Dir
}
