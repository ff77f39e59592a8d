package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// truncatingConversions reports an integer conversion (time.Duration included) of a fraction:
// a float that always lies in (-1, 1), such as rand.Float64(), which converts to 0.
func (c *checker) truncatingConversions() {
	for _, fd := range c.funcDecls(false) {
		if !c.draws[fd.Node()] {
			continue // a fraction is a linear form in a draw
		}
		for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if len(call.Args) != 1 || !c.isConversion(call) || !isInteger(c.typeOf(call)) {
				continue
			}
			arg := call.Args[0]
			if b, ok := c.typeOf(arg).Underlying().(*types.Basic); !ok || b.Info()&types.IsFloat == 0 {
				continue
			}
			if c.isFraction(arg) {
				c.reportTruncation(cur, call)
			}
		}
	}
}

// isFraction reports whether a float expression lies in (-1, 1) whatever its draw: a linear
// form in one draw with constant coefficients.
func (c *checker) isFraction(e ast.Expr) bool {
	l, ok := c.linearOf(e, func(ast.Expr) (string, bool) { return "", false })
	if !ok || !l.random() {
		return false
	}
	a, ok1 := l.a.constant()
	b, ok2 := l.b.constant()
	if !ok1 || !ok2 {
		return false
	}
	if a > 0 { // [b, a+b)
		return b > -1 && a+b <= 1
	}
	return a+b >= -1 && b < 1 // (a+b, b]
}

func (c *checker) reportTruncation(cur cursor, call *ast.CallExpr) {
	d := analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: "truncating conversion: " + c.src(call) + " converts a fraction to an integer, which is always 0; " +
			"multiply first, then convert: " + c.src(call.Fun) + "(" + c.src(call.Args[0]) + " * float64(d))",
	}
	if mul, ok := cur.Parent().Node().(*ast.BinaryExpr); ok && mul.Op == token.MUL {
		other := mul.Y
		if mul.Y == call {
			other = mul.X
		}
		if types.Identical(c.typeOf(other), c.typeOf(call)) {
			fixed := c.src(call.Fun) + "(" + c.src(call.Args[0]) + " * float64(" + c.src(other) + "))"
			d.Message = "truncating conversion: " + c.src(call) + " converts a fraction to an integer, which is always 0, so " +
				c.src(mul) + " is 0; multiply first, then convert: " + fixed
			d.SuggestedFixes = replace("multiply before converting", mul, fixed)
		}
	}
	c.pass.Report(d)
}
