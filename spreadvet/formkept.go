package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/types/typeutil"
)

// Random values kept for later checks of form. A test draws IDs in one loop, appends them to
// a slice and checks them in another (zipkin-go's TestRandomTimeStamped: ids = append(ids,
// gen.TraceID()), then for _, id := range ids), and may look at a part of each, its high
// bits (id.High>>32, the time of a time-ordered ID), only to see it come after the one
// before. Each ID the slice holds is then checked as the draw itself is, and the part's
// order, which a constant increment keeps, is a check of form.

// appendedDraw follows the random result or a value made from it, arg, appended to a local
// slice (s = append(s, arg)): each element of the slice that a range reads is a value made
// from it. Any other use of the slice, but the appends, tests more.
func (c *checker) appendedDraw(p cursor, call *ast.CallExpr, arg cursor, u *formUse) {
	a, ok := p.Parent().Node().(*ast.AssignStmt)
	s := c.localVar(call.Args[0])
	if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 || c.localVar(a.Lhs[0]) != s || s == nil || arg.Node() == call.Args[0] || call.Ellipsis.IsValid() {
		u.breaks("passed to append")
		return
	}
	if u.made[s] {
		return
	}
	u.made[s] = true
	for _, id := range c.usesOf(p, s) {
		switch pn := id.Parent().Node().(type) {
		case *ast.AssignStmt:
			if c.appendsTo(pn, s) {
				continue // s = append(s, x)
			}
		case *ast.CallExpr:
			if b, ok := typeutil.Callee(c.pass.TypesInfo, pn).(*types.Builtin); ok && b.Name() == "append" && pn.Args[0] == id.Node() && c.appendsTo(id.Parent().Parent().Node(), s) {
				continue
			}
		case *ast.RangeStmt:
			if v := c.localVar(pn.Value); pn.X == id.Node() && v != nil {
				c.formVar(id.Parent(), v, u)
				continue
			}
		}
		u.breaks("kept in " + s.Name() + ", used in " + c.src(id.Parent().Node()))
		return
	}
}

// appendsTo reports whether n is s = append(s, ...).
func (c *checker) appendsTo(n ast.Node, s *types.Var) bool {
	a, ok := n.(*ast.AssignStmt)
	if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 || c.localVar(a.Lhs[0]) != s {
		return false
	}
	call, ok := ast.Unparen(a.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || c.localVar(call.Args[0]) != s {
		return false
	}
	b, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Builtin)
	return ok && b.Name() == "append"
}

// shiftedPart follows the high bits of the random result or of a part of it, shifted by a
// constant (id.High>>32), at cur: they may only be ordered, against a bound or the part
// before, and be kept to order the next one; an order against a value that is no constant
// is a check of order. Anything else (a bit compared with 0, counted) tests more.
func (c *checker) shiftedPart(cur cursor, u *formUse) {
	sub := &formUse{made: maps.Clone(u.made), depth: u.depth, loop: u.loop}
	c.formValue(cur, sub)
	if sub.breaker != "" || sub.kinds&^formBounds != 0 {
		u.breaks("shifted: " + c.src(cur.Node()))
		return
	}
	maps.Copy(u.made, sub.made)
	for _, n := range sub.checks {
		k := formBounds
		if b, ok := n.(*ast.BinaryExpr); ok && c.pass.TypesInfo.Types[b.X].Value == nil && c.pass.TypesInfo.Types[b.Y].Value == nil {
			k = formOrder // newVal < oldVal: after the part before
		}
		u.check(n, k)
	}
}

// isShift reports whether b shifts x right by a constant.
func (c *checker) isShift(b *ast.BinaryExpr, x ast.Node) bool {
	return b.Op == token.SHR && b.X == x && c.pass.TypesInfo.Types[b.Y].Value != nil
}

// orderedOnly reports whether the local v, defined from a kept draw (oldVal := latestTS),
// is read only as a side of an order comparison or in messages.
func (c *checker) orderedOnly(at cursor, v *types.Var) bool {
	if v == nil {
		return false
	}
	return keptOnlyFor(c.usesOf(at, v), func(id cursor) bool {
		switch p := id.Parent().Node().(type) {
		case *ast.BinaryExpr:
			return isOrder(p.Op)
		case *ast.CallExpr:
			return c.reportsOnly(id)
		}
		return false
	})
}

// definesOrderedOnly reports whether the read of a kept draw at id is the value of a
// definition (oldVal := latestTS, or one of several) of a local that orderedOnly.
func (c *checker) definesOrderedOnly(id cursor) bool {
	v := c.definedBy(id)
	if v == nil {
		v = c.pairedBy(id)
	}
	return v != nil && c.orderedOnly(id, v)
}
