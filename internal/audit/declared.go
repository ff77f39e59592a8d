package audit

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

// interval is a half-open range [lo, hi) as Go source.
type interval struct{ lo, hi string }

// declaredResult infers the distribution of what the enclosing function returns from a
// draw at the top of the stack, when the draw reaches a return statement through
// conversions, scaling of a [0, 1) draw by a factor, an added offset, or one local variable:
// time.Duration(rand.Float64() * float64(d)) returns spread.Uniform(0, d). It returns "" when
// the path is anything else.
func (f *finder) declaredResult(s *Site, stack []ast.Node) string {
	iv, ok := drawInterval(s)
	if !ok {
		return ""
	}
	info := f.pkg.TypesInfo
	for i := len(stack) - 2; i >= 0; i-- {
		child := stack[i+1]
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
		case *ast.CallExpr: // a conversion keeps the range
			if tv, isType := info.Types[p.Fun]; !isType || !tv.IsType() || len(p.Args) != 1 {
				return ""
			}
		case *ast.BinaryExpr:
			other := p.Y
			if p.Y == child {
				other = p.X
			}
			if !f.pure(other) {
				return "" // a second draw or a call: no fixed range
			}
			if iv, ok = combine(iv, p.Op, f.text(other)); !ok {
				return ""
			}
		case *ast.ReturnStmt:
			if len(p.Results) != 1 {
				return ""
			}
			return f.uniformAs(iv, info.TypeOf(p.Results[0]), p.Pos())
		case *ast.AssignStmt: // x := draw; ... return T(x)
			return f.throughLocal(p, child, iv, stack[:i])
		default:
			return ""
		}
	}
	return ""
}

// uniformAs renders spread.Uniform over the interval as a declaration of type t, the type of
// what the function returns, which spread.Check takes only for a sample of that type: a bound
// of another type is converted to t, and where both bounds are untyped constants whose
// default type is not t, t is named (spread.Uniform[int64](0, 100)). Each bound is typed as
// the source at pos reads it; a bound that does not type-check there is left as it is.
func (f *finder) uniformAs(iv interval, t types.Type, pos token.Pos) string {
	name := types.TypeString(t, f.imports.userQualifier)
	bounds := []string{iv.lo, iv.hi}
	untyped := 0
	var def types.Type
	for i, b := range bounds {
		tv, err := types.Eval(f.fset, f.pkg.Types, pos, b)
		switch {
		case err != nil || t == nil:
			return "spread.Uniform(" + iv.lo + ", " + iv.hi + ")"
		case tv.Value != nil && isUntyped(tv.Type):
			untyped++
			def = types.Default(tv.Type)
		case !types.Identical(tv.Type, t):
			bounds[i] = name + "(" + b + ")"
		}
	}
	if untyped == 2 && !types.Identical(def, t) {
		return "spread.Uniform[" + name + "](" + bounds[0] + ", " + bounds[1] + ")"
	}
	return "spread.Uniform(" + bounds[0] + ", " + bounds[1] + ")"
}

// isUntyped reports whether t is the type of an untyped constant.
func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// drawInterval is the range of a draw's own value.
func drawInterval(s *Site) (interval, bool) {
	switch s.Draw.Kind {
	case rewrite.UnitDraw:
		return interval{"0.0", "1.0"}, true
	case rewrite.BoundedDraw:
		return interval{"0", unconvert(s.bound)}, s.bound != ""
	}
	return interval{}, false
}

// combine applies one arithmetic step to a range: a [0, 1) draw times a factor, or an offset
// added to any range.
func combine(iv interval, op token.Token, other string) (interval, bool) {
	other = unconvert(other)
	switch {
	case op == token.MUL && iv == (interval{"0.0", "1.0"}):
		return interval{"0", other}, true
	case op == token.ADD && iv.lo == "0":
		return interval{other, other + " + " + iv.hi}, true
	}
	return interval{}, false
}

// unconvert strips a numeric conversion: float64(d) is d to the reader of a spread call.
func unconvert(s string) string {
	for _, c := range []string{"float64(", "float32(", "int64(", "uint64(", "int("} {
		if strings.HasPrefix(s, c) && strings.HasSuffix(s, ")") && strings.Count(s, "(") == 1 {
			return strings.TrimSuffix(strings.TrimPrefix(s, c), ")")
		}
	}
	return s
}

// throughLocal follows a draw assigned to one local variable to a return statement that
// returns that variable, possibly converted.
func (f *finder) throughLocal(a *ast.AssignStmt, rhs ast.Node, iv interval, stack []ast.Node) string {
	if len(a.Lhs) != 1 || len(a.Rhs) != 1 || a.Rhs[0] != rhs {
		return ""
	}
	id, ok := a.Lhs[0].(*ast.Ident)
	if !ok {
		return ""
	}
	obj := f.pkg.TypesInfo.ObjectOf(id)
	var body *ast.BlockStmt
	for i := len(stack) - 1; i >= 0 && body == nil; i-- {
		switch fn := stack[i].(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
	}
	if body == nil || obj == nil {
		return ""
	}
	found := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 && f.returnsVar(r.Results[0], obj) {
			found = f.uniformAs(iv, f.pkg.TypesInfo.TypeOf(r.Results[0]), r.Pos())
		}
		return found == ""
	})
	return found
}

// returnsVar reports whether e is the variable, possibly inside conversions and parentheses.
func (f *finder) returnsVar(e ast.Expr, obj types.Object) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.CallExpr:
			if tv, ok := f.pkg.TypesInfo.Types[x.Fun]; !ok || !tv.IsType() || len(x.Args) != 1 {
				return false
			}
			e = x.Args[0]
		case *ast.Ident:
			return f.pkg.TypesInfo.ObjectOf(x) == obj
		default:
			return false
		}
	}
}

// pure reports whether an expression is made of names, constants, arithmetic and
// conversions only: no call that could draw or change from one call to the next.
func (f *finder) pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.CallExpr:
			if tv, isType := f.pkg.TypesInfo.Types[n.Fun]; !isType || !tv.IsType() {
				ok = false
			}
		}
		return ok
	})
	return ok
}
