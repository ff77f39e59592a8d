package spreadvet

import (
	"go/ast"
	"go/token"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// Checks in two files are ordered by file name, then offset, whichever file the file set
// holds first: go/packages parses a package's files concurrently, so a helper's file may come
// before a test's in one run and after it in the next (gopter's fixture's messages flipped on
// a fresh clone).
func TestSourceOrder(t *testing.T) {
	fset := token.NewFileSet()
	helper := fset.AddFile("helper_test.go", -1, 100) // parsed first: the lower positions
	test := fset.AddFile("gen_test.go", -1, 100)
	c := &checker{pass: &analysis.Pass{Fset: fset}}
	inHelper := &ast.Ident{NamePos: helper.Pos(50)}
	inTest, later := &ast.Ident{NamePos: test.Pos(10)}, &ast.Ident{NamePos: test.Pos(20)}
	if c.sourceOrder(inTest, inHelper) >= 0 || c.sourceOrder(inHelper, inTest) <= 0 {
		t.Error("gen_test.go's node does not come before helper_test.go's")
	}
	if c.sourceOrder(inTest, later) >= 0 || c.sourceOrder(later, later) != 0 {
		t.Error("nodes of one file are not in the order of their offsets")
	}
}
