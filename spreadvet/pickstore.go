package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// storedPick returns the local collection a random result at cur is stored into as an
// element, and how many indices deep: results[id][j] = gen.Generate(2, "-") stores into
// results two deep (golang-petname's TestConcurrentGenerators, each goroutine filling its row).
func (c *checker) storedPick(cur cursor) (*types.Var, int) {
	a, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 || a.Rhs[0] != cur.Node() {
		return nil, 0
	}
	depth, e := 0, a.Lhs[0]
	for ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok; ix, ok = ast.Unparen(e).(*ast.IndexExpr) {
		depth, e = depth+1, ix.X
	}
	if depth == 0 {
		return nil, 0
	}
	return c.localVar(e), depth
}

// elementUses classifies the reads of the picks stored depth indices deep in v: each element
// reached by indexing (results[i][j]) or by ranging (for _, res := range results, then over
// res) is used as the pick; stores into v, and lengths of it or of its rows (how many were
// stored), say nothing of the picks; any other use of v tests more.
func (c *checker) elementUses(fd cursor, v *types.Var, depth int, u *pickUse) {
	for id := range fd.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
			c.elementUseAt(fd, id, depth, u)
		}
	}
}

// elementUseAt classifies one use of a collection, at cur, whose elements depth indices deep
// are picks.
func (c *checker) elementUseAt(fd, cur cursor, depth int, u *pickUse) {
	if a, ok := cur.Parent().Node().(*ast.AssignStmt); ok && a.Tok == token.ASSIGN && len(a.Lhs) == 1 && a.Lhs[0] == cur.Node() {
		return // results[id] = make([]string, n), results[id][j] = pick: stores
	}
	if depth == 0 {
		c.pickUseAt(fd, cur, u)
		return
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.IndexExpr:
		if p.X == cur.Node() {
			c.elementUseAt(fd, cur.Parent(), depth-1, u)
			return
		}
	case *ast.CallExpr:
		if b, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Builtin); ok && b.Name() == "len" {
			return
		}
	case *ast.RangeStmt:
		if p.X == cur.Node() {
			if p.Value == nil {
				return // for i := range results: the indices alone
			}
			if elem := c.localVar(p.Value); elem != nil {
				c.elementUses(fd, elem, depth-1, u)
				return
			}
		}
	}
	u.breaker = "its collection used in " + c.src(cur.Parent().Node())
}
