package spread

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSuspectsListsEvery: Suspects returns every constant of type Suspect that the package
// declares, each once. Before, it left out the four suspects of event times.
func TestSuspectsListsEvery(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		declared = append(declared, suspectConsts(f)...)
	}
	all := Suspects()
	if len(declared) != len(all) {
		t.Errorf("%d Suspect constants declared (%v), Suspects() returns %d: %v", len(declared), declared, len(all), all)
	}
	for _, s := range all {
		if n := len(slices.DeleteFunc(slices.Clone(all), func(x Suspect) bool { return x != s })); n != 1 {
			t.Errorf("Suspects() holds %q %d times", s, n)
		}
	}
	for _, s := range []Suspect{SuspectOffSchedule, SuspectLockstep, SuspectPacked, SuspectClustered} {
		if !slices.Contains(all, s) {
			t.Errorf("Suspects() leaves out %q", s)
		}
	}
}

// suspectConsts returns the names of the constants of type Suspect that f declares.
func suspectConsts(f *ast.File) []string {
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok {
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Suspect" {
				for _, name := range v.Names {
					names = append(names, name.Name)
				}
			}
		}
		return true
	})
	return names
}
