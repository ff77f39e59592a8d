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
	// Field, when set, names the field of the parameter compared (sarama's hash partitioner
	// draws only when message.Key == nil), and Nil is set when the comparison is with nil
	// rather than with Value: == or != alone.
	Field string
	Nil   bool
	// Other, when above 0, is one more than the index of the parameter compared in place of
	// Value (gopter's Int64Range(min, max) makes a generator of no draw when max < min).
	Other int
}

func (q quietWhen) String() string {
	x := fmt.Sprintf("$%d", q.Param)
	if q.Field != "" {
		x += "." + q.Field
	}
	if q.Nil {
		return fmt.Sprintf("%s %s nil", x, q.Op)
	}
	if q.Other > 0 {
		return fmt.Sprintf("%s %s $%d", x, q.Op, q.Other-1)
	}
	return fmt.Sprintf("%s %s %g", x, q.Op, q.Value)
}

// holdsNil reports whether a comparison with nil holds for a value that is nil or not.
func (q quietWhen) holdsNil(isNil bool) bool {
	return q.Op == token.EQL && isNil || q.Op == token.NEQ && !isNil
}

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
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
					delete(params, c.objOf(sel.X)) // message.Key = k: its fields are no guide
				}
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

// conjuncts returns the conditions e joins with &&.
func conjuncts(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// paramComparison reads e as a comparison of one of params with a numeric constant, either
// way round (n <= 0, 6 < digits), or with another of params (max < min), or of a field of one
// of params with nil (message.Key == nil).
func (c *checker) paramComparison(e ast.Expr, params map[types.Object]int) (quietWhen, bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || !isOrder(b.Op) && b.Op != token.EQL && b.Op != token.NEQ {
		return quietWhen{}, false
	}
	if q, ok := c.fieldNilComparison(b, params); ok {
		return q, true
	}
	x, y, op := b.X, b.Y, b.Op
	if _, isParam := params[c.objOf(y)]; isParam {
		x, y, op = y, x, mirror(op)
	}
	i, isParam := params[c.objOf(x)]
	if j, isOther := params[c.objOf(y)]; isParam && isOther && isNumeric(c.typeOf(x)) {
		return quietWhen{Param: i, Op: op, Other: j + 1}, true
	}
	v, isConst := c.numericConstant(y)
	if !isParam || !isConst {
		return quietWhen{}, false
	}
	return quietWhen{Param: i, Op: op, Value: v}, true
}

// fieldNilComparison reads b as a comparison of a field of one of params with nil, either
// way round (message.Key == nil, nil != m.Next).
func (c *checker) fieldNilComparison(b *ast.BinaryExpr, params map[types.Object]int) (quietWhen, bool) {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return quietWhen{}, false
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if c.isNilIdent(x) {
		x, y = y, x
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok || !c.isNilIdent(y) {
		return quietWhen{}, false
	}
	if s := c.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return quietWhen{}, false // a method value, or a field promoted from an embedded one
	}
	i, isParam := params[c.objOf(sel.X)]
	if !isParam {
		return quietWhen{}, false
	}
	return quietWhen{Param: i, Op: b.Op, Field: sel.Sel.Name, Nil: true}, true
}

// isNilIdent reports whether e is the predeclared nil.
func (c *checker) isNilIdent(e ast.Expr) bool {
	return c.pass.TypesInfo.Types[ast.Unparen(e)].IsNil()
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
		if q.Nil {
			if isNil, known := c.fieldNil(call.Args[q.Param], q.Field, call.Pos()); known && q.holdsNil(isNil) {
				return true
			}
			continue
		}
		if q.Other > 0 {
			if c.constantsHold(call, q) {
				return true
			}
			continue
		}
		if v, ok := c.numericConstant(call.Args[q.Param]); ok && q.holds(v) {
			return true
		}
	}
	return false
}

// constantsHold reports whether the arguments of call that q compares with each other are
// numeric constants that meet it (Int64Range(200, 100) of max < min).
func (c *checker) constantsHold(call *ast.CallExpr, q quietWhen) bool {
	if q.Other > len(call.Args) {
		return false
	}
	x, okX := c.numericConstant(call.Args[q.Param])
	y, okY := c.numericConstant(call.Args[q.Other-1])
	q.Value = y
	return okX && okY && q.holds(x)
}

// fieldNil tells whether the field of the struct that arg is, or points to, is nil when a
// call at pos is made, when that can be read: arg a composite literal (&ProducerMessage{}: a
// field left out is nil), or a local declared with one whose field every assignment before
// pos gives a value of one kind (msg := ProducerMessage{}; msg.Key = StringEncoder("k")).
func (c *checker) fieldNil(arg ast.Expr, field string, pos token.Pos) (isNil, known bool) {
	e := ast.Unparen(arg)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		return c.litFieldNil(lit, field)
	}
	v := c.localVar(e)
	if v == nil {
		return false, false
	}
	var file *ast.File
	for _, f := range c.pass.Files {
		if f.Pos() <= pos && pos < f.End() {
			file = f
		}
	}
	if file == nil {
		return false, false
	}
	declared, assigned := false, 0 // assigned: 1 nil, 2 not nil, 3 both or unknown
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || n.End() < v.Pos() || n.Pos() > pos {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if len(n.Lhs) != len(n.Rhs) {
					break
				}
				if id, ok := l.(*ast.Ident); ok && c.pass.TypesInfo.Defs[id] == v {
					if lit, ok := ast.Unparen(n.Rhs[i]).(*ast.CompositeLit); ok {
						isNil, known = c.litFieldNil(lit, field)
						declared = known
					}
				}
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == field && c.objOf(sel.X) == v {
					switch n, k := c.nilness(n.Rhs[i]); {
					case !k:
						assigned |= 3
					case n:
						assigned |= 1
					default:
						assigned |= 2
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				if c.pass.TypesInfo.Defs[id] == v && len(n.Values) == 0 {
					isNil, known, declared = true, true, true // var msg ProducerMessage: the zero value
				}
			}
		}
		return true
	})
	switch {
	case !declared:
		return false, false
	case assigned == 1:
		return true, true
	case assigned == 2:
		return false, true
	case assigned == 3:
		return false, false
	}
	return isNil, known
}

// litFieldNil tells whether a composite literal of a struct leaves the field nil: left out,
// or given nil.
func (c *checker) litFieldNil(lit *ast.CompositeLit, field string) (isNil, known bool) {
	if _, ok := c.typeOf(lit).Underlying().(*types.Struct); !ok {
		return false, false
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return false, false // positional: past reading here
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == field {
			return c.nilness(kv.Value)
		}
	}
	return true, true
}

// nilness tells whether e is nil, when its form says: nil is; a conversion of something not
// nil, new, make, a literal or an address is not (StringEncoder("k"), &x, []byte{1}); a
// variable or another call is not known.
func (c *checker) nilness(e ast.Expr) (isNil, known bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.isNilIdent(e), c.isNilIdent(e)
	case *ast.CallExpr:
		if c.pass.TypesInfo.Types[e.Fun].IsType() && len(e.Args) == 1 {
			isNil, known := c.nilness(e.Args[0])
			return false, known && !isNil
		}
		if b, ok := c.objOf(e.Fun).(*types.Builtin); ok && (b.Name() == "new" || b.Name() == "make") {
			return false, true
		}
		return false, false
	case *ast.CompositeLit, *ast.BasicLit, *ast.FuncLit:
		return false, true
	case *ast.UnaryExpr:
		return false, e.Op == token.AND
	}
	return false, false
}
