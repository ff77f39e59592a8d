package spreadvet

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer finds blind and flaky tests of random code and broken randomness in the code
// itself. See the package documentation for its findings.
var Analyzer = &analysis.Analyzer{
	Name:      "spreadvet",
	Doc:       doc,
	URL:       "https://pkg.go.dev/github.com/spreadcheck/spreadcheck/spreadvet",
	Requires:  []*analysis.Analyzer{inspect.Analyzer},
	Run:       run,
	FactTypes: []analysis.Fact{new(randomFunc), new(shuffler), new(storedDraw), new(memberTest), new(sampler), new(constructs)},
}

const doc = `find blind and flaky tests of random code, and broken randomness

spreadvet reports tests that draw a random function and assert only bounds (a constant
passes them), tests whose verdict depends on chance (two draws required to differ) or on
the real clock, hand-typed tolerances on random output, randomness read from a clock,
one-sided offsets where ± is meant, integer conversions of fractions, random sleep loops
without a ticker, and *rand.Rand fields or parameters that nothing reads.`

// checker holds what every finding needs for one package.
type checker struct {
	pass    *analysis.Pass
	insp    *inspector.Inspector
	random  map[*types.Func]*randomFunc // the package's own random functions
	draws   map[ast.Node]bool           // the declarations whose bodies draw (or read a clock as randomness)
	sources map[string][]byte           // file contents, for src
	assigns map[*types.Var]assignment   // the assignments of local variables, indexed once
	firsts  map[*types.Var]ast.Expr     // the call a variable is the first value of (a, err := f()), indexed with assigns
	// funcVals are the values of func-typed package variables and fields, indexed once
	funcVals    map[*types.Var][]ast.Expr
	impls       map[*types.Func][]*types.Func // the implementations of interface methods
	litFacts    map[*ast.FuncLit]*randomFunc  // the package's random func literals, decided with its functions
	decls       map[*types.Func]*ast.FuncDecl // the package's function declarations, indexed once
	shufflers   map[*types.Func]*shuffler     // the package's functions that shuffle a slice
	crypto      map[*types.Func]bool          // the package's functions that read crypto/rand, indexed once
	shuffleSeen map[shuffleKey]bool           // the tests and inputs a shuffle finding was reported for
	stored      map[types.Object]*storedDraw  // the package's fields that hold a draw and functions that return one
	stdPkgs     map[*types.Package]bool       // whether a package is the standard library's, decided once
	concrete    *[]*types.TypeName            // the named concrete types implementations are looked among, listed once
	lits        map[*ast.FuncLit]cursor       // the cursors of the package's function literals, indexed once
	// blindReported are the random results reported as blind text or blind picks, which a
	// later check of the same test does not report again
	blindReported map[*ast.CallExpr]bool
	// calleeFacts are randomCallee's answers, kept once findRandomFuncs has decided every
	// fact of the package (nil until then: while the facts grow, an answer can change)
	calleeFacts map[*ast.CallExpr]calleeFact
	// litDirect are directRandomness's answers for func literals, which depend on the
	// syntax and types alone: litFact asks them of the same literal at every call through it
	litDirect map[*ast.FuncLit]directFact
	drawn     map[*ast.CallExpr]drawAnswer // drawOf's answers
	// importedRandom are the randomFunc facts of imported functions (nil for none), read once
	importedRandom map[*types.Func]*randomFunc
	// drawnFields are the fields of the package's structs that its code gives a random
	// value (a fake profile's Name = FirstName()), decided once (see drawnField).
	drawnFields map[*types.Var]bool
	samplers    map[*types.Func]*sampler // the package's methods of func types that return what their receiver makes
	// cryptoVar are the package's variables that hold crypto/rand.Reader (see cryptoVars)
	cryptoVar map[*types.Var]bool
	// paramCalls are the func parameters each function of the package calls (see calledParams)
	paramCalls map[*types.Func][]int
	// drawnVar are the package's variables its code gives only draws (see drawnVars)
	drawnVar map[*types.Var]ast.Expr
}

func run(pass *analysis.Pass) (any, error) {
	if len(pass.Files) == 0 || isStd(pass.Fset.File(pass.Files[0].Pos()).Name()) {
		return nil, nil // the standard library is not the code under test
	}
	c := &checker{pass: oneLinePass(pass), insp: pass.ResultOf[inspect.Analyzer].(*inspector.Inspector), sources: map[string][]byte{}}
	c.findSamplers()
	c.findRandomFuncs()
	c.findConstructors()
	c.findShufflers()
	c.findMemberTests()
	c.findStoredDraws()
	c.clockRandomnessFindings()
	c.oneSidedOffsets()
	c.truncatingConversions()
	c.randomSleepLoops()
	c.deadSeams()
	c.tests()
	return nil, nil
}

// oneLinePass returns a copy of pass whose Report writes each message on one line: a
// message quotes the source (a call chain broken over lines, elastic's
// client.Search(index).\n\t\tAggregation(...).Do), and a line break in it starts what reads as
// another line of output, which tools that read diagnostics a line at a time take for
// garbage.
func oneLinePass(pass *analysis.Pass) *analysis.Pass {
	p := *pass
	p.Report = func(d analysis.Diagnostic) {
		d.Message = lineBreaks.ReplaceAllString(d.Message, " ")
		pass.Report(d)
	}
	return &p
}

// lineBreaks is a line break with the spaces and tabs around it.
var lineBreaks = regexp.MustCompile(`[ \t]*\r?\n[ \t]*`)

// goroot is where the standard library's sources are.
var goroot = filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)

// isStd reports whether file belongs to the standard library.
func isStd(file string) bool { return strings.HasPrefix(file, goroot) }

// isTestFile reports whether the file at pos is a _test.go file.
func (c *checker) isTestFile(pos token.Pos) bool {
	return strings.HasSuffix(c.pass.Fset.File(pos).Name(), "_test.go")
}

// funcDecls returns the cursors of the package's function declarations with bodies, in
// test files or in the others.
func (c *checker) funcDecls(test bool) []inspector.Cursor {
	var out []inspector.Cursor
	for cur := range c.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		if fd := cur.Node().(*ast.FuncDecl); fd.Body != nil && c.isTestFile(fd.Pos()) == test {
			out = append(out, cur)
		}
	}
	return out
}

// typeOf returns the type of e, or nil.
func (c *checker) typeOf(e ast.Expr) types.Type { return c.pass.TypesInfo.TypeOf(e) }

// objOf returns the object an identifier or a selector's name refers to, or nil.
func (c *checker) objOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.pass.TypesInfo.ObjectOf(e)
	case *ast.SelectorExpr:
		return c.pass.TypesInfo.ObjectOf(e.Sel)
	}
	return nil
}

// text returns n as gofmt would print it (for symbols: one spelling for one expression).
func text(n ast.Node) string {
	if e, ok := n.(ast.Expr); ok {
		return types.ExprString(e)
	}
	return reflect.TypeOf(n).String()
}

// src returns the source text of n as written, for messages and fixes, or text(n) when the
// file cannot be read.
func (c *checker) src(n ast.Node) string {
	f := c.pass.Fset.File(n.Pos())
	if f == nil {
		return text(n)
	}
	content, ok := c.sources[f.Name()]
	if !ok {
		content, _ = c.pass.ReadFile(f.Name())
		c.sources[f.Name()] = content
	}
	start, end := f.Offset(n.Pos()), f.Offset(n.End())
	if content == nil || end > len(content) || start > end {
		return text(n)
	}
	return string(content[start:end])
}

// cursor is a position in the syntax tree, with its parents.
type cursor = inspector.Cursor

// sourceOrder orders two nodes as the source does: by file name, then by offset. Positions
// alone would not do across files, whose order in the file set follows the order they were
// parsed in, which go/packages does concurrently (a helper's checks and a test's, in two
// files, came out in either order).
func (c *checker) sourceOrder(a, b ast.Node) int {
	pa, pb := c.pass.Fset.Position(a.Pos()), c.pass.Fset.Position(b.Pos())
	if n := strings.Compare(pa.Filename, pb.Filename); n != 0 {
		return n
	}
	return pa.Offset - pb.Offset
}
