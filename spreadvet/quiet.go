package spreadvet

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Quiet paths. A random function may draw on some of its paths only: randstr's Bytes(n)
// returns an empty slice before its draw when n <= 0, and shortid's Encode draws nothing when
// digits is 6. A call whose constant arguments take such a path draws nothing, so a test of
// it is no test of random code: checking that Bytes(0) is empty checks all there is.

// A quietWhen is a condition on one parameter under which a random function draws nothing.
type quietWhen struct {
	Param int         // the parameter's index
	Op    token.Token // the comparison: <, <=, >, >=, ==, !=
	Value float64     // the constant it is compared with
}

func (q quietWhen) String() string { return fmt.Sprintf("$%d %s %g", q.Param, q.Op, q.Value) }

// holds reports whether the condition holds for x.
func (q quietWhen) holds(x float64) bool {
	switch q.Op {
	case token.LSS:
		return x < q.Value
	case token.LEQ:
		return x <= q.Value
	case token.GTR:
		return x > q.Value
	case token.GEQ:
		return x >= q.Value
	case token.EQL:
		return x == q.Value
	case token.NEQ:
		return x != q.Value
	}
	return false
}

// quietString writes a function's quiet conditions for its fact, or "" when it has none.
func quietString(qs []quietWhen) string {
	if len(qs) == 0 {
		return ""
	}
	var s []string
	for _, q := range qs {
		s = append(s, q.String())
	}
	return ", quiet when " + strings.Join(s, " or ")
}

// inferQuiet returns the conditions on fd's parameters under which it draws nothing: each
// comparison of a parameter with a constant that leads an early return made before any draw
// (if n <= 0 { return []byte{} }), and the negation of the one comparison that guards every
// draw of the body (if digits < 6 { ...draw... }). A parameter the body assigns is no guide.
func (c *checker) inferQuiet(fd *ast.FuncDecl) []quietWhen {
	fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok || fd.Body == nil {
		return nil
	}
	params := map[types.Object]int{}
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		if !(sig.Variadic() && i == sig.Params().Len()-1) {
			params[sig.Params().At(i)] = i
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				delete(params, c.objOf(l))
			}
		case *ast.IncDecStmt:
			delete(params, c.objOf(n.X))
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				delete(params, c.objOf(n.X))
			}
		}
		return true
	})
	var quiet []quietWhen
	for _, s := range fd.Body.List {
		if c.drawCount(s) > 0 {
			break
		}
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) == 0 {
			continue
		}
		if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret {
			continue
		}
		var conds []quietWhen
		for _, d := range disjuncts(ifs.Cond) {
			q, ok := c.paramComparison(d, params)
			if !ok {
				conds = nil
				break
			}
			conds = append(conds, q)
		}
		quiet = append(quiet, conds...)
	}
	all := c.drawCount(fd.Body)
	for _, s := range fd.Body.List {
		ifs, ok := s.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil || all == 0 || c.drawCount(ifs.Body) != all {
			continue
		}
		if q, ok := c.paramComparison(ifs.Cond, params); ok {
			q.Op = negate(q.Op)
			quiet = append(quiet, q)
		}
	}
	return quiet
}

// disjuncts returns the conditions e joins with ||.
func disjuncts(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(disjuncts(b.X), disjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// paramComparison reads e as a comparison of one of params with a numeric constant, either
// way round (n <= 0, 6 < digits).
func (c *checker) paramComparison(e ast.Expr, params map[types.Object]int) (quietWhen, bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || !isOrder(b.Op) && b.Op != token.EQL && b.Op != token.NEQ {
		return quietWhen{}, false
	}
	x, y, op := b.X, b.Y, b.Op
	if _, isParam := params[c.objOf(y)]; isParam {
		x, y, op = y, x, mirror(op)
	}
	i, isParam := params[c.objOf(x)]
	v, isConst := c.numericConstant(y)
	if !isParam || !isConst {
		return quietWhen{}, false
	}
	return quietWhen{Param: i, Op: op, Value: v}, true
}

// numericConstant returns the value of e when it is a numeric constant.
func (c *checker) numericConstant(e ast.Expr) (float64, bool) {
	tv := c.pass.TypesInfo.Types[e]
	if tv.Value == nil || (tv.Value.Kind() != constant.Int && tv.Value.Kind() != constant.Float) {
		return 0, false
	}
	v, _ := constant.Float64Val(tv.Value)
	return v, true
}

// negate returns the comparison that holds exactly when op does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.GEQ:
		return token.LSS
	case token.GTR:
		return token.LEQ
	case token.LEQ:
		return token.GTR
	case token.EQL:
		return token.NEQ
	}
	return token.EQL
}

// drawCount counts the draws in n: calls that draw from a source or read random bytes, and
// calls of random functions.
func (c *checker) drawCount(n ast.Node) int {
	k := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if _, draw := c.drawOf(call); draw || c.byteDraw(call) != "" || c.randomCall(call) != nil {
				k++
			}
		}
		return true
	})
	return k
}

// quietCall reports whether call's constant arguments meet one of f's quiet conditions: the
// call draws nothing.
func (c *checker) quietCall(call *ast.CallExpr, f *randomFunc) bool {
	for _, q := range f.Quiet {
		if q.Param >= len(call.Args) {
			continue
		}
		if v, ok := c.numericConstant(call.Args[q.Param]); ok && q.holds(v) {
			return true
		}
	}
	return false
}
