package spreadvet_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// fixtures are the packages under testdata/src.
var fixtures = []string{"bidder", "jitterapi", "helpers", "chance", "loadbench", "backoff", "backoffuse", "clockrand", "onesided", "truncation", "sleeploop", "deadseam", "stored", "randomtext", "realgap", "clean", "shuffle", "proportion", "tallies", "cryptorand", "picks", "forms", "partition", "expiry", "closures", "channel", "ids", "records", "gocheck", "propgen", "counters", "propgen/gen", "generators"}

// TestFindings runs the analyzer on the fixtures under testdata/src: every diagnostic and
// every fact must be one a // want comment asks for, and every want must be met. The
// fixtures hold the code that must not be flagged too, with no want. Every suggested fix is
// applied, and each file a fix touches must then equal its .golden file.
func TestFindings(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), spreadvet.Analyzer, fixtures...)
}

// TestFixesCompile type-checks every fixture package with each fixed file (its .golden) in
// place of the original: a suggested fix must leave code that compiles.
func TestFixesCompile(t *testing.T) {
	testdata, err := filepath.Abs(analysistest.TestData())
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Glob(filepath.Join(testdata, "src", "*", "*.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no .golden files under %s (%v)", testdata, err)
	}
	overlay := map[string][]byte{}
	for _, g := range goldens {
		fixed, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		overlay[strings.TrimSuffix(g, ".golden")] = fixed
	}
	pkgs := loadFixtures(t, testdata, overlay)
	checked := map[string]bool{}
	for _, p := range pkgs {
		for _, err := range p.Errors {
			t.Errorf("%s with its fixes applied: %v", p.ID, err)
		}
		for _, f := range p.GoFiles {
			checked[f] = true
		}
	}
	for file := range overlay {
		if !checked[file] {
			t.Errorf("%s.golden was not type-checked", file)
		}
	}
}

// loadFixtures type-checks the fixture packages of testdata (an absolute GOPATH) with their
// tests, each file of overlay read in place of the one on disk: the fixed files of
// TestFixesCompile, or the suggested draws of TestSuggestedDrawsCompile.
func loadFixtures(t *testing.T, testdata string, overlay map[string][]byte) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:     filepath.Join(testdata, "src"),
		Env:     append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
		Tests:   true,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, fixtures...)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}
