package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/spreadcheck/spreadcheck/internal/diff"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

func TestIsTestName(t *testing.T) {
	for name, want := range map[string]bool{"Test": true, "TestX": true, "Test_x": true, "Testify": false,
		"FuzzParse": true, "Example": true, "ExampleCheck": true, "Examples": false, "helper": false, "BenchmarkX": false} {
		if isTestName(name) != want {
			t.Errorf("isTestName(%q) = %v", name, !want)
		}
	}
}

// TestDiffChoose: per package, a change to a code file or to testdata runs all its tests, one to
// a test's lines runs that test (within -run), one to a helper of the test files or to a
// package below it runs nothing.
func TestDiffChoose(t *testing.T) {
	root := t.TempDir()
	test := "package p\n\nimport \"testing\"\n\nfunc helper() {}\n\nfunc TestA(t *testing.T) {\n\thelper()\n}\n\nfunc TestB(t *testing.T) {}\n"
	for _, name := range []string{"code", "data", "tests", "helper", "outside", "parent", "parent/sub"} {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(test), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := func(from, to int) diff.Range { return diff.Range{From: from, To: to} }
	d := &Diff{Root: root, Since: "since main", Lines: diff.Lines{
		"code/p.go": {r(3, 3)}, "data/testdata/in.json": {r(1, 1)}, "tests/p_test.go": {r(8, 8), r(11, 11)},
		"helper/p_test.go": {r(5, 5)}, "outside/p_test.go": {r(11, 11)}, "parent/sub/p.go": {r(1, 1)},
	}}
	var pkgs []testbin.Package
	for _, name := range []string{"code", "data", "tests", "helper", "outside", "parent"} {
		pkgs = append(pkgs, testbin.Package{ImportPath: "x/" + name, Dir: filepath.Join(root, name)})
	}
	kept, filters, rep := d.choose(pkgs, "TestA|TestC")
	want := []testreport.Chosen{{Package: "x/code", Rule: testreport.CodeChanged}, {Package: "x/data", Rule: testreport.CodeChanged},
		{Package: "x/tests", Rule: testreport.TestsChanged, Tests: []string{"TestA", "TestB"}}}
	if diff := cmp.Diff(want, rep.Chosen); diff != "" || len(kept) != 3 || rep.Left != 3 {
		t.Errorf("chosen (-want +got):\n%s\nkept %d, left out %d", diff, len(kept), rep.Left)
	}
	if want := map[string]string{"x/tests": "^(TestA)$"}; !cmp.Equal(filters, want) {
		t.Errorf("filters %v, want %v: within -run, only TestA", filters, want)
	}
}
