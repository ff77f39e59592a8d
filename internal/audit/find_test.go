package audit

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

// describe lists the sites one per line: where, what, its kind, the enclosing function, and
// what is settled without running (equivalent classes, not viable).
func describe(sites []*Site) string {
	var b strings.Builder
	for _, s := range sites {
		generic := ""
		if s.Draw.Generic {
			generic = ", a generic helper"
		}
		fmt.Fprintf(&b, "%s:%d %s [%s %s%s] in %s", s.File, s.Line, s.Expr, s.Draw.Kind, s.Draw.Type, generic, s.Func)
		var eq []string
		for c, why := range s.Equivalent {
			eq = append(eq, c+": "+why)
		}
		sort.Strings(eq)
		for _, e := range eq {
			fmt.Fprintf(&b, "\n    equivalent %s", e)
		}
		var ig []string
		for c, why := range s.Ignored {
			ig = append(ig, c+": "+why)
		}
		sort.Strings(ig)
		for _, e := range ig {
			fmt.Fprintf(&b, "\n    ignored %s", e)
		}
		if s.NotViable != "" {
			fmt.Fprintf(&b, "\n    not viable: %s", s.NotViable)
		}
		if s.Declared != "" {
			fmt.Fprintf(&b, "\n    returns %s", s.Declared)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func findFixture(t *testing.T, name string) ([]*Site, map[string]*importSet) {
	t.Helper()
	pkgs, _, modDir, err := load(context.Background(), Config{Dir: filepath.Join("testdata", name), Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	imps := map[string]*importSet{}
	sites, _ := findSites(pkgs, nil, modDir, imps)
	return sites, imps
}

// TestFindKinds finds every kind of site in the kinds fixture (package functions and methods
// of math/rand, math/rand/v2 and crypto/rand, generic N, a *rand.Rand in a field and in a
// local, func-typed variables and fields whose default is a draw (of a generic type's field
// too), clock readings taken modulo n or seeding a source, draws whose type is made of type
// parameters), nothing in its test file, and an ignored line's classes; the golden file pins the
// list.
func TestFindKinds(t *testing.T) {
	sites, _ := findFixture(t, "kinds")
	checkSites(t, "kinds.golden", sites)
}

// TestRewritesCompile applies every rewrite of the kinds fixture at once, as a schema, and
// each site alone with one mutant compiled in, and builds the result with -overlay: a
// rewrite must compile wherever the draw did, nested draws and unused values included.
func TestRewritesCompile(t *testing.T) {
	longtest.Skip(t) // builds the kinds fixture once per kind of site (per site in the long run)
	sites, imps := findFixture(t, "kinds")
	dir := filepath.Join("testdata", "kinds")
	check := func(name string, sites []*Site, fixed string) {
		ovDir := t.TempDir()
		ov, err := writeOverlay(ovDir, sites, imps, fixed)
		if err != nil {
			t.Fatal(err)
		}
		if len(ov.rejected) > 0 {
			t.Errorf("%s: rewrites rejected: %v", name, ov.rejected)
		}
		cmd := exec.Command("go", "build", "-overlay="+ov.File, "./...")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build -overlay: %v\n%s", name, err, out)
		}
	}
	check("schema", sites, "")
	// One build per site takes a while: every kind once here, every site in the long run.
	kinds := map[string]bool{}
	for _, s := range sites {
		if first := !kinds[string(s.Draw.Kind)]; s.NotViable == "" && (first || longtest.Enabled()) {
			kinds[string(s.Draw.Kind)] = true
			check(fmt.Sprintf("site %d alone", s.ID), []*Site{s}, fmt.Sprintf("%d:1", s.ID))
		}
	}
}

// TestIntegerConstraint: the constraint that decides which draws get a generic helper is the
// one the helpers are compiled with.
func TestIntegerConstraint(t *testing.T) {
	conf := types.Config{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "c.go", "package c\ntype C interface{ "+rewrite.IntegerConstraint+" }\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := conf.Check("c", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := pkg.Scope().Lookup("C").Type().Underlying(); !types.Identical(c, integerConstraint) {
		t.Errorf("rewrite.IntegerConstraint is %v, the audit's integerConstraint %v", c, integerConstraint)
	}
}

// TestBlame: a compiler message that names a site's file and line makes that site not
// viable, with the message; a message that names no site blames none.
func TestBlame(t *testing.T) {
	sites := []*Site{{ID: 0, Path: "/m/a.go", Line: 7}, {ID: 1, Path: "/m/b.go", Line: 7}}
	a := &auditor{sites: sites}
	if a.blame([]string{"# example.com/m\n./c.go:7:3: something"}) {
		t.Error("a message about c.go blamed a site")
	}
	if !a.blame([]string{"# example.com/m\n./a.go:7:12: cannot use x (variable of type int) as float64"}) {
		t.Fatal("a message about a.go:7 blamed no site")
	}
	if want := "does not compile: ./a.go:7:12: cannot use x (variable of type int) as float64"; sites[0].NotViable != want || sites[1].NotViable != "" {
		t.Errorf("not viable: %q and %q; want %q for a.go only", sites[0].NotViable, sites[1].NotViable, want)
	}
}

// TestFindThroughLocals: a clock reading held in a local reaches a seed, or is taken modulo
// n, through assignments (a time.Time, an operator, a conversion) and is a site where it
// arrives; a constant held in a local is not. The golden file pins the list.
func TestFindThroughLocals(t *testing.T) {
	sites, _ := findFixture(t, "clockseed")
	checkSites(t, "clockseed.sites", sites)
}

// checkSites compares the sites of a fixture, as describe lists them, with the golden file
// name in testdata (-update rewrites it).
func checkSites(t *testing.T, name string, sites []*Site) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), describe(sites))
}

// TestFindReductions: the halved range of a draw of uniform bits is equivalent where the code
// keeps none of the top bit (% 16, & 0xff, uint16(...), & 15 of IntN(256), a widening then
// % 1024) and a real mutant where it keeps it (& (1<<31)) or reduces by a modulus that is no
// constant power of two (% uint32(n)); the sign-flip of a draw only compared with 0 is
// equivalent, of one compared with 3 a real mutant. The golden file pins the list.
func TestFindReductions(t *testing.T) {
	sites, _ := findFixture(t, "reduced")
	checkSites(t, "reduced.sites", sites)
}

// TestFindReaders: crypto/rand's Reader is a site where the package reads it as an
// io.Reader (io.ReadFull, its Read method, io.CopyN, a field's default, the parameters of
// two helpers); where it goes to rand.Prime it is none. The golden file pins the list.
func TestFindReaders(t *testing.T) {
	sites, _ := findFixture(t, "reader")
	checkSites(t, "reader.sites", sites)
}

// TestFindCrossReaders: crypto/rand's Reader handed to another package of the module is a
// site where it is named, when that package reads what it is given: an argument of a
// function that reads it, a field set in a literal or an assignment, an argument of a
// constructor or an option that stores it in a read field. Given to a function that hands it
// to crypto/rand (nonce.Prime) it is none, and package nonce, which names no random package,
// has no site: a test's fake given to it is left alone. The golden file pins the list.
func TestFindCrossReaders(t *testing.T) {
	sites, _ := findFixture(t, "crossreader")
	checkSites(t, "crossreader.sites", sites)
}

// TestFindWrapped: the module's own wrappers of a draw, followed through another package:
// a call of one (randutil.Int63n) is a site of its kind; a field whose default is one
// (randutil.Jitter, a wrapper of a wrapper) is a site at the default, named for the function
// that calls through the field; a variable whose default is a wrapper of its own package is
// no site of its own, the draw inside is; randutil.Scaled changes its draw and is no
// wrapper. The golden file pins the list.
func TestFindWrapped(t *testing.T) {
	sites, _ := findFixture(t, "wrapped")
	checkSites(t, "wrapped.sites", sites)
}

// TestFindShuffleVars: a shuffle or a permutation held in a variable or a field is a site at
// its default, as other draws through func-typed defaults are: rand.Shuffle as a package
// variable's default; randutil.Shuffle and randutil.Perm, the module's own functions that
// hand their parameters to a shuffle or return a permutation, as a field's default (and
// their own draws in randutil); a function of the same package (permute) is no site of its
// own, its rand.Perm is. No call through a variable is a site, so that what a test puts
// there (randutil.Reverse, which is no shuffle) is left alone. The golden file pins the list.
func TestFindShuffleVars(t *testing.T) {
	sites, _ := findFixture(t, "shufflevar")
	checkSites(t, "shufflevar.sites", sites)
}

// TestFindIgnore: each form of //spreadcheck:ignore keeps the site and marks the classes it
// names (every class when it names none) with its reason; a comment without a reason, or with
// a class that does not exist, is a warning; //spreadcheck:ignored is no such comment.
func TestFindIgnore(t *testing.T) {
	pkgs, _, modDir, err := load(context.Background(), Config{Dir: filepath.Join("testdata", "ignore"), Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	sites, warnings := findSites(pkgs, nil, modDir, map[string]*importSet{})
	got := describe(sites) + "warnings:\n"
	for _, w := range warnings {
		got += "  " + w[strings.LastIndex(w, "ignore.go:"):] + "\n"
	}
	golden.Check(t, filepath.Join("testdata", "ignore.golden"), got)
}

// TestFindFuncArgs: a draw, a *rand.Rand's method value or another package's wrapper passed as
// an argument for a func-typed parameter (samber/lo's SampleBy(collection, xrand.IntN)) is a
// site at the argument, in the function that passes it; no call through the parameter is, so
// that a test's own picker is left alone; a function that is no draw (first) and one of the
// same package (local, whose rand.IntN is the site) are no sites. The golden file pins the
// list.
func TestFindFuncArgs(t *testing.T) {
	sites, _ := findFixture(t, "funcarg")
	checkSites(t, "funcarg.sites", sites)
}

// TestFindRandInterface: a draw through an interface of the module's own whose methods are
// all *rand.Rand draws and Seed (lestrrat-go/backoff's Random) is a site of the *rand.Rand
// method's kind, next to the clock seed of its default; a draw through an interface with a
// method that is no draw (Clocked's Now) or with a draw's name and another signature (Wide) is
// none. The golden file pins the list.
func TestFindRandInterface(t *testing.T) {
	sites, _ := findFixture(t, "randiface")
	checkSites(t, "randiface.sites", sites)
}

// TestFindWrappedOnePackage audits the wrapped fixture's package backoff alone, as `spreadcheck
// audit ./backoff` would (samber/lo audited as `.`, its wrappers in internal/xrand): the
// wrappers of randutil, a package of the module that the patterns do not name, are still
// followed, and the sites in backoff are those that auditing every package finds there. The
// golden file pins the list.
func TestFindWrappedOnePackage(t *testing.T) {
	f, err := locate(context.Background(), Config{Dir: filepath.Join("testdata", "wrapped"), Patterns: []string{"./backoff"}})
	if err != nil {
		t.Fatal(err)
	}
	checkSites(t, "wrapped-backoff.sites", f.sites)
}

// skipWithoutCC skips a test of cgo code when the go command's C compiler is not found.
func skipWithoutCC(t testing.TB) {
	t.Helper()
	out, err := exec.Command("go", "env", "CC").Output()
	if err != nil {
		t.Fatalf("go env CC: %v", err)
	}
	cc := strings.TrimSpace(string(out))
	if cc == "" {
		t.Skip("go env CC is empty: no C compiler to build cgo code")
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler to build cgo code: %v", err)
	}
}

// TestFindCgo: the draws of a file that imports "C" are sites, named by the file and the line
// that the user wrote (go/packages gives the package the cgo command's output, in the build
// cache), as are those of the same package's files that do not. The golden file pins the list.
func TestFindCgo(t *testing.T) {
	skipWithoutCC(t)
	sites, _ := findFixture(t, "cgodraw")
	checkSites(t, "cgodraw.sites", sites)
}

// TestCgoRewritesCompile builds the cgodraw fixture with every site rewritten, as a schema,
// and with each site alone and one mutant compiled in: the overlay replaces the file the user
// wrote, on which the go command runs cgo, and the rewrite keeps its preamble.
func TestCgoRewritesCompile(t *testing.T) {
	skipWithoutCC(t)
	sites, imps := findFixture(t, "cgodraw")
	if !slices.ContainsFunc(sites, func(s *Site) bool { return s.File == "jitter.go" }) {
		t.Fatal("no site found in jitter.go, the file that imports \"C\"")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "cgodraw"))
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, sites []*Site, fixed string) {
		ov, err := writeOverlay(t.TempDir(), sites, imps, fixed)
		if err != nil {
			t.Fatal(err)
		}
		if len(ov.rejected) > 0 {
			t.Errorf("%s: rewrites rejected: %v", name, ov.rejected)
		}
		for orig := range ov.Replace {
			if filepath.Dir(orig) != dir {
				t.Errorf("%s: the overlay replaces %s, outside the fixture's folder %s", name, orig, dir)
			}
		}
		cmd := exec.Command("go", "build", "-overlay="+ov.File, "./...")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build -overlay: %v\n%s", name, err, out)
		}
	}
	check("schema", sites, "")
	for _, s := range sites {
		check(fmt.Sprintf("site %d alone", s.ID), []*Site{s}, fmt.Sprintf("%d:1", s.ID))
	}
}

// TestSuggestNeedsANumber: the suggested line samples the enclosing function with
// spread.Draw, whose values must be a spread.Number. For a site in a function that returns
// something else (clockseed's NewRand, a *rand.Rand; randiface's NewJitter, a *Jitter) such a
// line would not compile: the suggestion is a sentence naming the function to sample,
// without code. A function that returns a number (Slot's int64) still gets the line.
func TestSuggestNeedsANumber(t *testing.T) {
	for _, c := range []struct{ fixture, fn string }{{"clockseed", "NewRand"}, {"randiface", "NewJitter"}} {
		sites, _ := findFixture(t, c.fixture)
		for _, s := range sites {
			if s.Func != c.fn {
				continue
			}
			got := suggest(s)
			if strings.Contains(got, "spread.Draw(") || strings.Contains(got, "spread.Check(") {
				t.Errorf("%s: %s returns %s, no number, yet the suggestion is code: %s", c.fixture, c.fn, s.Result, got)
			}
			if !strings.Contains(got, c.fn) {
				t.Errorf("%s: the suggestion does not name %s: %s", c.fixture, c.fn, got)
			}
		}
	}
	sites, _ := findFixture(t, "clockseed")
	for _, s := range sites {
		if got := suggest(s); s.Func == "Slot" && !strings.HasPrefix(got, "spread.Check(t, spread.Draw(1000, func() int64 { return Slot(n) })") {
			t.Errorf("Slot returns an int64, yet the suggestion is not its spread.Check line: %s", got)
		}
	}
}
