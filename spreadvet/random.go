package spreadvet

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A draw is a call that reads a random source: a function of math/rand or math/rand/v2, or a
// method of their *rand.Rand.
type draw struct {
	name   string // Float64, IntN, N, ...
	global bool   // a package function: the global source, which no test can seed
	bound  ast.Expr
	unit   bool // a value in [0, 1): Float64, Float32
}

// drawNames are the functions and methods that return a random number (or a random order:
// Perm, Shuffle); bounded ones take their exclusive upper bound as the last argument.
var drawNames = map[string]bool{
	"Float64": false, "Float32": false, "Int": false, "Int31": false, "Int32": false,
	"Int63": false, "Int64": false, "Uint32": false, "Uint64": false, "Uint": false,
	"NormFloat64": false, "ExpFloat64": false, "Perm": false, "Shuffle": false,
	"Intn": true, "IntN": true, "Int31n": true, "Int32N": true, "Int63n": true,
	"Int64N": true, "Uint32N": true, "Uint64N": true, "UintN": true, "N": true,
}

// isRandPkg reports whether path is math/rand or math/rand/v2.
func isRandPkg(path string) bool { return path == "math/rand" || path == "math/rand/v2" }

// drawOf returns the draw that call makes, if it makes one: a call of a function of
// math/rand, or of a func value that defaults to one (var jitterRand = rand.Float64).
//
// The answer depends on the syntax, the types and the assignments alone, and every walk of a
// function asks it of each call (directRandomness, directShuffle, the test checkers): it is
// kept per call.
func (c *checker) drawOf(call *ast.CallExpr) (draw, bool) {
	if r, ok := c.drawn[call]; ok {
		return r.d, r.ok
	}
	d, ok := c.findDraw(call)
	if c.drawn == nil {
		c.drawn = map[*ast.CallExpr]drawAnswer{}
	}
	c.drawn[call] = drawAnswer{d, ok}
	return d, ok
}

// drawAnswer is what drawOf answers for a call.
type drawAnswer struct {
	d  draw
	ok bool
}

// findDraw is drawOf, without keeping the answer.
func (c *checker) findDraw(call *ast.CallExpr) (draw, bool) {
	fn, ok := c.randDefault(call.Fun)
	if !ok {
		fn, ok = c.randLikeMethod(call)
	}
	if !ok {
		return draw{}, false
	}
	bounded, ok := drawNames[fn.Name()]
	if !ok {
		return draw{}, false
	}
	d := draw{name: fn.Name(), global: fn.Signature().Recv() == nil, unit: fn.Name() == "Float64" || fn.Name() == "Float32"}
	if bounded && len(call.Args) > 0 {
		d.bound = call.Args[len(call.Args)-1]
	}
	return d, true
}

// randLikeMethod returns the method a call makes on an interface of random sources that a
// module declares so that a *rand.Rand can be injected (type Random interface { Float64()
// float64 }): every method of the interface is one of *rand.Rand's draws or Seed.
func (c *checker) randLikeMethod(call *ast.CallExpr) (*types.Func, bool) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || !isInterfaceMethod(fn) {
		return nil, false
	}
	if _, isDraw := drawNames[fn.Name()]; !isDraw {
		return nil, false
	}
	iface := fn.Signature().Recv().Type().Underlying().(*types.Interface)
	for m := range iface.Methods() {
		if _, isDraw := drawNames[m.Name()]; !isDraw && m.Name() != "Seed" {
			return nil, false
		}
	}
	return fn, true
}

// isTimeFunc reports whether call calls the function or method name of package time.
func (c *checker) isTimeFunc(call *ast.CallExpr, name string) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" && fn.Name() == name
}

// isNow reports whether e reads the wall clock: time.Now(), or a method Now() that returns a
// time.Time (an injected clock), or a local variable assigned once from one of these.
func (c *checker) isNow(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if c.isTimeFunc(e, "Now") {
			return true
		}
		sel, ok := e.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Now" && len(e.Args) == 0 && isTimeTime(c.typeOf(e))
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.ObjectOf(e).(*types.Var)
		if !ok || v.IsField() {
			return false
		}
		init := c.onlyAssignment(v)
		return init != nil && c.isNow(init)
	}
	return false
}

// isTimeTime reports whether t is time.Time.
func isTimeTime(t types.Type) bool { return isNamed(t, "time", "Time") }

// isNamed reports whether t is the named type pkg.name.
func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// clockReading returns the method of time.Time that e calls on a reading of the wall clock
// to get a number (UnixNano, Unix, UnixMilli, UnixMicro, Nanosecond), seen through
// conversions.
func (c *checker) clockReading(e ast.Expr) (string, bool) {
	e = c.stripConversions(e)
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !isTimeTime(c.typeOf(sel.X)) || !c.isNow(sel.X) {
		return "", false
	}
	switch sel.Sel.Name {
	case "UnixNano", "Unix", "UnixMilli", "UnixMicro", "Nanosecond":
		return sel.Sel.Name, true
	}
	return "", false
}

// stripConversions removes parentheses and conversions to numeric types.
func (c *checker) stripConversions(e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !c.isConversion(call) {
			return e
		}
		e = call.Args[0]
	}
}

// isConversion reports whether call converts to a numeric type.
func (c *checker) isConversion(call *ast.CallExpr) bool {
	tv, ok := c.pass.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// enclosingFunc returns the innermost FuncDecl or FuncLit around cur.
func enclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for fn := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return fn, true
	}
	return inspector.Cursor{}, false
}

// pinned reports whether a call of a random function is handed a source seeded with
// constants (rand.New(rand.NewSource(0)), rand.New(rand.NewPCG(1, 2)),
// rand.NewChaCha8([32]byte{})), directly or through a local given one value: it draws the same
// numbers in every run, so a test's verdict on them is no matter of chance (libp2p's
// TestFullJitter counts FullJitter(d, 0, 100, rng) into a histogram with a typed limit, rng
// seeded with 0). Whether a constant in place of the code's draw passes the test is another
// question, the blind-test rule's, which does not ask this.
func (c *checker) pinned(call *ast.CallExpr) bool {
	for _, arg := range call.Args {
		if c.constantSeeded(arg, 0) {
			return true
		}
	}
	return false
}

// constantSeeded reports whether e is a source of math/rand or math/rand/v2, or a *rand.Rand
// made from one, seeded with constants, directly or through locals given one value.
func (c *checker) constantSeeded(e ast.Expr, depth int) bool {
	e = ast.Unparen(e)
	if v := c.localVar(e); v != nil && depth < 4 {
		if init := c.onlyAssignment(v); init != nil {
			return c.constantSeeded(init, depth+1)
		}
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil || !isRandPkg(fn.Pkg().Path()) {
		return false
	}
	switch fn.Name() {
	case "New":
		return len(call.Args) == 1 && depth < 4 && c.constantSeeded(call.Args[0], depth+1)
	case "NewSource", "NewPCG", "NewChaCha8":
		for _, a := range call.Args {
			if !c.constantValue(a) {
				return false
			}
		}
		return len(call.Args) > 0
	}
	return false
}

// constantValue reports whether e is a constant, or a composite literal of constants (a
// ChaCha8 seed, [32]byte{1, 2}).
func (c *checker) constantValue(e ast.Expr) bool {
	e = ast.Unparen(e)
	if c.pass.TypesInfo.Types[e].Value != nil {
		return true
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		if !c.constantValue(el) {
			return false
		}
	}
	return true
}
