package spreadvet

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"
)

// spreadPath is the package whose checks make a test of random output sound.
const spreadPath = "github.com/spreadcheck/spreadcheck/spread"

// A drawSite is a call to a random function in a test: repeated by a loop, or one of a few
// calls with no loop.
type drawSite struct {
	call   *ast.CallExpr
	fact   *randomFunc
	loop   cursor        // the loop, or the function that holds a call with no loop
	n      int           // the loop's iteration count (the number of such calls with no loop), 0 when it is not a constant
	varies string        // a loop variable the call reads, when its argument changes on each pass
	once   bool          // no loop repeats the call
	drawer *ast.CallExpr // the earlier call that makes the draw this call reads, when it reads a stored one
	inner  bool          // the call is of the test's own closure, which draws (fact.Via says how)
}

// testFlow follows the values a test draws from random functions to what the test does with
// them: bounds checks, exact comparisons, sums, counts of distinct values.
type testFlow struct {
	c       *checker
	fn      cursor // the test function
	sites   []*drawSite
	once    []*drawSite // every draw with no loop, when the test has no loop that draws
	bounds  []ast.Node  // comparisons of single draws with a bound
	breaker string      // why the test is not blind (a use other than bounds), or ""
	spread  bool        // the test hands its draws to package spread
	// tolerated is set when the test's mean was reported as a hand-sized tolerance, whose fix
	// is the blind-test finding's: one finding says it.
	tolerated bool
	seen      map[types.Object]bool
	sums      map[types.Object]*drawSite // variables that add up draws
	lens      []lenUse                   // len(collection) in the test
	slices    map[types.Object]*drawSite // slices whose elements are draws
	collects  map[types.Object]*drawSite // every collection of draws
}

// A lenUse is len(C) of a collection of draws.
type lenUse struct {
	call *ast.CallExpr
	cur  cursor
	site *drawSite
}

func (c *checker) newFlow(fn cursor) *testFlow {
	return &testFlow{c: c, fn: fn, seen: map[types.Object]bool{}, sums: map[types.Object]*drawSite{},
		slices: map[types.Object]*drawSite{}, collects: map[types.Object]*drawSite{}}
}

// breaks records the first reason the test is not blind.
func (f *testFlow) breaks(why string) {
	if f.breaker == "" {
		f.breaker = why
	}
}

// findSites finds the calls of random functions with numeric results in a test: those a
// loop repeats (with the same arguments or ones that change on each pass), and those that
// no loop repeats, of functions that draw themselves or call one that does (a function
// further from its draw, called once, is more often tested for something else).
func (f *testFlow) findSites() {
	var once []*drawSite
	for cur := range f.fn.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if f.c.isSpreadCheck(call) {
			f.spread = true
			continue
		}
		fact, inTest := f.c.randomCallee(call)
		var drawer *ast.CallExpr
		if fact == nil {
			fact, drawer = f.c.storedSite(cur, call)
		}
		inner := false
		if fact == nil || inTest {
			fact, inTest, drawer = f.c.closureSite(call), false, nil
			inner = fact != nil
		}
		if fact == nil || !isSample(f.c.typeOf(call)) || inTest {
			continue
		}
		loop, varies, ok := f.c.repeatingLoop(cur, call)
		if drawer != nil {
			// One read of one stored draw is more often a test of a fixed configuration (a
			// delay func, no jitter) than of the draw: only a loop that makes and reads the
			// draw again and again samples it. The variable it makes on each pass is no
			// argument that changes.
			if !ok {
				continue
			}
			varies = ""
		}
		if !ok {
			if fn, ok := enclosingFunc(cur); ok && fact.Hops <= 1 {
				once = append(once, &drawSite{call: call, fact: fact, loop: fn, once: true, inner: inner})
			}
			continue
		}
		f.sites = append(f.sites, &drawSite{call: call, fact: fact, loop: loop, n: f.c.loopCount(loop), varies: varies, drawer: drawer, inner: inner})
	}
	if len(f.sites) == 0 {
		for _, s := range once {
			s.n = len(once)
		}
		f.once, f.sites = once, once
	}
}

// isSpreadCheck reports whether call calls a function of package spread that looks at a
// sample: anything but Rand and ReplayCommand, which only seed and replay (a test seeded by
// spread.Rand that checks only bounds is still blind).
func (c *checker) isSpreadCheck(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == spreadPath && fn.Name() != "Rand" && fn.Name() != "ReplayCommand"
}

// repeatingLoop returns the innermost loop around cur, in the same function or around a
// subtest's function (t.Run), and the first of its variables the call reads, if it reads one:
// the loop draws the same thing again and again, or with an argument that changes on each
// pass (f(n) for n := 0; n < 10; n++).
func (c *checker) repeatingLoop(cur cursor, call *ast.CallExpr) (loop cursor, varies string, ok bool) {
	for p := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if p.Node() == cur.Node() {
			continue
		}
		switch p.Node().(type) {
		case *ast.FuncDecl:
			return cursor{}, "", false
		case *ast.FuncLit:
			if !c.isSubtest(p) {
				return cursor{}, "", false
			}
			continue
		}
		vars := c.loopVars(p.Node())
		ast.Inspect(call, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && vars[c.pass.TypesInfo.Uses[id]] {
				varies = id.Name
			}
			return varies == ""
		})
		return p, varies, true
	}
	return cursor{}, "", false
}

// isSubtest reports whether the function literal at lit is the function of a subtest:
// t.Run(name, func(t *testing.T) {...}).
func (c *checker) isSubtest(lit cursor) bool {
	call, ok := lit.Parent().Node().(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Name() == "Run" && fn.Pkg() != nil && fn.Pkg().Path() == "testing"
}

// loopVars returns the variables a loop declares or assigns in its body.
func (c *checker) loopVars(loop ast.Node) map[types.Object]bool {
	vars := map[types.Object]bool{}
	ast.Inspect(loop, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if o := c.objOf(l); o != nil {
					vars[o] = true
				}
			}
		case *ast.IncDecStmt:
			if o := c.objOf(n.X); o != nil {
				vars[o] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil {
					vars[c.objOf(e)] = true
				}
			}
		}
		return true
	})
	return vars
}

// loopCount returns the number of iterations of "for i := 0; i < N; i++" and "for range N"
// with N constant, else 0.
func (c *checker) loopCount(loop cursor) int {
	switch l := loop.Node().(type) {
	case *ast.RangeStmt:
		if isNumeric(c.typeOf(l.X)) {
			return int(c.countValue(l.X))
		}
	case *ast.ForStmt:
		init, ok := l.Init.(*ast.AssignStmt)
		cond, ok2 := l.Cond.(*ast.BinaryExpr)
		post, ok3 := l.Post.(*ast.IncDecStmt)
		if !ok || !ok2 || !ok3 || post.Tok != token.INC || len(init.Rhs) != 1 {
			return 0
		}
		if tv := c.pass.TypesInfo.Types[init.Rhs[0]]; tv.Value == nil {
			return 0
		}
		from := int(c.constValue(init.Rhs[0])) // for x := 1; x < 128; x++: 127 passes
		switch n := int(c.countValue(cond.Y)); cond.Op {
		case token.LSS:
			return max(n-from, 0)
		case token.LEQ:
			return max(n-from+1, 0)
		}
	}
	return 0
}

// countValue returns the value of a loop's bound: a constant, or a local given one constant
// and nothing else (tries := 500_000; for i := 0; i < tries; i++), else 0.
func (c *checker) countValue(e ast.Expr) float64 {
	if v := c.localVar(e); v != nil {
		if init := c.onlyAssignment(v); init != nil {
			return c.constValue(init)
		}
	}
	return c.constValue(e)
}

// use follows one value drawn at site (the expression at cur) up the syntax tree.
func (f *testFlow) use(cur cursor, site *drawSite) {
	for {
		p := cur.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr, *ast.UnaryExpr:
			cur = p
			continue
		case *ast.CallExpr:
			if f.callUse(p, pn, cur) {
				cur = p
				continue
			}
		case *ast.SelectorExpr: // d.Seconds(), d.Abs(); at.Sub(before), at.Before(lo)
			call, ok := p.Parent().Node().(*ast.CallExpr)
			if ok && call.Fun == pn && len(call.Args) == 0 {
				cur = p.Parent()
				continue
			}
			if ok && call.Fun == pn && len(call.Args) == 1 && isTimeTime(f.c.typeOf(pn.X)) {
				switch pn.Sel.Name {
				case "Sub": // a span from the drawn time, as d - x
					if !f.readsDraws(call.Args[0]) {
						cur = p.Parent()
						continue
					}
				case "Before", "After", "Compare": // an order, as d < x
					if f.c.counts(p.Parent()) {
						f.breaks("counted where " + f.c.src(call) + " (a coverage or a proportion)")
						return
					}
					f.bounds = append(f.bounds, call)
					return
				}
			}
			f.breaks("used as " + f.c.src(pn))
		case *ast.BinaryExpr:
			if f.binaryUse(pn, cur) {
				cur = p
				continue
			}
		case *ast.AssignStmt:
			if pn.Tok == token.ASSIGN && slices.Contains(pn.Lhs, cur.Node().(ast.Expr)) {
				return // slp = r.calcSleep(2): a store into the variable, not a read of it
			}
			f.assignUse(p, pn, cur, site)
		case *ast.IndexExpr:
			f.indexUse(p, pn, cur, site)
		case *ast.ValueSpec: // var d = f()
			f.specUse(pn, cur, site)
		case *ast.SendStmt:
			f.sendUse(pn, cur, site)
		case *ast.ExprStmt:
		default:
			f.breaks("used in " + strings.TrimPrefix(f.c.src(pn), "*ast."))
		}
		return
	}
}

// callUse classifies a draw passed to a call; true means the call transforms it (a
// conversion, math.Abs) and the walk goes on.
func (f *testFlow) callUse(p cursor, call *ast.CallExpr, arg cursor) bool {
	if f.c.isConversion(call) {
		return true
	}
	fn, _ := typeutil.Callee(f.c.pass.TypesInfo, call).(*types.Func)
	switch {
	case fn == nil:
		if b, ok := typeutil.Callee(f.c.pass.TypesInfo, call).(*types.Builtin); ok && b.Name() == "append" {
			f.appendUse(p, call, arg)
			return false
		}
		if f.c.isLocalBoundsHelper(call, arg.Node()) {
			f.bounds = append(f.bounds, call)
			return false
		}
		f.breaks("passed to " + f.c.src(call.Fun))
	case fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "Abs":
		return true
	case isTimeAdd(fn, call, arg.Node()):
		return true
	case isTimeOrder(fn) && !f.readsDraws(recvOf(call)):
		f.bounds = append(f.bounds, call) // lo.Before(at): an order, as x < d
	case isGomegaExpect(fn) && len(call.Args) > 0 && call.Args[0] == arg.Node():
		if m := f.c.gomegaMatcher(p); m != nil && isGomegaBound(f.c, m) {
			f.bounds = append(f.bounds, p.Parent().Parent().Node().(*ast.CallExpr))
			return false
		}
		f.breaks("passed to " + f.c.src(call.Fun))
	case isTestifyEqual(fn) && len(call.Args) >= 3 && f.sentinelBranch(p, otherArg(call, arg.Node())):
		// assert.Equal(t, done, next) where the test expects the sentinel: no check of a draw
	case f.c.feedsTestFake(fn, call, arg.Node()):
		// clock.moveClock(next): the test's own fake is moved by the draw, which checks nothing
	case isReporting(fn) || isMessageArg(fn, call, arg.Node()):
	case isBoundsHelper(fn) || f.c.isOwnBoundsHelper(fn, call, arg.Node()) || f.c.isGocheckBound(fn, call, arg.Node()):
		f.bounds = append(f.bounds, call)
	case fn.Pkg() != nil && fn.Pkg().Path() == spreadPath:
		f.spread = true
	case isFormat(fn) && len(call.Args) > 0 && call.Args[0] == arg.Node() && f.c.shapedOnly(p):
		// strconv.FormatFloat(d, 'f', 3, 64) checked for its length only: the string tells
		// no more of the draw's spread than the bounds already checked do.
	default:
		f.breaks("passed to " + f.c.src(call.Fun))
	}
	return false
}

// recvOf returns the receiver of a method call (x of x.M(...)), or the call itself when it
// has none to read.
func recvOf(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return call
}

// isTimeOrder reports whether fn is time.Time's Before, After or Compare.
func isTimeOrder(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && isTimeTime(recv.Type()) && (fn.Name() == "Before" || fn.Name() == "After" || fn.Name() == "Compare")
}

// gomegaPaths are the import paths of gomega and of bsm's fork of it (go-redis's), whose
// Expect(x).To(matcher) is an assertion.
var gomegaPaths = map[string]bool{"github.com/onsi/gomega": true, "github.com/bsm/gomega": true}

// isGomegaExpect reports whether fn is gomega's Expect or Ω, or a Gomega's Expect method
// (g := NewWithT(t); g.Expect(x)).
func isGomegaExpect(fn *types.Func) bool {
	return fn.Pkg() != nil && gomegaPaths[fn.Pkg().Path()] && (fn.Name() == "Expect" || fn.Name() == "Ω")
}

// gomegaMatcher returns the matcher of the assertion made on the Expect call at expect
// (Expect(x).To(m), .Should(m), .ToNot(m), ...), or nil.
func (c *checker) gomegaMatcher(expect cursor) *ast.CallExpr {
	sel, ok := expect.Parent().Node().(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	to, ok := expect.Parent().Parent().Node().(*ast.CallExpr)
	if !ok || to.Fun != sel || len(to.Args) == 0 {
		return nil
	}
	switch sel.Sel.Name {
	case "To", "ToNot", "NotTo", "Should", "ShouldNot":
		m, _ := ast.Unparen(to.Args[0]).(*ast.CallExpr)
		return m
	}
	return nil
}

// isGomegaBound reports whether a gomega matcher checks a value against a bound:
// BeNumerically or BeTemporally with an order ("<", ">=") or a threshold ("~"); "==" compares
// exactly.
func isGomegaBound(c *checker, m *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, m).(*types.Func)
	if !ok || fn.Pkg() == nil || !gomegaPaths[fn.Pkg().Path()] || fn.Name() != "BeNumerically" && fn.Name() != "BeTemporally" || len(m.Args) == 0 {
		return false
	}
	tv := c.pass.TypesInfo.Types[m.Args[0]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	switch constant.StringVal(tv.Value) {
	case "<", "<=", ">", ">=", "~":
		return true
	}
	return false
}

// isReporting reports whether fn only reports or formats: t.Errorf, t.Fail, fmt.Sprintf,
// log.Printf.
func isReporting(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "fmt", "log":
		return true
	case "testing":
		switch fn.Name() {
		case "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow", "Log", "Logf", "Skip", "Skipf":
			return true
		}
	}
	return false
}

// isBoundsHelper reports whether fn is an assertion helper of testify that checks a value
// against a bound (gotest.tools' assert.Assert and quicktest's qt.IsTrue take a comparison,
// which the walk sees before the call).
func isBoundsHelper(fn *types.Func) bool {
	if fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") {
		return false
	}
	switch strings.TrimSuffix(fn.Name(), "f") {
	case "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "Positive", "Negative", "WithinRange", "WithinDuration", "InDelta", "InEpsilon":
		return true
	}
	return false
}

// isSample reports whether a random function's result can be a sample a test checks: a
// number, a time.Time, or a tuple whose first value is one (val, stop := b.Next()).
func isSample(t types.Type) bool {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		t = tuple.At(0).Type()
	}
	return isNumeric(t) || isTimeTime(t)
}

// isMessageArg reports whether arg is passed in the variadic message arguments of an
// assertion (testify's msgAndArgs ...any, gotest.tools', quicktest's): formatted into the
// failure message, not checked.
func isMessageArg(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	sig := fn.Signature()
	if !sig.Variadic() || fn.Pkg() == nil || !isAssertPkg(fn.Pkg().Path()) {
		return false
	}
	last := sig.Params().Len() - 1
	for i, a := range call.Args {
		if a == arg {
			return i >= last
		}
	}
	return false
}

// isAssertPkg reports whether path is a package of assertion helpers.
func isAssertPkg(path string) bool {
	return strings.HasPrefix(path, "github.com/stretchr/testify/") || strings.HasPrefix(path, "gotest.tools/") ||
		strings.HasPrefix(path, "github.com/frankban/quicktest") || strings.HasPrefix(path, "github.com/go-quicktest/qt") ||
		gocheckPaths[path]
}

// isTimeAdd reports whether call is t.Add(d) of a time.Time with the draw as d: a time a
// draw away, which WithinDuration then bounds.
func isTimeAdd(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	recv := fn.Signature().Recv()
	return recv != nil && isTimeTime(recv.Type()) && fn.Name() == "Add" && len(call.Args) == 1 && call.Args[0] == arg
}

// isOwnBoundsHelper reports whether fn is a function of this package that does nothing with
// the parameter that arg is passed as but compare it with bounds and report it: between(d,
// lo, hi) bool, or checkRange(t, d, lo, hi).
func (c *checker) isOwnBoundsHelper(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	decl := c.declOf(fn)
	if decl == nil || decl.Body == nil {
		return false
	}
	return c.boundsOnly(decl.Body, fn.Signature(), call, arg)
}

// isLocalBoundsHelper is isOwnBoundsHelper for a func literal the test keeps in a local
// variable (requireWithinJitter := func(t testing.TB, want, got time.Duration) { ... }, as
// azcore's TestCalcDelay does).
func (c *checker) isLocalBoundsHelper(call *ast.CallExpr, arg ast.Node) bool {
	v, ok := c.objOf(call.Fun).(*types.Var)
	if !ok {
		return false
	}
	lit, ok := ast.Unparen(c.onlyAssignment(v)).(*ast.FuncLit)
	if !ok {
		return false
	}
	sig, ok := c.typeOf(lit).(*types.Signature)
	return ok && c.boundsOnly(lit.Body, sig, call, arg)
}

// feedsTestFake reports whether fn is a function or method of the package's test files that
// only adds the parameter arg is passed as to a time or a number it keeps (temporal's
// TestClock.moveClock: c.currentTime = c.currentTime.Add(d)): the draw moves the test's fake,
// and nothing there checks it.
func (c *checker) feedsTestFake(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	decl := c.declOf(fn)
	return decl != nil && decl.Body != nil && c.isTestFile(decl.Pos()) && c.paramUsedOnly(decl.Body, fn.Signature(), call, arg, c.addedOnly)
}

// addedOnly reports whether the use of a parameter at id only adds it to something the body
// then assigns: t.Add(d), n + d, a conversion, up to the right side of an assignment.
func (c *checker) addedOnly(body ast.Node, id *ast.Ident) bool {
	path, _ := astutil.PathEnclosingInterval(c.fileOf(body.Pos()), id.Pos(), id.End())
	for k := 1; k < len(path); k++ {
		switch p := path[k].(type) {
		case *ast.ParenExpr:
		case *ast.BinaryExpr:
			if p.Op != token.ADD && p.Op != token.SUB {
				return false
			}
		case *ast.CallExpr:
			if c.isConversion(p) {
				continue
			}
			fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func)
			if !ok || !isTimeAdd(fn, p, path[k-1]) {
				return false
			}
		case *ast.AssignStmt:
			return slices.Contains(p.Rhs, path[k-1].(ast.Expr))
		default:
			return false
		}
	}
	return false
}

// boundsOnly reports whether body, the body of a function of signature sig, does nothing with
// the parameter that arg is passed as in call but compare it with bounds and report it.
func (c *checker) boundsOnly(body *ast.BlockStmt, sig *types.Signature, call *ast.CallExpr, arg ast.Node) bool {
	return c.paramUsedOnly(body, sig, call, arg, c.boundsUse)
}

// paramUsedOnly reports whether body, the body of a function of signature sig, uses the
// parameter that arg is passed as in call (not a variadic one), and each use meets ok.
func (c *checker) paramUsedOnly(body *ast.BlockStmt, sig *types.Signature, call *ast.CallExpr, arg ast.Node, ok func(body ast.Node, id *ast.Ident) bool) bool {
	i := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == arg })
	if i < 0 || i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
		return false
	}
	param := sig.Params().At(i)
	only, used := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || c.pass.TypesInfo.Uses[id] != param {
			return only
		}
		used = true
		only = ok(body, id)
		return only
	})
	return used && only
}

// boundsUse reports whether the use of a helper's parameter at id, in the helper's body,
// compares it with a bound or reports it.
func (c *checker) boundsUse(body ast.Node, id *ast.Ident) bool {
	path, _ := astutil.PathEnclosingInterval(c.fileOf(body.Pos()), id.Pos(), id.End())
	for k := 1; k < len(path); k++ {
		switch p := path[k].(type) {
		case *ast.ParenExpr:
			continue
		case *ast.SelectorExpr: // actual.Seconds(): a method with no arguments, then on
			if k+1 < len(path) {
				if call, ok := path[k+1].(*ast.CallExpr); ok && call.Fun == p && len(call.Args) == 0 {
					k++
					continue
				}
			}
			return false
		case *ast.CallExpr:
			if c.isConversion(p) {
				continue
			}
			fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func)
			return ok && (isReporting(fn) || isMessageArg(fn, p, path[k-1]))
		case *ast.BinaryExpr:
			switch p.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				return true
			case token.EQL, token.NEQ: // cur == maxDuration beside bounds: a cap, see orBound
				return orBoundIn(path[k:], id.Name)
			case token.QUO, token.MUL, token.ADD, token.SUB:
				// value / time.Millisecond: a scaled value, bounded if what is made of it is
				if c.pass.TypesInfo.Types[otherSide(p, path[k-1])].Value != nil {
					continue
				}
			}
		case *ast.AssignStmt: // x := int(value / time.Millisecond); return a <= x && x <= b
			v := c.localVar(p.Lhs[0])
			if len(p.Lhs) != 1 || len(p.Rhs) != 1 || p.Tok != token.DEFINE || v == nil || c.assignCount(v) != 1 {
				return false
			}
			used := false
			for _, use := range c.identsOf(body, v) {
				if !c.boundsUse(body, use) {
					return false
				}
				used = true
			}
			return used
		}
		return false
	}
	return false
}

// otherSide returns the operand of b that is not side.
func otherSide(b *ast.BinaryExpr, side ast.Node) ast.Expr {
	if b.X == side {
		return b.Y
	}
	return b.X
}

// identsOf returns the identifiers in n that use v.
func (c *checker) identsOf(n ast.Node, v *types.Var) []*ast.Ident {
	var ids []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
			ids = append(ids, id)
		}
		return true
	})
	return ids
}

// orBoundIn reports whether path[0], a comparison x == v (x != v), is joined by || (&&) to
// order comparisons of x, path going up from it: a helper's bounds with a cap or a sentinel
// beside them.
func orBoundIn(path []ast.Node, x string) bool {
	e := path[0].(*ast.BinaryExpr)
	if text(ast.Unparen(e.X)) != x && text(ast.Unparen(e.Y)) != x {
		return false
	}
	join := token.LOR
	if e.Op == token.NEQ {
		join = token.LAND
	}
	for k := 1; k < len(path); k++ {
		if _, ok := path[k].(*ast.ParenExpr); ok {
			continue
		}
		b, ok := path[k].(*ast.BinaryExpr)
		if !ok || b.Op != join {
			return false
		}
		other := b.X
		if b.X.Pos() <= e.Pos() && e.End() <= b.X.End() {
			other = b.Y
		}
		return ordersOf(other, x)
	}
	return false
}

// declOf returns the declaration of a function of this package, or nil.
func (c *checker) declOf(fn *types.Func) *ast.FuncDecl {
	if fn.Pkg() != c.pass.Pkg {
		return nil
	}
	if c.decls == nil {
		c.decls = map[*types.Func]*ast.FuncDecl{}
		for cur := range c.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
			fd := cur.Node().(*ast.FuncDecl)
			if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				c.decls[obj] = fd
			}
		}
	}
	return c.decls[fn.Origin()]
}

// binaryUse classifies a draw in a binary expression; true means arithmetic with something
// that is not a draw (d - base), and the walk goes on.
func (f *testFlow) binaryUse(e *ast.BinaryExpr, cur cursor) bool {
	switch e.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if f.c.counts(cur.Parent()) {
			f.breaks("counted where " + f.c.src(e) + " (a coverage or a proportion)")
			return false
		}
		f.bounds = append(f.bounds, e)
		return false
	case token.EQL, token.NEQ:
		other := e.Y
		if cur.Node() == e.Y {
			other = e.X
		}
		if f.sentinelBranch(cur.Parent(), other) {
			return false // next == done where the test expects the sentinel: no check of a draw
		}
		if f.orBound(e, cur) {
			f.bounds = append(f.bounds, e)
			return false
		}
		f.breaks("compared exactly (" + f.c.src(e) + ")")
		return false
	case token.ADD, token.SUB, token.MUL, token.QUO:
		other := e.Y
		if cur.Node() == e.Y {
			other = e.X
		}
		if f.readsDraws(other) {
			f.breaks("combined with another draw (" + f.c.src(e) + ")")
			return false
		}
		return true
	}
	f.breaks("used in " + f.c.src(e))
	return false
}

// isTestifyEqual reports whether fn is testify's Equal (assert or require), t first.
func isTestifyEqual(fn *types.Func) bool {
	return fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") && strings.TrimSuffix(fn.Name(), "f") == "Equal"
}

// otherArg returns the argument of an equality assertion (t, want, got) that arg is not.
func otherArg(call *ast.CallExpr, arg ast.Node) ast.Expr {
	if call.Args[1] == arg {
		return call.Args[2]
	}
	return call.Args[1]
}

// sentinelBranch reports whether the exact check at cur compares the draw with a constant
// that the branch it is in was chosen by (if expected == done { assert.Equal(t, done, next) }
// else { ...bounds... }, as temporal's TestDefaultPublishRetryPolicy checks its retry
// policy): the test expects the code's sentinel there, a value no draw gives, and checks the
// draws in the other branch.
func (f *testFlow) sentinelBranch(cur cursor, want ast.Expr) bool {
	if want == nil || f.c.pass.TypesInfo.Types[want].Value == nil {
		return false
	}
	for p := cur; p.Node() != f.fn.Node(); p = p.Parent() {
		ifs, ok := p.Parent().Node().(*ast.IfStmt)
		if !ok || ifs.Body != p.Node() {
			continue
		}
		for _, c := range conjuncts(ifs.Cond) { // the branch is taken only when each holds
			cond, ok := ast.Unparen(c).(*ast.BinaryExpr)
			if ok && cond.Op == token.EQL && (text(cond.X) == text(want) || text(cond.Y) == text(want)) && !f.readsDraws(cond) {
				return true
			}
		}
	}
	return false
}

// orBound reports whether the equality e, of the draw at cur, is an alternative beside an
// order of the same draw, next > 0 || next == done (or, negated, next <= 0 && next != done):
// the draw may be a sentinel or lie in a range, which a constant in the range meets, as
// temporal's TestNoMaxAttempts checks each retry delay.
func (f *testFlow) orBound(e *ast.BinaryExpr, cur cursor) bool {
	join := token.LOR
	if e.Op == token.NEQ {
		join = token.LAND
	}
	p := cur.Parent().Parent() // cur's parent is e
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		p = p.Parent()
	}
	b, ok := p.Node().(*ast.BinaryExpr)
	if !ok || b.Op != join {
		return false
	}
	other := b.X
	if ast.Unparen(b.X) == e {
		other = b.Y
	}
	return ordersOf(other, text(ast.Unparen(cur.Node().(ast.Expr))))
}

// ordersOf reports whether e is an order comparison of x (x > 0), or a condition of them
// joined by && and || ((x > low && x <= high): client-go's assert), each an order comparison
// and one at least of x.
func ordersOf(e ast.Expr, x string) bool {
	only, of := orders(e, x)
	return only && of
}

// orders reports whether every comparison of e is an order, and whether one is of x.
func orders(e ast.Expr, x string) (only, of bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	switch {
	case !ok:
		return false, false
	case b.Op == token.LAND || b.Op == token.LOR:
		lo, lx := orders(b.X, x)
		ro, rx := orders(b.Y, x)
		return lo && ro, lx || rx
	case isOrder(b.Op):
		return true, text(ast.Unparen(b.X)) == x || text(ast.Unparen(b.Y)) == x
	}
	return false, false
}

// counts reports whether the comparison at cur is the condition of an if statement whose body
// does not fail the test but changes a variable (highCount++, sawLow = true): the test counts
// how often draws land there, a statistic of their spread, not a bound.
func (c *checker) counts(cur cursor) bool {
	for p := cur.Parent(); ; cur, p = p, p.Parent() {
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.BinaryExpr:
			if pn.Op == token.LAND || pn.Op == token.LOR {
				continue
			}
		case *ast.IfStmt:
			if pn.Cond != cur.Node() || c.failsIn(pn.Body) {
				return false
			}
			changes := false
			ast.Inspect(pn.Body, func(n ast.Node) bool {
				switch n.(type) {
				case *ast.IncDecStmt, *ast.AssignStmt:
					changes = true
				}
				return !changes
			})
			return changes
		}
		return false
	}
}

// readsDraws reports whether e reads a variable that holds draws.
func (f *testFlow) readsDraws(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && f.seen[f.c.pass.TypesInfo.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// assignUse follows a draw assigned to a variable, summed, or stored in a collection.
func (f *testFlow) assignUse(p cursor, a *ast.AssignStmt, cur cursor, site *drawSite) {
	i := -1
	for j, r := range a.Rhs {
		if r == cur.Node() {
			i = j
		}
	}
	if i == 0 && len(a.Rhs) == 1 && len(a.Lhs) > 1 {
		i = 0 // val, stop := b.Next(): the draw is the first result
	} else if i < 0 || len(a.Lhs) != len(a.Rhs) {
		f.breaks("assigned in " + f.c.src(a.Lhs[0]))
		return
	}
	lhs := a.Lhs[i]
	if a.Tok == token.ADD_ASSIGN {
		v := f.c.localVar(lhs)
		if v == nil {
			f.breaks("summed into " + f.c.src(lhs))
			return
		}
		f.sums[v] = site
		f.sumUses(v, site)
		return
	}
	if ix, ok := lhs.(*ast.IndexExpr); ok && (a.Tok == token.ASSIGN) {
		if v := f.c.localVar(ix.X); v != nil {
			f.collection(v, site, false)
			return
		}
	}
	v := f.c.localVar(lhs)
	if v == nil {
		f.breaks("kept in " + f.c.src(lhs))
		return
	}
	if site.once && (a.Tok == token.DEFINE || a.Tok == token.ASSIGN) {
		// got := b.Next(0), then got = b.Next(1): each draw with no loop is read by the
		// uses up to the next store into the variable (elastic's TestExponentialBackoff).
		f.variableSpan(v, site, a.End(), f.c.nextStore(f.fn, v, a.End()))
		return
	}
	if a.Tok != token.DEFINE && !site.loop.Contains(f.declCursor(v)) {
		if a.Tok != token.ASSIGN {
			f.breaks("kept in " + f.c.src(lhs))
			return
		}
		if f.boundsOnlyKept(v) {
			return // prev = d, where prev only bounds the next draw: no check of this one
		}
		// d = next() in a loop, d declared before it: the uses from the loop on read the
		// loop's draws; those before it read another value (d := next() before the loop).
		f.variableSpan(v, site, site.loop.Node().Pos(), token.NoPos)
		return
	}
	f.variable(v, site)
}

// nextStore returns the position of the first assignment to v at or after pos in the
// function fd, or NoPos.
func (c *checker) nextStore(fd cursor, v *types.Var, pos token.Pos) token.Pos {
	for cur := range fd.Preorder((*ast.AssignStmt)(nil)) {
		a := cur.Node().(*ast.AssignStmt)
		if a.Pos() >= pos && slices.ContainsFunc(a.Lhs, func(l ast.Expr) bool { return c.localVar(l) == v }) {
			return a.Pos()
		}
	}
	return token.NoPos
}

// boundsOnlyKept reports whether a variable that keeps a draw past its loop pass (prev = d)
// is read only to bound a later draw: an argument of a bounds helper beside the draw it
// bounds (check(t, 2, prev, d), client-go's TestBackoffWithJitter), a side of an order
// comparison (d >= prev: non-decreasing), or a message's argument. Its value then checks the
// next draw against bounds and no more, so keeping it is no sharper check.
func (f *testFlow) boundsOnlyKept(v *types.Var) bool {
	return keptOnlyFor(f.c.usesOf(f.fn, v), func(cur cursor) bool {
		for {
			if _, ok := cur.Parent().Node().(*ast.ParenExpr); ok || f.c.isConversionArg(cur) {
				cur = cur.Parent()
				continue
			}
			break
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.BinaryExpr:
			return isOrder(p.Op)
		case *ast.CallExpr:
			return f.c.boundsArg(p, cur.Node())
		}
		return false
	})
}

// keptOnlyFor reports whether a variable, at uses, is read at least once and every read meets
// read: the stores into it (prev = d) are no reads.
func keptOnlyFor(uses []cursor, read func(id cursor) bool) bool {
	n := 0
	for _, id := range uses {
		if a, ok := id.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(a.Lhs, id.Node().(ast.Expr)) {
			continue
		}
		if !read(id) {
			return false
		}
		n++
	}
	return n > 0
}

// isConversionArg reports whether the node at cur is the argument of a conversion.
func (c *checker) isConversionArg(cur cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	return ok && c.isConversion(call) && len(call.Args) == 1 && call.Args[0] == cur.Node()
}

// boundsArg reports whether arg is a message's argument, or an argument of a bounds helper
// (testify's, the package's own, or the test's closure) that checks it, or another
// argument, only against bounds.
func (c *checker) boundsArg(call *ast.CallExpr, arg ast.Node) bool {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn != nil && (isReporting(fn) || isMessageArg(fn, call, arg) || isBoundsHelper(fn)) {
		return true
	}
	for _, other := range call.Args { // arg itself: check(t, 1, base, prev) bounds the first draw
		if fn == nil && c.isLocalBoundsHelper(call, other) || fn != nil && c.isOwnBoundsHelper(fn, call, other) {
			return true
		}
	}
	return false
}

// sendUse follows a draw sent on a local channel (ch <- r.next() in a goroutine) to the
// receives that take it: those after the send and before the next send on the channel in
// the source, as a test that fills the channel and drains it, then again, reads them
// (Temporal's TestConcurrentRetrier). A channel with no such receive keeps the draw from
// view.
func (f *testFlow) sendUse(send *ast.SendStmt, cur cursor, site *drawSite) {
	ch := f.c.localVar(send.Chan)
	if ch == nil || send.Value != cur.Node() {
		f.breaks("sent on " + f.c.src(send.Chan))
		return
	}
	end := token.NoPos
	for id := range f.fn.Preorder((*ast.Ident)(nil)) {
		s, ok := id.Parent().Node().(*ast.SendStmt)
		if ok && s.Chan == id.Node() && f.c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == ch && s.Pos() > send.End() && end == token.NoPos {
			end = s.Pos()
		}
	}
	received := false
	for id := range f.fn.Preorder((*ast.Ident)(nil)) {
		at := id.Node().Pos()
		if f.c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != ch || at < send.End() || end != token.NoPos && at > end {
			continue
		}
		switch p := id.Parent().Node().(type) {
		case *ast.UnaryExpr: // <-ch
			if p.Op == token.ARROW {
				received = true
				f.use(id.Parent(), site)
			}
		case *ast.RangeStmt: // for d := range ch
			if v := f.c.localVar(p.Key); v != nil && p.X == id.Node() {
				received = true
				f.variable(v, site)
			}
		}
	}
	if !received {
		f.breaks("sent on " + f.c.src(send.Chan))
	}
}

// declCursor returns the cursor of v's declaring identifier.
func (f *testFlow) declCursor(v *types.Var) cursor {
	cur, _ := f.fn.FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	return cur
}

// indexUse handles m[d] = ...: d becomes a key of the collection m; m[d] += 1 is a tally.
func (f *testFlow) indexUse(p cursor, ix *ast.IndexExpr, cur cursor, site *drawSite) {
	a, ok := p.Parent().Node().(*ast.AssignStmt)
	v := f.c.localVar(ix.X)
	if ok && ix.Index == cur.Node() && v != nil && len(a.Lhs) == 1 && a.Lhs[0] == ix {
		if a.Tok == token.ADD_ASSIGN {
			// m[d] += 1 counts each outcome, as m[d]++ does: the counts are what the test
			// checks (categoryTallies), not the set of keys.
			f.breaks("counted in " + f.c.src(ix))
			return
		}
		f.collection(v, site, true)
		return
	}
	f.breaks("used as an index in " + f.c.src(ix))
}

// appendUse handles xs = append(xs, d).
func (f *testFlow) appendUse(p cursor, call *ast.CallExpr, arg cursor) {
	v := f.c.localVar(call.Args[0])
	if v == nil || arg.Node() == call.Args[0] {
		f.breaks("appended to " + f.c.src(call.Args[0]))
		return
	}
	for s := range f.sitesOf(arg) {
		f.collection(v, s, false)
	}
}

// sitesOf returns the draw sites whose loop holds cur (the one a value at cur came from).
func (f *testFlow) sitesOf(cur cursor) map[*drawSite]bool {
	out := map[*drawSite]bool{}
	for _, s := range f.sites {
		if s.loop.Contains(cur) {
			out[s] = true
		}
	}
	return out
}

// variable follows every use of a variable that holds a draw.
func (f *testFlow) variable(v *types.Var, site *drawSite) {
	f.variableSpan(v, site, token.NoPos, token.NoPos)
}

// variableSpan follows the uses of a variable that holds draws from the position from on, up
// to the position to (NoPos: to the end). A variable given several draws is followed once a
// span.
func (f *testFlow) variableSpan(v *types.Var, site *drawSite, from, to token.Pos) {
	if f.seen[v] && from == token.NoPos {
		return
	}
	f.seen[v] = true
	for id := range f.fn.Preorder((*ast.Ident)(nil)) {
		at := id.Node().Pos()
		if f.c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v && at >= from && (to == token.NoPos || at < to) {
			f.use(id, site)
		}
	}
}

// sumUses follows the reads of a variable that adds up draws as reads of a draw: a sum, or
// a mean made of it, held only to bounds is no sharper check than bounds, since a constant
// at the mean passes it (juju/retry's TestExpBackofWithJitterAverage checks the mean ratio of
// its jittered delays to the unjittered ones against (0.9, 1.1), which no jitter at all
// meets). Compared exactly, or read with a sum of squares, it is more.
func (f *testFlow) sumUses(v *types.Var, site *drawSite) {
	if f.seen[v] {
		return
	}
	f.seen[v] = true
	for id := range f.fn.Preorder((*ast.Ident)(nil)) {
		if f.c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != v {
			continue
		}
		if a, ok := id.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(a.Lhs, id.Node().(ast.Expr)) {
			continue // sum += d, sum = 0: stores
		}
		n := len(f.bounds)
		f.use(id, site)
		// A mean compared only to log it checks nothing (TestFullMeanLogged).
		kept := f.bounds[:n]
		for _, b := range f.bounds[n:] {
			if cur, ok := f.fn.FindNode(b); !ok || f.c.guardsFailure(cur) {
				kept = append(kept, b)
			}
		}
		f.bounds = kept
	}
}

// collection follows every use of a map or slice that holds draws (as keys when keys is
// true, else as values or elements).
func (f *testFlow) collection(v *types.Var, site *drawSite, keys bool) {
	if f.seen[v] {
		return
	}
	f.seen[v] = true
	f.collects[v] = site
	if _, ok := v.Type().Underlying().(*types.Slice); ok {
		f.slices[v] = site
	}
	for id := range f.fn.Preorder((*ast.Ident)(nil)) {
		if f.c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
			f.collectionUse(id, site, keys)
		}
	}
}

// collectionUse classifies one use of a collection of draws.
func (f *testFlow) collectionUse(id cursor, site *drawSite, keys bool) {
	switch p := id.Parent().Node().(type) {
	case *ast.CallExpr:
		f.collectionCall(id, p, site)
	case *ast.RangeStmt:
		slot := p.Value
		if keys {
			slot = p.Key
		}
		if v := f.c.localVar(slot); v != nil && slot != nil {
			f.variable(v, site)
		}
	case *ast.IndexExpr:
		if a, ok := id.Parent().Parent().Node().(*ast.AssignStmt); ok && len(a.Lhs) == 1 && a.Lhs[0] == p {
			return // a store: m[k] = v
		}
		if !keys {
			f.use(id.Parent(), site)
			return
		}
		f.breaks("looked up in " + f.c.src(p))
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && p.Lhs[0] == id.Node() {
			return // xs = append(xs, d)
		}
		f.breaks("assigned from " + f.c.src(id.Node()))
	default:
		f.breaks("used in " + f.c.src(p))
	}
}

// collectionCall classifies a collection passed to a call.
func (f *testFlow) collectionCall(id cursor, call *ast.CallExpr, site *drawSite) {
	if b, ok := typeutil.Callee(f.c.pass.TypesInfo, call).(*types.Builtin); ok {
		switch b.Name() {
		case "len":
			if _, isSlice := f.c.typeOf(call.Args[0]).Underlying().(*types.Slice); isSlice {
				return // the number of draws, not a statistic of them
			}
			f.lens = append(f.lens, lenUse{call, id.Parent(), site})
			f.breaks("its distinct values counted (" + f.c.src(call) + ")")
			return
		case "append":
			if call.Args[0] == id.Node() {
				return
			}
		}
	}
	fn, _ := typeutil.Callee(f.c.pass.TypesInfo, call).(*types.Func)
	switch {
	case fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == spreadPath:
		f.spread = true
	case fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "sort" || fn.Pkg().Path() == "slices" && strings.HasPrefix(fn.Name(), "Sort")):
	default:
		f.breaks("passed to " + f.c.src(call.Fun))
	}
}

// specUse follows a draw declared with var: var d = f().
func (f *testFlow) specUse(spec *ast.ValueSpec, cur cursor, site *drawSite) {
	for i, v := range spec.Values {
		if v == cur.Node() && len(spec.Names) == len(spec.Values) {
			if obj, ok := f.c.pass.TypesInfo.Defs[spec.Names[i]].(*types.Var); ok {
				f.variable(obj, site)
				return
			}
		}
	}
	f.breaks("declared in " + f.c.src(spec))
}
