package spreadvet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// ginkgoPaths are the import paths of Ginkgo v2 and of bsm's fork of it, whose specs are func
// literals handed to It: the tests of many modules (go-redis's pool tests) live there and not
// in test functions. Ginkgo v1 is left out, as its specs are rare in modules still kept.
var ginkgoPaths = map[string]bool{"github.com/onsi/ginkgo/v2": true, "github.com/bsm/ginkgo/v2": true}

// noGinkgoTB is what a fix hands spread.Check in a spec whose Ginkgo has no GinkgoTB (it came
// with Ginkgo 2.13; bsm's fork lacks it): the t of a Go test function the check moves to.
const noGinkgoTB = "t"

// ginkgoSpecNodes are Ginkgo's spec nodes: a call of one with a func literal last is a test.
var ginkgoSpecNodes = map[string]bool{"It": true, "Specify": true, "FIt": true, "FSpecify": true}

// testFunc is one test: a test function (or a gocheck suite method), or a Ginkgo spec's
// body, with what a fix passes to spread.Check as its testing.TB.
type testFunc struct {
	cur cursor
	tb  string
}

// testFuncs returns the package's tests: functions that take a *testing.T (or another
// testing parameter), the test funcs that functions of the test files return, and the bodies
// of Ginkgo specs.
func (c *checker) testFuncs() []testFunc {
	var out []testFunc
	for _, fd := range c.funcDecls(true) {
		if tb := c.testingParam(fd.Node().(*ast.FuncDecl)); tb != "" {
			out = append(out, testFunc{fd, tb})
		}
	}
	for cur := range c.insp.Root().Preorder((*ast.FuncLit)(nil)) {
		if !c.isTestFile(cur.Node().Pos()) {
			continue
		}
		if tb := c.ginkgoSpec(cur); tb != "" {
			out = append(out, testFunc{cur, tb})
		} else if tb := c.returnedTest(cur); tb != "" {
			out = append(out, testFunc{cur, tb})
		}
	}
	return out
}

// returnedTest returns the name of the testing parameter of a func literal that a function
// of the test files returns as a test (gofrs/uuid's makeTestNewV7Basic10M returns the
// func(t *testing.T) that t.Run is given), or "": it is in no test function, so no other walk
// reads it.
func (c *checker) returnedTest(lit cursor) string {
	ret, ok := lit.Parent().Node().(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return ""
	}
	fn, ok := enclosingFunc(lit.Parent())
	decl, isDecl := fn.Node().(*ast.FuncDecl)
	if !ok || !isDecl || c.testingParam(decl) != "" {
		return ""
	}
	return c.testingParam(&ast.FuncDecl{Type: lit.Node().(*ast.FuncLit).Type})
}

// ginkgoSpec returns GinkgoTB(), qualified as the file imports Ginkgo (or noGinkgoTB where
// that Ginkgo has none), when lit is the body of a Ginkgo spec (It("text", func() {...}), the
// body last, taking nothing or the spec's context), or "".
func (c *checker) ginkgoSpec(lit cursor) string {
	call, ok := lit.Parent().Node().(*ast.CallExpr)
	if !ok || len(call.Args) < 2 || call.Args[len(call.Args)-1] != lit.Node() || lit.Node().(*ast.FuncLit).Type.Params.NumFields() > 1 {
		return ""
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || !ginkgoPaths[fn.Pkg().Path()] || !ginkgoSpecNodes[fn.Name()] {
		return ""
	}
	if fn.Pkg().Scope().Lookup("GinkgoTB") == nil {
		return noGinkgoTB
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		return c.src(sel.X) + ".GinkgoTB()"
	}
	return "GinkgoTB()"
}

// testName returns how a finding names a test: its function's name, a Ginkgo spec's node and
// text (It("returns value in jitter range")), or for any other func literal (one a function
// returns for t.Run, a subtest's, a goroutine's) the name of the function around it.
func (c *checker) testName(fd cursor) string {
	if decl, ok := fd.Node().(*ast.FuncDecl); ok {
		return decl.Name.Name
	}
	if c.ginkgoSpec(fd) != "" {
		call := fd.Parent().Node().(*ast.CallExpr)
		return c.src(call.Fun) + "(" + c.src(call.Args[0]) + ")"
	}
	if fn, ok := enclosingFunc(fd.Parent()); ok {
		return c.testName(fn)
	}
	return "a func literal" // at package level, in no test: not reached by the test rules
}

// isSpecWithoutTB reports whether a test is a Ginkgo spec whose Ginkgo has no GinkgoTB: a fix
// there would name a t the spec does not have.
func isSpecWithoutTB(fd cursor, tb string) bool {
	_, spec := fd.Node().(*ast.FuncLit)
	return spec && tb == noGinkgoTB
}
