package spreadvet

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
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
			} else if unit, ok := c.wholeUnits(cur, call); ok {
				c.reportWholeUnits(cur, call, unit)
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

// wholeUnits reports a random float converted to an integer type and then multiplied by a
// constant unit of that type (time.Duration(jitterSecs) * time.Second, where jitterSecs is
// rand.Float64() times a configured number of seconds, as pgx's pool jitters a connection's
// lifetime): the conversion floors the draw to a whole number of units, so a range under one
// unit jitters nothing and a wider one takes a few values. It returns the unit.
func (c *checker) wholeUnits(cur cursor, call *ast.CallExpr) (ast.Expr, bool) {
	mul, ok := cur.Parent().Node().(*ast.BinaryExpr)
	if !ok || mul.Op != token.MUL {
		return nil, false
	}
	unit := mul.Y
	if mul.Y == call {
		unit = mul.X
	}
	tv := c.pass.TypesInfo.Types[unit]
	if tv.Value == nil || !types.Identical(tv.Type, c.typeOf(call)) {
		return nil, false
	}
	if v, ok := constant.Float64Val(constant.ToFloat(tv.Value)); !ok || v <= 1 {
		return nil, false
	}
	l, ok := c.linearOf(call.Args[0], func(ast.Expr) (string, bool) { return "x", true })
	return unit, ok && l.random() && !c.wholeDraw(call.Args[0], l.draw)
}

// wholeDraw reports whether the random part of e is already a whole number: an integer draw
// converted to a float and only added to the rest (heimdall's time.Duration(base +
// float64(rand.Int63n(jitter+1))) * time.Millisecond): flooring the sum floors only the
// rest, and the draw's every value survives.
func (c *checker) wholeDraw(e ast.Expr, draw *ast.CallExpr) bool {
	if draw == nil || !isInteger(c.typeOf(draw)) {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(c.fileOf(draw.Pos()), draw.Pos(), draw.End())
	for k := 1; k < len(path); k++ {
		if path[k-1] == e {
			return true
		}
		switch p := path[k].(type) {
		case *ast.ParenExpr:
		case *ast.CallExpr:
			if !c.isConversion(p) || k != 1 {
				return false // float64(rand.Int63n(k)), converted right at the draw
			}
		case *ast.BinaryExpr:
			if p.Op != token.ADD && p.Op != token.SUB {
				return false
			}
		default:
			return false
		}
	}
	return false
}

func (c *checker) reportWholeUnits(cur cursor, call *ast.CallExpr, unit ast.Expr) {
	mul := cur.Parent().Node().(*ast.BinaryExpr)
	fixed := c.src(call.Fun) + "(" + c.src(call.Args[0]) + " * float64(" + c.src(unit) + "))"
	c.pass.Report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: "truncating conversion: " + c.src(call) + " floors a random " + c.src(call.Args[0]) + " to a whole number before " +
			c.src(mul) + " scales it, so the result moves in whole steps of " + c.src(unit) + " and a range under one step draws nothing; " +
			"multiply first, then convert: " + fixed,
		SuggestedFixes: replace("multiply before converting", mul, fixed),
	})
}
