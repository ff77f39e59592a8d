package runner

import (
	"fmt"
	goparser "go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers are the packages that run a session, each with one job, in the order they may import
// one another: each only those before it (see the package comment).
var layers = []string{"testbin", "testout", "resultsfile", "testreport", "runner"}

// offLimits are the standard packages a layer must not import, because another layer's job
// needs them: processes and signals are testbin's, and parsing holds no file.
var offLimits = map[string][]string{
	"testout":     {"os", "os/exec", "syscall"},
	"resultsfile": {"os/exec", "syscall"},
	"testreport":  {"os/exec", "syscall"},
	"runner":      {"syscall"},
}

// TestPackageLayers keeps the cut of the runner: the packages import one another only down the
// layers, and none imports what belongs to another's job, so that the runner does not grow
// back into one package that does everything.
func TestPackageLayers(t *testing.T) {
	imports := map[string][]string{}
	for _, l := range layers {
		imports[l] = sourceImports(t, filepath.Join("..", l))
	}
	for _, msg := range checkLayers(imports) {
		t.Error(msg)
	}
}

// TestCheckLayers: an import up the layers, one of another job's standard package, and one of
// a package that is in no layer are each reported; the layers as they are pass.
func TestCheckLayers(t *testing.T) {
	const mod = "github.com/spreadcheck/spreadcheck/internal/"
	good := map[string][]string{"testout": {"fmt", mod + "testbin"}, "runner": {"os", mod + "testreport"}}
	if got := checkLayers(good); len(got) != 0 {
		t.Errorf("checkLayers(%v) = %q, want nothing", good, got)
	}
	for _, bad := range []map[string][]string{
		{"testbin": {mod + "testout"}},
		{"testreport": {mod + "runner"}},
		{"testout": {"os"}},
		{"runner": {"syscall"}},
		{"elsewhere": {"fmt"}},
	} {
		if got := checkLayers(bad); len(got) != 1 {
			t.Errorf("checkLayers(%v) = %q, want one complaint", bad, got)
		}
	}
}

// checkLayers returns what is wrong with the layers' imports, given per layer.
func checkLayers(imports map[string][]string) []string {
	const mod = "github.com/spreadcheck/spreadcheck/internal/"
	var bad []string
	for pkg, imps := range imports {
		at := slices.Index(layers, pkg)
		if at < 0 {
			bad = append(bad, fmt.Sprintf("%s is not one of the layers %v", pkg, layers))
			continue
		}
		for _, imp := range imps {
			if slices.Contains(offLimits[pkg], imp) {
				bad = append(bad, fmt.Sprintf("%s imports %s, which is another layer's job", pkg, imp))
			}
			if i := slices.Index(layers, strings.TrimPrefix(imp, mod)); i >= at {
				bad = append(bad, fmt.Sprintf("%s imports %s, which is not below it in %v", pkg, imp, layers))
			}
		}
	}
	slices.Sort(bad)
	return bad
}

// sourceImports returns the imports of the non-test Go files in dir, whatever their build tags.
func sourceImports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var imps []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := goparser.ParseFile(token.NewFileSet(), f, nil, goparser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range af.Imports {
			path, _ := strconv.Unquote(s.Path.Value)
			imps = append(imps, path)
		}
	}
	return imps
}
