package audit

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/spread"
)

// Equivalent mutants are found two ways. Statically, before anything runs (see equivalent,
// clamped and reduced): a draw whose value is discarded, a range of one value, the sign of a
// draw over a whole unsigned type, a value truncated or clamped away by the expression around
// it, the halved range of a draw of uniform bits that the code reduces to bits halving
// leaves alone, and the sign of a draw only compared for equality with a value whose
// negation is as likely (see compared).
// After the runs, a survivor whose test binary compiles to the original's bytes with the
// draw's value replaced by 0 (see identical.go).

// equivalent records on a site, found at the top of stack, the classes that provably cannot
// change what the code computes, and why.
func (f *finder) equivalent(s *Site, stack []ast.Node) {
	if s.Equivalent == nil {
		s.Equivalent = map[string]string{}
	}
	classes := s.Draw.Kind.Classes()
	if s.Draw.Kind.Discards() && discarded(stack) {
		for _, c := range classes {
			s.Equivalent[string(c)] = "the draw's value is discarded"
		}
	}
	for _, c := range classes {
		if why := s.Draw.Equivalent(c); why != "" {
			s.Equivalent[string(c)] = why
		}
	}
	f.clamped(s, stack)
	f.reduced(s, stack)
	f.compared(s, stack)
}

// discarded reports whether the value of the innermost node of the stack is thrown away.
func discarded(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	n, parent := stack[len(stack)-1], stack[len(stack)-2]
	switch p := parent.(type) {
	case *ast.ExprStmt:
		return true
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == n && i < len(p.Lhs) && len(p.Lhs) == len(p.Rhs) {
				id, ok := p.Lhs[i].(*ast.Ident)
				return ok && id.Name == "_"
			}
		}
	}
	return false
}

// A clamp is what the expression around a draw makes of every value in an interval: it
// returns the one value all of them become ("" when they do not all become one value).
type clamp struct {
	what   string // the expression, for the reason: "the conversion to int64", "max(..., 1)"
	result func(rewrite.Interval) (string, bool)
}

// clamped proves the patterns below, for a draw whose values and mutants' values are known
// exactly (rewrite.Draw.Values: a [0, 1) draw, a bounded draw with a constant bound):
//
//   - an integer conversion of the draw itself, int64(rand.Float64()): every value in (-1, 1)
//     truncates to 0;
//   - the draw as an argument of min or max (the built-ins, or math.Min and math.Max) whose
//     other arguments are constants: every value at or beyond the constant gives the constant.
//
// When the draw's own values all come out as one value, its randomness never reaches the
// code (a broken jitter: the site gets a Dead note), and every class whose values do too is
// equivalent.
func (f *finder) clamped(s *Site, stack []ast.Node) {
	c, ok := f.clampAround(stack)
	if !ok {
		return
	}
	n := int64(0)
	if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && s.Draw.Kind == rewrite.BoundedDraw && len(call.Args) == 1 {
		n, _ = f.constInt(call.Args[0])
	}
	iv, ok := s.Draw.Values(spread.Suspect(""), n)
	if !ok {
		return
	}
	v, ok := c.result(iv)
	if !ok {
		return
	}
	s.Dead = fmt.Sprintf("%s makes every value of %s %s", c.what, s.Expr, v)
	for _, cl := range s.Draw.Kind.Classes() {
		if civ, _ := s.Draw.Values(cl, n); s.Equivalent[string(cl)] == "" {
			if w, ok := c.result(civ); ok && w == v {
				s.Equivalent[string(cl)] = fmt.Sprintf("%s makes every value of the draw, and of this mutant, %s", c.what, v)
			}
		}
	}
}

// clampAround returns the clamp of the expression that holds the draw at the top of the
// stack, through parentheses.
func (f *finder) clampAround(stack []ast.Node) (clamp, bool) {
	n, _, child := around(stack)
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return clamp{}, false
	}
	if c, ok := f.truncation(call); ok {
		return c, true
	}
	return f.minMax(call, child)
}

// around returns the innermost node around the one at the top of the stack that is no
// parenthesis, its index in the stack, and the node it holds: the top, or the outermost
// parenthesis round it. The node is nil, its index -1, when there is none.
func around(stack []ast.Node) (ast.Node, int, ast.Node) {
	child := stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		if p, ok := stack[i].(*ast.ParenExpr); ok {
			child = p
			continue
		}
		return stack[i], i, child
	}
	return nil, -1, child
}

// truncation is the clamp of a conversion of a float to an integer type.
func (f *finder) truncation(call *ast.CallExpr) (clamp, bool) {
	tv, ok := f.pkg.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() || len(call.Args) != 1 || !isInteger(tv.Type) {
		return clamp{}, false
	}
	return clamp{what: "the conversion to " + types.TypeString(tv.Type, f.imports.userQualifier),
		result: func(iv rewrite.Interval) (string, bool) {
			return "0", iv.Lo > -1 && iv.Hi < 1
		}}, true
}

// minMax is the clamp of min or max with constants for every argument but the draw.
func (f *finder) minMax(call *ast.CallExpr, draw ast.Node) (clamp, bool) {
	name := ""
	switch fn := typeutil.Callee(f.pkg.TypesInfo, call).(type) {
	case *types.Builtin:
		name = fn.Name()
	case *types.Func:
		if fn.Pkg() != nil && fn.Pkg().Path() == "math" && (fn.Name() == "Min" || fn.Name() == "Max") {
			name = "math." + fn.Name()
		}
	}
	isMax := name == "max" || name == "math.Max"
	if !isMax && name != "min" && name != "math.Min" {
		return clamp{}, false
	}
	var bound float64
	var text string
	found := false
	for _, a := range call.Args {
		if a == draw {
			continue
		}
		tv := f.pkg.TypesInfo.Types[a]
		if tv.Value == nil || (tv.Value.Kind() != constant.Int && tv.Value.Kind() != constant.Float) {
			return clamp{}, false
		}
		x, _ := constant.Float64Val(tv.Value)
		if !found || isMax && x > bound || !isMax && x < bound {
			bound, text, found = x, f.text(a), true
		}
	}
	if !found {
		return clamp{}, false
	}
	return clamp{what: fmt.Sprintf("%s(..., %s)", name, text), result: func(iv rewrite.Interval) (string, bool) {
		if isMax {
			return text, iv.Hi <= bound
		}
		return text, iv.Lo >= bound
	}}, true
}
