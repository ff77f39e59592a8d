package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"
)

// An assignment counts how a local variable is given values: count is the number of times,
// value the one value when count is 1 and it is a plain expression.
type assignment struct {
	count int
	value ast.Expr
	funcs []ast.Expr // every value given to a func-typed variable
}

// onlyAssignment returns the value a local variable is given, when it is given exactly one
// (its declaration with a value, or one plain assignment). Parameters, range variables,
// variables updated in place (+=, ++) and variables whose address is taken have no one
// value.
func (c *checker) onlyAssignment(v *types.Var) ast.Expr {
	if v == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	if c.assigns == nil {
		c.indexAssignments()
	}
	if a := c.assigns[v]; a.count == 1 {
		return a.value
	}
	return nil
}

// assignCount returns the number of assignments of the local variable v (2 standing for
// more than one).
func (c *checker) assignCount(v *types.Var) int {
	if c.assigns == nil {
		c.indexAssignments()
	}
	return c.assigns[v].count
}

// firstOf returns the call whose first value is the one value of v, a value and its error
// (id, err := Generate(n)), or nil.
func (c *checker) firstOf(v *types.Var) ast.Expr {
	if c.assignCount(v) != 1 {
		return nil
	}
	call := c.firsts[v]
	if call == nil || firstResult(c.typeOf(call)) == c.typeOf(call) {
		return nil
	}
	return call
}

// indexAssignments counts the assignments of every local variable of the package in one walk
// (asking the question per variable, by walking its function, is quadratic on long
// functions). The inspector visits the nodes indexNode records in ast.Inspect's order and
// skips the subtrees that hold none: the walk of every node was a tenth of the analysis.
func (c *checker) indexAssignments() {
	c.assigns = map[*types.Var]assignment{}
	c.firsts = map[*types.Var]ast.Expr{}
	for cur := range c.insp.Root().Preorder(assignNodes...) {
		c.indexNode(cur.Node())
	}
}

// assignNodes are the types of the nodes indexNode records assignments from.
var assignNodes = []ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.RangeStmt)(nil),
	(*ast.FuncType)(nil), (*ast.FuncDecl)(nil), (*ast.UnaryExpr)(nil), (*ast.IncDecStmt)(nil)}

// indexNode records the assignments n makes.
func (c *checker) indexNode(n ast.Node) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		for i, l := range n.Lhs {
			switch {
			case n.Tok != token.DEFINE && n.Tok != token.ASSIGN:
				c.assigned(l, nil, 2) // +=, -=, ...: not one value
			case len(n.Lhs) == len(n.Rhs):
				c.assigned(l, n.Rhs[i], 1)
			default:
				c.assigned(l, nil, 1) // a, b := f()
				if v := c.localVar(l); v != nil && i == 0 && len(n.Rhs) == 1 {
					c.firsts[v] = n.Rhs[0]
				}
			}
		}
	case *ast.ValueSpec:
		for i, id := range n.Names {
			var value ast.Expr
			if len(n.Values) == len(n.Names) {
				value = n.Values[i]
			}
			c.assigned(id, value, 1)
		}
	case *ast.RangeStmt:
		c.assigned(n.Key, nil, 2)
		c.assigned(n.Value, nil, 2)
	case *ast.FuncType:
		c.callerValues(n.Params)
		c.callerValues(n.Results)
	case *ast.FuncDecl:
		c.callerValues(n.Recv)
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			c.assigned(n.X, nil, 2) // its address escapes: any write is possible
		}
	case *ast.IncDecStmt:
		c.assigned(n.X, nil, 2)
	}
}

// callerValues records the parameters (or results, or receiver) of a function: each starts
// with a value its caller gives.
func (c *checker) callerValues(list *ast.FieldList) {
	if list == nil {
		return
	}
	for _, field := range list.List {
		for _, id := range field.Names {
			c.assigned(id, nil, 1)
		}
	}
}

// assigned records that the local variable e names (if it names one) is given value, k times.
func (c *checker) assigned(e ast.Expr, value ast.Expr, k int) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return
	}
	a := c.assigns[v]
	a.count += k
	a.value = value
	if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc && value != nil {
		a.funcs = append(a.funcs, value)
	}
	c.assigns[v] = a
}

// localFuncValues returns every value a local func variable is given (backoff := b.Delay(...);
// later backoff = other.Delay(...)), or nil.
func (c *checker) localFuncValues(v *types.Var) []ast.Expr {
	if v == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	if c.assigns == nil {
		c.indexAssignments()
	}
	return c.assigns[v].funcs
}
