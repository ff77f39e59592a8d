package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Calls through func values and interfaces. A jitter is often not called by name: a
// package-level variable or a struct field holds it (var jitterRand = rand.Float64, so that
// tests can replace it), an option returns a closure that draws, or a Backoff interface hides
// the implementation that jitters. These functions find the random function behind such a
// call.

// funcValues returns the values the package's non-test code gives to each func-typed
// package-level variable and struct field (declarations, assignments and composite
// literals), indexed once. A test that replaces one (jitterRand = fixed) does not change what
// the code draws by default.
func (c *checker) funcValues() map[*types.Var][]ast.Expr {
	if c.funcVals != nil {
		return c.funcVals
	}
	c.funcVals = map[*types.Var][]ast.Expr{}
	add := func(target ast.Expr, value ast.Expr) {
		v, ok := c.objOf(target).(*types.Var)
		if !ok || (!v.IsField() && v.Parent() != v.Pkg().Scope()) {
			return
		}
		if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc {
			c.funcVals[v] = append(c.funcVals[v], value)
		}
	}
	for file := range c.insp.Root().Children() { // the inspector skips the subtrees with none of these nodes
		if c.isTestFile(file.Node().Pos()) {
			continue
		}
		for cur := range file.Preorder((*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil)) {
			switch n := cur.Node().(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if len(n.Values) == len(n.Names) {
						add(id, n.Values[i])
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if len(n.Lhs) == len(n.Rhs) && n.Tok == token.ASSIGN {
						add(l, n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && v.IsField() {
						add(id, n.Value)
					}
				}
			}
		}
	}
	return c.funcVals
}

// randDefault returns the function of math/rand that a func value defaults to: a local
// variable given one value, or a package-level variable or struct field that the package's
// code gives only functions of math/rand (var jitterRand = rand.Float64).
func (c *checker) randDefault(e ast.Expr) (*types.Func, bool) {
	e = ast.Unparen(e)
	if fn, ok := c.objOf(e).(*types.Func); ok {
		return fn, fn.Pkg() != nil && isRandPkg(fn.Pkg().Path())
	}
	v, ok := c.objOf(e).(*types.Var)
	if !ok {
		return nil, false
	}
	if init := c.onlyAssignment(v); init != nil {
		return c.randDefault(init)
	}
	values := c.funcValues()[v]
	if len(values) == 0 {
		return nil, false
	}
	var first *types.Func
	for _, value := range values {
		fn, ok := c.objOf(ast.Unparen(value)).(*types.Func)
		if !ok || fn.Pkg() == nil || !isRandPkg(fn.Pkg().Path()) {
			return nil, false
		}
		first = fn
	}
	return first, true
}

// dynamicFact returns the fact of the random function that a call through a func value or
// an interface method reaches, and whether that function is declared in a test file (a
// helper of the tests, not the code under test). depth bounds the chase through variables.
func (c *checker) dynamicFact(fun ast.Expr, depth int) (*randomFunc, bool) {
	if depth > 4 {
		return nil, false
	}
	fun = ast.Unparen(fun)
	switch e := fun.(type) {
	case *ast.FuncLit:
		return c.litFact(e), c.isTestFile(e.Pos())
	case *ast.CallExpr: // WithJitter(0.5)(d): the func a random function returns
		if fn := typeutil.StaticCallee(c.pass.TypesInfo, e); fn != nil && returnsFunc(fn) {
			// gen.Int64Range(200, 100): constants that take a path of no draw make a func that draws nothing
			if f := c.randomFact(fn); f != nil && !c.quietCall(e, f) {
				return &randomFunc{Via: "the func " + fn.Name() + " returns", Hops: f.Hops, Text: bindShape(c, f.GenText, e)}, c.isTestFile(fn.Pos())
			}
		}
		return nil, false
	}
	switch o := c.objOf(fun).(type) {
	case *types.Func:
		if isInterfaceMethod(o) {
			if impl := c.concreteMethod(fun, o); impl != nil {
				return c.randomFact(impl), impl.Pkg() == c.pass.Pkg && c.isTestFile(impl.Pos())
			}
			if impl := c.constructedMethod(fun, o); impl != nil {
				// The constructor's one concrete type decides, random or not: heimdall's
				// NewRetrierFunc(f) returns the test's own func as a RetriableFunc, whose
				// NextInterval draws nothing though another Retriable does.
				f := c.randomFact(impl)
				return f, f != nil && impl.Pkg() == c.pass.Pkg && c.isTestFile(impl.Pos())
			}
			if f := c.importedConstructs(fun); f != nil {
				return f.Random[o.Name()], false // the same, by the fact of another package's constructor
			}
			if f, inTest := c.madeByRandom(fun); f != nil {
				return f, inTest
			}
			return c.interfaceFact(o)
		}
		return c.randomFact(o), o.Pkg() == c.pass.Pkg && c.isTestFile(o.Pos())
	case *types.Var:
		if init := c.onlyAssignment(o); init != nil {
			return c.dynamicFact(init, depth+1)
		}
		// f, err := nanoid.Standard(21): a constructor that can fail hands back its
		// generator as the first of (func() T, error); the func it returns is as random as
		// when it is the one result.
		if call, ok := ast.Unparen(c.firstOf(o)).(*ast.CallExpr); ok {
			return c.dynamicFact(call, depth+1)
		}
		for _, value := range c.localFuncValues(o) {
			if f, inTest := c.dynamicFact(value, depth+1); f != nil {
				return f, inTest
			}
		}
		for _, value := range c.funcValues()[o] {
			if f, inTest := c.dynamicFact(value, depth+1); f != nil {
				return f, inTest
			}
		}
	}
	return nil, false
}

// returnsFunc reports whether fn returns a func value.
func returnsFunc(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := range res.Len() {
		if _, ok := res.At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// litFact returns the fact of a function literal that draws, or calls a random function, as
// findRandomFuncs decided it with the package's functions (nil while it has not).
func (c *checker) litFact(lit *ast.FuncLit) *randomFunc { return c.litFacts[lit] }

// decideLit returns what the literal's body makes of it with the facts known so far: random
// when it draws, or when one of its calls is of a random function or literal (the nearest
// such call, by Hops). It asks no literal again: a literal's calls reach others only through
// c.litFacts, which findRandomFuncs grows to a fixpoint, so that a package of many closures
// that hand each other around (k8s.io/kube-openapi's JSON package) is decided in passes over
// them rather than by a search of every path through them, which did not end.
func (c *checker) decideLit(lit *ast.FuncLit) *randomFunc {
	d, ok := c.litDirect[lit]
	if !ok {
		d.via, d.calls = c.directRandomness(c.funcLits()[lit])
		if c.litDirect == nil {
			c.litDirect = map[*ast.FuncLit]directFact{}
		}
		c.litDirect[lit] = d
	}
	if d.via != "" {
		return &randomFunc{Via: "a func literal that calls " + d.via}
	}
	var best *randomFunc
	for _, call := range d.calls {
		if f := c.randomCall(call); f != nil && (best == nil || f.Hops+1 < best.Hops) {
			best = &randomFunc{Via: "a func literal that " + strings.TrimPrefix(f.Via, "a func literal that "), Hops: f.Hops + 1}
		}
	}
	return best
}

// directFact is what directRandomness answers for a function: what makes it random by
// itself, or "", and the calls it makes.
type directFact struct {
	via   string
	calls []*ast.CallExpr
}

// funcLits returns the cursors of the package's function literals, indexed once (a search
// from the root for every literal asked about walked the whole package each time).
func (c *checker) funcLits() map[*ast.FuncLit]cursor {
	if c.lits == nil {
		c.lits = map[*ast.FuncLit]cursor{}
		for cur := range c.insp.Root().Preorder((*ast.FuncLit)(nil)) {
			c.lits[cur.Node().(*ast.FuncLit)] = cur
		}
	}
	return c.lits
}

// isInterfaceMethod reports whether fn is a method of an interface.
func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// concreteMethod returns the method that a call of the interface method m on x reaches when
// x is a local variable given one value of a concrete type (var b Backoff = fake{}), or nil.
func (c *checker) concreteMethod(fun ast.Expr, m *types.Func) *types.Func {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v := c.localVar(sel.X)
	init := c.onlyAssignment(v)
	if init == nil {
		return nil
	}
	t := c.typeOf(init)
	if t == nil || types.IsInterface(t) {
		return nil
	}
	fn, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
	impl, _ := fn.(*types.Func)
	return impl
}

// constructedMethod returns the method that a call of the interface method m on x reaches
// when x is a local given one value, the result of a constructor of this package that
// returns one concrete type in every return (NewHashPartitioner's p := new(hashPartitioner);
// ...; return p), or of the func literal such a constructor returns
// (NewCustomHashPartitioner(fnv.New32a)("topic")); nil when that is not known. Its fact
// carries what the method's own body says, such as the arguments that take a path with no
// draw (a message with a key is hashed).
func (c *checker) constructedMethod(fun ast.Expr, m *types.Func) *types.Func {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	call, ok := ast.Unparen(c.onlyAssignment(c.localVar(sel.X))).(*ast.CallExpr)
	if !ok {
		return nil
	}
	var body *ast.BlockStmt
	if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil {
		if fd := c.declOf(fn); fd != nil {
			body = fd.Body
		}
	} else if inner, ok := ast.Unparen(call.Fun).(*ast.CallExpr); ok {
		if fn := typeutil.StaticCallee(c.pass.TypesInfo, inner); fn != nil {
			if fd := c.declOf(fn); fd != nil && fd.Body != nil && len(fd.Body.List) == 1 {
				if r, ok := fd.Body.List[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
					if lit, ok := ast.Unparen(r.Results[0]).(*ast.FuncLit); ok {
						body = lit.Body
					}
				}
			}
		}
	}
	t := c.returnedType(body)
	if t == nil {
		return nil
	}
	fn, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
	impl, _ := fn.(*types.Func)
	return impl
}

// returnedType returns the one concrete type of the first result of every return in body
// (those of its func literals aside), or nil.
func (c *checker) returnedType(body *ast.BlockStmt) types.Type {
	if body == nil {
		return nil
	}
	var t types.Type
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				ok = false
				return false
			}
			rt := c.typeOf(n.Results[0])
			switch {
			case rt == nil || types.IsInterface(rt):
				ok = false
			case t == nil:
				t = rt
			case !types.Identical(t, rt):
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return nil
	}
	return t
}

// madeByRandom returns a fact for a method call on a value that a random function returned
// as an interface (b := retry.WithJitter(j, next); b.Next()): the function's randomness is
// in the value it made, a func literal behind a method.
func (c *checker) madeByRandom(fun ast.Expr) (*randomFunc, bool) {
	call, fn := c.constructorOf(fun)
	if call == nil || fn == nil || !types.IsInterface(c.typeOf(call)) || isNamedError(c.typeOf(call)) {
		// err := faker.FakeData(&x): the error a random function returns is no value it
		// made of its draws; its message is as fixed as the code that wrote it
		return nil, false
	}
	f := c.randomFact(fn)
	if f == nil {
		return nil, false
	}
	return &randomFunc{Via: "the value " + fn.Name() + " returns", Hops: f.Hops, Bytes: f.Bytes, Counter: f.Counter}, fn.Pkg() == c.pass.Pkg && c.isTestFile(fn.Pos())
}

// interfaceFact returns the fact of the first random implementation of a method of an
// interface declared outside the standard library, among the named types that the non-test code of this package and of the packages it
// imports declares (a test's fake that draws is no code under test), and false: it is not
// declared in a test file.
func (c *checker) interfaceFact(m *types.Func) (*randomFunc, bool) {
	if m.Pkg() == nil || c.isStdPkg(m.Pkg()) {
		return nil, false // io.Writer's Write, hash.Hash's Sum: every module implements them
	}
	for _, impl := range c.implementations(m) {
		if impl.Pkg() == c.pass.Pkg && c.isTestFile(impl.Pos()) {
			continue
		}
		if f := c.randomFact(impl); f != nil {
			recv := impl.Signature().Recv().Type()
			if p, ok := recv.(*types.Pointer); ok {
				recv = p.Elem()
			}
			name := recv.(*types.Named).Obj().Name()
			return &randomFunc{Via: "its implementation " + name + "." + impl.Name() + ", which " + f.Via, Dist: f.Dist, Hops: f.Hops,
				Bytes: f.Bytes, Counter: f.Counter}, false
		}
	}
	return nil, false
}

// implementations returns the concrete methods that implement the interface method m: the
// methods of that name of the named types, in this package and the ones it imports (the
// standard library aside), whose value or pointer implements m's interface. It is computed
// once per method.
func (c *checker) implementations(m *types.Func) []*types.Func {
	if impls, ok := c.impls[m]; ok {
		return impls
	}
	iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
	var impls []*types.Func
	for _, tn := range c.concreteTypes() {
		if !ok {
			break
		}
		t := types.Type(tn.Type())
		if !mayHaveMethod(t, m.Name()) {
			continue
		}
		if fn, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name()); fn == nil {
			continue // no method of that name: Implements, which checks every method, need not be asked
		}
		if !types.Implements(t, iface) {
			t = types.NewPointer(t)
			if !types.Implements(t, iface) {
				continue
			}
		}
		if fn, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name()); fn != nil {
			if fn, ok := fn.(*types.Func); ok {
				impls = append(impls, fn)
			}
		}
	}
	if c.impls == nil {
		c.impls = map[*types.Func][]*types.Func{}
	}
	c.impls[m] = impls
	return impls
}

// mayHaveMethod reports whether the named type t, or a pointer to it, can have a method
// called name: false when it declares none and embeds nothing that could promote one. It
// spares LookupFieldOrMethod the types that plainly cannot implement a method: implementations
// asked it of every named type of the package and its imports for every interface method
// (miekg/dns alone has hundreds), a tenth of the analysis of memberlist's package.
func mayHaveMethod(t types.Type, name string) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return true // an alias: let LookupFieldOrMethod decide
	}
	for i := range n.NumMethods() {
		if n.Method(i).Name() == name {
			return true
		}
	}
	s, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false // only a struct's embedded fields promote methods
	}
	for i := range s.NumFields() {
		if s.Field(i).Embedded() {
			return true
		}
	}
	return false
}

// isStdPkg reports whether pkg is a package of the standard library (by where its first
// declaration is).
func (c *checker) isStdPkg(pkg *types.Package) bool {
	if pkg == c.pass.Pkg {
		return false
	}
	std, ok := c.stdPkgs[pkg]
	if !ok { // Scope.Names sorts every name of the package: once per package, not per call
		names := pkg.Scope().Names()
		std = len(names) == 0
		if !std {
			f := c.pass.Fset.File(pkg.Scope().Lookup(names[0]).Pos())
			std = f == nil || isStd(f.Name())
		}
		if c.stdPkgs == nil {
			c.stdPkgs = map[*types.Package]bool{}
		}
		c.stdPkgs[pkg] = std
	}
	return std
}

// concreteTypes returns the named non-interface types of this package and the ones it
// imports (the standard library aside), in the order of the packages and of their names,
// listed once for every interface method whose implementations are looked for.
func (c *checker) concreteTypes() []*types.TypeName {
	if c.concrete != nil {
		return *c.concrete
	}
	var out []*types.TypeName
	for _, pkg := range append([]*types.Package{c.pass.Pkg}, c.pass.Pkg.Imports()...) {
		if c.isStdPkg(pkg) {
			continue // the standard library holds no facts
		}
		for _, name := range pkg.Scope().Names() {
			if tn, isType := pkg.Scope().Lookup(name).(*types.TypeName); isType && !types.IsInterface(tn.Type()) {
				out = append(out, tn)
			}
		}
	}
	c.concrete = &out
	return out
}
