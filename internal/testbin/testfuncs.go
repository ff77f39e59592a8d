package testbin

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// TestFunc is where a func of a package's test files is declared: its file (a name within the
// package's directory) and its lines.
type TestFunc struct {
	File             string
	Line, Start, End int // the name's line; the func's first and last lines
}

// TestFuncs returns the top-level funcs of the package's test files by name (Test, Example,
// Fuzz and Benchmark funcs among them). A file that does not parse is passed over.
func TestFuncs(dir string) map[string]TestFunc {
	funcs := map[string]TestFunc{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return funcs
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, goparser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				funcs[fd.Name.Name] = TestFunc{File: e.Name(), Line: fset.Position(fd.Name.Pos()).Line,
					Start: fset.Position(fd.Pos()).Line, End: fset.Position(fd.End()).Line}
			}
		}
	}
	return funcs
}
