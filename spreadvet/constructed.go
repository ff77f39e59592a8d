package spreadvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Constructors of one concrete type. A generator is often handed out as an interface by a
// constructor that always returns the same concrete type (zipkin-go's NewRandom64 returns
// &randomID64{} as an IDGenerator). The concrete type then decides what a call of the
// interface's methods does: whether it draws, and which parts of the ID it returns it never
// draws (randomID64's TraceID leaves the High half zero). Within the package the
// constructor's body says so; for the packages that call it, a fact on the constructor does.

// constructs is the fact that an exported function returns one concrete type, as an
// interface, in every return: what the methods of the interface do on that type.
type constructs struct {
	Random map[string]*randomFunc // the methods whose implementation is random
	Fixed  map[string][]string    // the fields of a method's ID result that it never draws
}

func (*constructs) AFact() {}

func (f *constructs) String() string {
	var names []string
	for name := range f.Random {
		names = append(names, name)
	}
	for name := range f.Fixed {
		if f.Random[name] == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var parts []string
	for _, name := range names {
		s := name
		if f.Random[name] != nil {
			s += " random"
		}
		if fixed := f.Fixed[name]; len(fixed) > 0 {
			s += " fixed " + strings.Join(fixed, " ")
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("constructs(%s)", strings.Join(parts, "; "))
}

// findConstructors exports a constructs fact for each exported function of the package's
// non-test code that returns one concrete type as an interface, when a method of it draws or
// returns an ID with a part it never draws. It runs once the random functions are decided.
func (c *checker) findConstructors() {
	for _, cur := range c.funcDecls(false) {
		fd := cur.Node().(*ast.FuncDecl)
		fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || !fn.Exported() || fd.Recv != nil || fn.Signature().Results().Len() == 0 {
			continue
		}
		iface, ok := fn.Signature().Results().At(0).Type().Underlying().(*types.Interface)
		t := c.returnedType(fd.Body)
		if !ok || t == nil || isNamedError(fn.Signature().Results().At(0).Type()) {
			continue
		}
		if f := c.constructsOf(t, iface); len(f.Random) > 0 || len(f.Fixed) > 0 {
			c.pass.ExportObjectFact(fn, f)
		}
	}
}

// constructsOf returns what each method of iface does on the concrete type t.
func (c *checker) constructsOf(t types.Type, iface *types.Interface) *constructs {
	f := &constructs{Random: map[string]*randomFunc{}, Fixed: map[string][]string{}}
	for m := range iface.Methods() {
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		impl, ok := obj.(*types.Func)
		if !ok || c.isTestFile(impl.Pos()) {
			continue
		}
		if r := c.randomFact(impl); r != nil {
			f.Random[m.Name()] = r
		}
		if fixed := c.fixedParts(impl); len(fixed) > 0 {
			f.Fixed[m.Name()] = fixed
		}
	}
	return f
}

// constructorOf returns the function whose call is the one value of the receiver of the
// interface method call fun (gen.TraceID() after gen := idgenerator.NewRandom64()), or nil.
func (c *checker) constructorOf(fun ast.Expr) (*ast.CallExpr, *types.Func) {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	call, ok := ast.Unparen(c.onlyAssignment(c.localVar(sel.X))).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return call, typeutil.StaticCallee(c.pass.TypesInfo, call)
}

// importedConstructs returns the constructs fact of the imported constructor of the receiver
// of the interface method call fun, or nil.
func (c *checker) importedConstructs(fun ast.Expr) *constructs {
	_, fn := c.constructorOf(fun)
	if fn == nil || fn.Pkg() == c.pass.Pkg {
		return nil
	}
	var f constructs
	if !c.pass.ImportObjectFact(fn, &f) {
		return nil
	}
	return &f
}

// fixedOf returns the fields of the ID that call returns which the function it reaches never
// draws: a function or method of this package, or an interface method whose concrete type a
// constructor decides (here, or by the fact of another package's constructor).
func (c *checker) fixedOf(call *ast.CallExpr) map[string]bool {
	var fixed []string
	if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil {
		fixed = c.fixedParts(fn)
	} else if m, ok := c.objOf(call.Fun).(*types.Func); ok && isInterfaceMethod(m) {
		fun := ast.Unparen(call.Fun)
		switch impl := c.constructedMethod(fun, m); {
		case impl != nil:
			fixed = c.fixedParts(impl)
		case c.importedConstructs(fun) != nil:
			fixed = c.importedConstructs(fun).Fixed[m.Name()]
		}
	}
	if len(fixed) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, name := range fixed {
		out[name] = true
	}
	return out
}

// fixedParts returns the fields of the ID (a struct of numbers) that the function of this
// package returns first which every value it returns leaves constant: a composite literal
// that names no such field or gives it a constant (model.TraceID{Low: draw} fixes High at
// zero). It is nil when a value returned is anything else, or when no field is fixed.
func (c *checker) fixedParts(fn *types.Func) []string {
	fd := c.declOf(fn)
	res := fn.Signature().Results()
	if fd == nil || fd.Body == nil || res.Len() == 0 || !isID(res.At(0).Type()) {
		return nil
	}
	st, ok := res.At(0).Type().Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	lits, ok := c.returnedLits(fd, res.At(0))
	if !ok || len(lits) == 0 {
		return nil
	}
	var fixed []string
	for i := range st.NumFields() {
		if !slices.ContainsFunc(lits, func(lit *ast.CompositeLit) bool { return !c.leavesConstant(lit, st, i) }) {
			fixed = append(fixed, st.Field(i).Name())
		}
	}
	if len(fixed) == st.NumFields() {
		return nil // nothing of it is drawn: no part is fixed against another
	}
	return fixed
}

// returnedLits returns the composite literals that are the values fd returns first: returned
// themselves, or given to the local or named result returned, which nothing else writes.
func (c *checker) returnedLits(fd *ast.FuncDecl, named *types.Var) ([]*ast.CompositeLit, bool) {
	var lits []*ast.CompositeLit
	for _, r := range returnsOf(fd.Body) {
		var v *types.Var
		switch {
		case len(r.Results) == 0 && named.Name() != "":
			v = named
		case len(r.Results) > 0:
			if lit, isLit := ast.Unparen(r.Results[0]).(*ast.CompositeLit); isLit {
				lits = append(lits, lit)
				continue
			}
			v = c.localVar(r.Results[0])
		}
		vl, ok := c.litValues(fd, v)
		if lits = append(lits, vl...); !ok {
			return lits, false
		}
	}
	return lits, true
}

// litValues returns the composite literals given to the local v in fd (a var declaration
// with no value gives it the empty one), false when v is nil or written any other way: a
// field of it assigned, its address taken, or another value given.
func (c *checker) litValues(fd *ast.FuncDecl, v *types.Var) ([]*ast.CompositeLit, bool) {
	if v == nil {
		return nil, false
	}
	var lits []*ast.CompositeLit
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if c.objOf(l) == types.Object(v) {
					lit, isLit := litAt(n.Rhs, i, len(n.Lhs))
					lits, ok = append(lits, lit), ok && isLit
				} else if c.writesInto(l, v) {
					ok = false
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if c.pass.TypesInfo.Defs[id] == types.Object(v) {
					lit, isLit := litAt(n.Values, i, len(n.Names))
					if len(n.Values) == 0 {
						lit, isLit = &ast.CompositeLit{}, true
					}
					lits, ok = append(lits, lit), ok && isLit
				}
			}
		case *ast.UnaryExpr:
			ok = ok && !(n.Op == token.AND && c.writesInto(n.X, v))
		case *ast.IncDecStmt:
			ok = ok && !c.writesInto(n.X, v)
		}
		return ok
	})
	return lits, ok
}

// litAt returns the composite literal among values that the i'th of n targets is given.
func litAt(values []ast.Expr, i, n int) (*ast.CompositeLit, bool) {
	if len(values) != n {
		return nil, false
	}
	lit, ok := ast.Unparen(values[i]).(*ast.CompositeLit)
	return lit, ok
}

// writesInto reports whether e, a target of a write, names v or a part of it (v, v.High,
// v[0]).
func (c *checker) writesInto(e ast.Expr, v *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.Ident:
			return c.pass.TypesInfo.Uses[x] == types.Object(v)
		default:
			return false
		}
	}
}

// leavesConstant reports whether the composite literal lit of the struct st gives its i'th
// field no value, or a constant one.
func (c *checker) leavesConstant(lit *ast.CompositeLit, st *types.Struct, i int) bool {
	for j, e := range lit.Elts {
		value := e
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			key, isIdent := kv.Key.(*ast.Ident)
			if !isIdent || key.Name != st.Field(i).Name() {
				continue
			}
			value = kv.Value
		} else if j != i {
			continue
		}
		return c.pass.TypesInfo.Types[value].Value != nil
	}
	return true
}
