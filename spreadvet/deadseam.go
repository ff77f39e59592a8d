package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// deadSeams reports a *rand.Rand or rand.Source that code can inject (a struct field, a
// parameter) but that nothing in the package reads, while the package draws from the global
// source: tests that seed it change nothing, and no failure can be replayed.
func (c *checker) deadSeams() {
	global := c.globalDraw()
	if global == nil {
		return
	}
	reads := c.fieldReads()
	for _, fd := range c.funcDecls(false) {
		for cur := range fd.Preorder((*ast.Field)(nil)) {
			field := cur.Node().(*ast.Field)
			for _, name := range field.Names {
				v, ok := c.pass.TypesInfo.Defs[name].(*types.Var)
				if !ok || !isSource(v.Type()) {
					continue
				}
				if v.IsField() && !reads[v] && !c.siblingRead(cur, reads) {
					c.reportSeam(name, "field", global)
				} else if !v.IsField() && isParam(cur) && !c.used(fd.Node(), v) {
					c.reportSeam(name, "parameter", global)
				}
			}
		}
	}
	c.typeFields(reads, global)
}

// typeFields reports dead fields of the package's struct types declared outside functions.
func (c *checker) typeFields(reads map[*types.Var]bool, global *ast.CallExpr) {
	for cur := range c.insp.Root().Preorder((*ast.GenDecl)(nil)) {
		g := cur.Node().(*ast.GenDecl)
		if g.Tok != token.TYPE || c.isTestFile(g.Pos()) {
			continue
		}
		if _, inFunc := enclosingFunc(cur); inFunc {
			continue
		}
		for fc := range cur.Preorder((*ast.Field)(nil)) {
			for _, name := range fc.Node().(*ast.Field).Names {
				v, ok := c.pass.TypesInfo.Defs[name].(*types.Var)
				if ok && v.IsField() && isSource(v.Type()) && !reads[v] && !c.siblingRead(fc, reads) {
					c.reportSeam(name, "field", global)
				}
			}
		}
	}
}

// isSource reports whether t is *rand.Rand or rand.Source of math/rand or math/rand/v2.
func isSource(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
		return isNamed(t, "math/rand", "Rand") || isNamed(t, "math/rand/v2", "Rand")
	}
	return isNamed(t, "math/rand", "Source") || isNamed(t, "math/rand/v2", "Source")
}

// globalDraw returns a draw from the global source in the package's non-test code.
func (c *checker) globalDraw() *ast.CallExpr {
	for _, fd := range c.funcDecls(false) {
		for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
			if d, ok := c.drawOf(cur.Node().(*ast.CallExpr)); ok && d.global {
				return cur.Node().(*ast.CallExpr)
			}
		}
	}
	return nil
}

// fieldReads returns the fields that non-test code reads: every selection of a field that
// is not the target of an assignment.
func (c *checker) fieldReads() map[*types.Var]bool {
	reads := map[*types.Var]bool{}
	for cur := range c.insp.Root().Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		v, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Var)
		if !ok || !v.IsField() || c.isTestFile(sel.Pos()) {
			continue
		}
		if a, ok := cur.Parent().Node().(*ast.AssignStmt); ok && a.Tok == token.ASSIGN && isLHS(a, sel) {
			continue
		}
		reads[v] = true
	}
	return reads
}

func isLHS(a *ast.AssignStmt, e ast.Expr) bool {
	for _, l := range a.Lhs {
		if l == e {
			return true
		}
	}
	return false
}

// used reports whether n mentions v.
func (c *checker) used(n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

func (c *checker) reportSeam(name *ast.Ident, kind string, global *ast.CallExpr) {
	pos := c.pass.Fset.Position(global.Pos())
	c.pass.Report(analysis.Diagnostic{
		Pos: name.Pos(), End: name.End(),
		Message: "dead seam: " + kind + " " + name.Name + " holds an injectable random source that nothing reads, while " +
			c.src(global.Fun) + " (line " + strconv.Itoa(pos.Line) + ") draws from the global source, which no test can seed or replay; draw from " + name.Name,
	})
}

// isParam reports whether the field at cur declares parameters of a function.
func isParam(cur cursor) bool {
	list, ok := cur.Parent().Node().(*ast.FieldList)
	if !ok {
		return false
	}
	ft, ok := cur.Parent().Parent().Node().(*ast.FuncType)
	return ok && ft.Params == list
}

// siblingRead reports whether another field of the struct around the field at cur holds a
// random source that is read: the seam is alive, and the unread field is only a leftover
// (gonum's distmv.Normal keeps an unread rnd beside the src it reads).
func (c *checker) siblingRead(cur cursor, reads map[*types.Var]bool) bool {
	list, ok := cur.Parent().Node().(*ast.FieldList)
	if !ok {
		return false
	}
	for _, f := range list.List {
		for _, name := range f.Names {
			if v, ok := c.pass.TypesInfo.Defs[name].(*types.Var); ok && isSource(v.Type()) && reads[v] {
				return true
			}
		}
	}
	return false
}
