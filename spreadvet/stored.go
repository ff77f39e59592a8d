package spreadvet

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// Draws stored and read later. A circuit breaker draws its open-state delay when it opens and
// keeps it in a field; a policy draws its jitter when it is built; a test reads the value
// through a method that draws nothing (RemainingDelay). These functions find the fields that
// hold a draw of the package's code and the functions that return one, and the calls of a
// test that read a draw its earlier call made.

// storedDraw is the fact that a field holds a draw (the package's code stores in it the
// value of a random function, or of a parameter that some call passes one), or that a
// function returns the value of such a field.
type storedDraw struct {
	Field string // the field, for messages: "openState.delay"
}

func (*storedDraw) AFact() {}

func (f *storedDraw) String() string { return "stored(" + f.Field + ")" }

// A store is a value the package's code gives a field (x.f = v, T{f: v}) or a parameter (a
// call's argument).
type store struct {
	to     *types.Var
	value  ast.Expr
	direct bool // the value calls a draw itself, decided once
}

// findStoredDraws marks the fields that the package's non-test code gives a draw and the
// functions with one numeric result that return such a field's value (directly, through a
// function that does, or through an interface method whose implementation does), and
// exports their facts.
func (c *checker) findStoredDraws() {
	c.stored = map[types.Object]*storedDraw{}
	var stores []store
	fields := false
	for _, file := range c.pass.Files {
		if c.isTestFile(file.Pos()) {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if v := c.sampleField(l); v != nil && len(n.Lhs) == len(n.Rhs) {
						stores, fields = append(stores, store{to: v, value: n.Rhs[i]}), true
					}
				}
			case *ast.KeyValueExpr:
				if v := c.sampleField(n.Key); v != nil {
					stores, fields = append(stores, store{to: v, value: n.Value}), true
				}
			case *ast.CallExpr:
				stores = c.paramStores(n, stores)
			}
			return true
		})
	}
	if !fields {
		return
	}
	// Only the stores into fields, and into the parameters their values read (and so on),
	// can make a field hold a draw. A value that calls a draw is decided once; a value
	// that reads a parameter or a field is decided again each time the marked set grows.
	stores = c.neededStores(stores)
	marked := map[*types.Var]bool{}
	for i := range stores {
		stores[i].direct = c.callsDraw(stores[i].value)
	}
	for changed := true; changed; {
		changed = false
		for _, s := range stores {
			if !marked[s.to] && (s.direct || c.readsDrawn(s.value, marked)) {
				marked[s.to] = true
				changed = true
			}
		}
	}
	for v := range marked {
		if v.IsField() {
			c.stored[v] = &storedDraw{Field: fieldName(v)}
		}
	}
	if len(c.stored) == 0 {
		return
	}
	c.findStoredReaders()
	for obj, f := range c.stored {
		c.pass.ExportObjectFact(obj, f)
	}
}

// sampleField returns the field that e names (x.f, or the key of a composite literal), when
// the field is the package's own and holds a number or a time.
func (c *checker) sampleField(e ast.Expr) *types.Var {
	v, ok := c.objOf(e).(*types.Var)
	if !ok || !v.IsField() || v.Pkg() != c.pass.Pkg || !isSample(v.Type()) {
		return nil
	}
	return v.Origin()
}

// fieldName names a field by its struct type, for messages: "openState.delay".
func fieldName(v *types.Var) string {
	for _, name := range v.Pkg().Scope().Names() {
		tn, ok := v.Pkg().Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for f := range st.Fields() {
				if f == v {
					return tn.Name() + "." + v.Name()
				}
			}
		}
	}
	return v.Name()
}

// neededStores keeps the stores into fields and into the parameters that a kept store's
// value reads, until nothing changes: a parameter no field's value reads cannot make a field
// hold a draw, and deciding its arguments (every call of the package) would cost the most.
func (c *checker) neededStores(stores []store) []store {
	needed := map[*types.Var]bool{}
	kept := make([]bool, len(stores))
	var out []store
	for changed := true; changed; {
		changed = false
		for i, s := range stores {
			if kept[i] || !s.to.IsField() && !needed[s.to] {
				continue
			}
			kept[i], changed = true, true
			out = append(out, s)
			ast.Inspect(s.value, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() {
						needed[v.Origin()] = true
					}
				}
				return true
			})
		}
	}
	return out
}

// paramStores appends the numeric arguments a call of the package's own function gives its
// parameters (newOpenState(cb, cb.getDelay(exec))).
func (c *checker) paramStores(call *ast.CallExpr, stores []store) []store {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return stores
	}
	sig := fn.Origin().Signature()
	for i, a := range call.Args {
		if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
			break
		}
		if p := sig.Params().At(i); isSample(p.Type()) {
			stores = append(stores, store{to: p, value: a})
		}
	}
	return stores
}

// callsDraw reports whether e calls math/rand, or a random function near its draw (one call
// away at most), for a numeric result.
func (c *checker) callsDraw(e ast.Expr) bool {
	return anyNode(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isSample(c.typeOf(call)) {
			return false
		}
		if _, ok := c.drawOf(call); ok {
			return true
		}
		f := c.randomCall(call)
		return f != nil && f.Hops <= 1
	})
}

// readsDrawn reports whether e reads a parameter or a field of the package marked as holding
// a draw, or a field of an imported package that holds one.
func (c *checker) readsDrawn(e ast.Expr, marked map[*types.Var]bool) bool {
	return anyNode(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		return ok && (marked[v.Origin()] || v.Pkg() != c.pass.Pkg && c.storedFact(v) != nil)
	})
}

// storedFact returns the storedDraw fact of a field or a function, from this package or an
// imported one.
func (c *checker) storedFact(obj types.Object) *storedDraw {
	switch o := obj.(type) {
	case *types.Var:
		obj = o.Origin()
	case *types.Func:
		obj = o.Origin()
	}
	if f, ok := c.stored[obj]; ok {
		return f
	}
	if obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var f storedDraw
	if c.pass.ImportObjectFact(obj, &f) {
		return &f
	}
	return nil
}

// findStoredReaders marks the package's functions with one numeric result whose returns read
// a field that holds a draw, or call a function that does, until nothing changes.
func (c *checker) findStoredReaders() {
	var readers []*ast.FuncDecl
	for _, cur := range c.funcDecls(false) {
		fd := cur.Node().(*ast.FuncDecl)
		if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && fn.Signature().Results().Len() == 1 && isSample(fn.Signature().Results().At(0).Type()) {
			readers = append(readers, fd)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fd := range readers {
			fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if c.stored[fn] != nil {
				continue
			}
			if f := c.returnsStored(fd); f != nil {
				c.stored[fn] = f
				changed = true
			}
		}
	}
}

// returnsStored returns the fact of the stored draw that one of a function's returns reads,
// directly or through a local the function gives it to (var delay time.Duration; if e, ok :=
// items[id]; ok { delay = e.backoff }; return delay: client-go's per-item backoff).
func (c *checker) returnsStored(fd *ast.FuncDecl) *storedDraw {
	var found *storedDraw
	var locals []*types.Var
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if v := c.localVar(r); v != nil {
					locals = append(locals, v)
				} else if found == nil {
					found = c.readsStored(r)
				}
			}
		}
		return found == nil
	})
	if found != nil || len(locals) == 0 {
		return found
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok || len(a.Lhs) != len(a.Rhs) {
			return found == nil
		}
		for i, l := range a.Lhs {
			if v := c.localVar(l); v != nil && slices.Contains(locals, v) && found == nil {
				found = c.readsStored(a.Rhs[i])
			}
		}
		return found == nil
	})
	return found
}

// readsStored returns the fact of the stored draw that e reads: a field that holds one, or a
// call of a function (or an interface method with an implementation) that returns one.
func (c *checker) readsStored(e ast.Expr) *storedDraw {
	var found *storedDraw
	ast.Inspect(e, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if v, ok := c.pass.TypesInfo.Uses[n.Sel].(*types.Var); ok && v.IsField() {
				found = c.storedFact(v)
			}
		case *ast.CallExpr:
			found = c.storedCall(n)
		}
		return found == nil
	})
	return found
}

// storedCall returns the fact of the stored draw that a call returns: a call of a function
// with the fact, or of an interface method that one of the package's types implements with
// a method that has it (cb.state.remainingDelay()).
func (c *checker) storedCall(call *ast.CallExpr) *storedDraw {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok {
		return nil
	}
	if !isInterfaceMethod(fn) {
		return c.storedFact(fn)
	}
	for obj, f := range c.stored {
		if impl, ok := obj.(*types.Func); ok && impl.Name() == fn.Name() && c.implementsOrigin(impl, fn) {
			return f
		}
	}
	return nil
}

// implementsOrigin reports whether the method impl's receiver type implements the interface
// that declares m, comparing generic types by their declarations: openState[R] implements
// circuitState[R] when openState instantiated with circuitState's type parameters does.
func (c *checker) implementsOrigin(impl, m *types.Func) bool {
	recv := impl.Signature().Recv()
	iface, ok := types.Unalias(m.Origin().Signature().Recv().Type()).(*types.Named)
	if recv == nil || !ok {
		return false
	}
	t := recv.Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	named = named.Origin()
	var inst types.Type = named
	if tps := iface.TypeParams(); named.TypeParams().Len() > 0 {
		if tps.Len() != named.TypeParams().Len() {
			return false
		}
		args := make([]types.Type, tps.Len())
		for i := range args {
			args[i] = tps.At(i)
		}
		var err error
		if inst, err = types.Instantiate(nil, named, args, false); err != nil {
			return false
		}
	}
	if ptr {
		inst = types.NewPointer(inst)
	}
	it, ok := iface.Underlying().(*types.Interface)
	return ok && types.Implements(inst, it)
}

// storedSite returns a fact for a test's call that reads a stored draw (a method with the
// storedDraw fact) when an earlier call in the same loop pass, or in the function when no
// loop repeats it, makes the draw on the same variable: a random function called on it
// (breaker.open(exec)) or passed it, or the random call the variable is assigned from. It
// returns the call that draws too.
func (c *checker) storedSite(cur cursor, call *ast.CallExpr) (*randomFunc, *ast.CallExpr) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel || !isSample(c.typeOf(call)) {
		return nil, nil
	}
	stored := c.storedCall(call)
	v, _ := c.rootObj(sel.X).(*types.Var)
	if stored == nil || v == nil || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, nil
	}
	scope, _ := enclosingFunc(cur)
	if loop, _, ok := c.repeatingLoop(cur, call); ok {
		scope = loop
	}
	var drawer *ast.CallExpr
	for p := range scope.Preorder((*ast.CallExpr)(nil)) {
		r := p.Node().(*ast.CallExpr)
		if r.Pos() >= call.Pos() || drawer != nil {
			continue
		}
		if f, inTest := c.randomCallee(r); f != nil && !inTest && c.mentions(r, v) {
			drawer = r
		}
	}
	if drawer == nil {
		return nil, nil
	}
	return &randomFunc{Via: "the draw " + c.src(drawer.Fun) + " stores in " + stored.Field, Hops: 1}, drawer
}

// mentions reports whether a call acts on v: v is the root of its receiver or of one of its
// arguments, or the call makes the one value v is given.
func (c *checker) mentions(call *ast.CallExpr, v *types.Var) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.rootObj(sel.X) == types.Object(v) {
		return true
	}
	for _, a := range call.Args {
		if c.rootObj(a) == types.Object(v) {
			return true
		}
	}
	init := c.onlyAssignment(v)
	return init != nil && init.Pos() <= call.Pos() && call.End() <= init.End()
}

// closureSite returns a fact for a test's call of its own closure that returns a draw of the
// code under test: a random call, or a stored draw the closure makes and reads (next :=
// func() time.Duration { b.Next(id, now); return b.Get(id) }, client-go's per-item backoff
// test). Each call of the closure draws afresh, so the loop that calls it samples the draws.
func (c *checker) closureSite(call *ast.CallExpr) *randomFunc {
	v := c.localVar(call.Fun)
	lit, ok := ast.Unparen(c.onlyAssignment(v)).(*ast.FuncLit)
	if !ok || lit.Type.Results.NumFields() != 1 || !isSample(c.typeOf(call)) {
		return nil
	}
	var last *ast.ReturnStmt
	for _, st := range lit.Body.List {
		last, _ = st.(*ast.ReturnStmt)
	}
	if last == nil || len(last.Results) != 1 {
		return nil
	}
	e := ast.Unparen(last.Results[0])
	if init := c.onlyAssignment(c.localVar(e)); init != nil {
		e = ast.Unparen(init)
	}
	inner, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if f, inTest := c.randomCallee(inner); f != nil && !inTest {
		return &randomFunc{Via: "the closure " + v.Name() + " returns " + c.src(inner.Fun) + ", " + f.Via, Hops: f.Hops + 1}
	}
	cur, ok := c.insp.Root().FindNode(inner)
	if !ok {
		return nil
	}
	if f, drawer := c.storedSite(cur, inner); f != nil {
		_ = drawer
		return &randomFunc{Via: "the closure " + v.Name() + " returns " + c.src(inner.Fun) + ", " + f.Via, Hops: f.Hops + 1}
	}
	return nil
}
