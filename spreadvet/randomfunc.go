package spreadvet

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// randomFunc is the fact that a function returns random output: it draws from a random
// source, reads randomness from a clock, or calls a function that does. Tests that draw it
// are tests of random code.
type randomFunc struct {
	Via  string     // what makes it random, for messages: "rand.Float64", "calls Jitter"
	Dist *uniform   // the distribution of its result, when it can be read from its body
	Text *textShape // the length and alphabet of its text result, when they can be read
	// GenText is the shape of the text that the func it returns makes (go-nanoid's
	// Standard(n) returns a generator of n characters), in terms of its own parameters.
	GenText *textShape
	Hops    int // the calls between it and the draw: 0 when it draws itself
	// Wraps counts the calls among Hops made by wrappers, functions that only return
	// another's result (uniuri's NewLen returns NewLenChars(n, StdChars)).
	Wraps int
	// Bytes is set when the draw is of bytes (crypto/rand, math/rand's Read): no
	// distribution can be read from it, so a chance it cannot compute is no verdict.
	Bytes bool
	// Quiet are the conditions on its parameters under which it draws nothing (randstr's
	// Bytes(n) when n <= 0): a call whose constants meet one is no random call.
	Quiet []quietWhen
	// Pick is set when its result is an element of a collection at a drawn index
	// (peers[rand.IntN(len(peers))]), or a wrapper's of one: two results can then be the same
	// pointer by chance. Any other pointer it returns is the same or not whatever it draws (a
	// pool's connection, whose lifetime alone is jittered).
	Pick bool
	// Export is set on a function of a package's test file that only returns another's result:
	// the handle an export_test.go gives the package's external tests on an unexported
	// function (go-redis's CalcConnExpiresAt returns p.calcConnExpiresAt()), whose fact they
	// need.
	Export bool
	// Counter names the state the function advances on each call and returns a part of, or
	// that a function it calls does (nuid's n.seq): its results differ from call to call
	// whatever it draws.
	Counter string
}

func (*randomFunc) AFact() {}

func (f *randomFunc) String() string {
	s := f.Via
	if f.Dist != nil {
		s += ", " + f.Dist.String()
	}
	if f.Text != nil {
		s += ", " + f.Text.String()
	}
	if f.GenText != nil {
		s += ", " + f.GenText.String() + " from the func it returns"
	}
	if f.Pick {
		s += ", pick"
	}
	if f.Counter != "" {
		s += ", counter " + f.Counter
	}
	return "random(" + s + quietString(f.Quiet) + ")"
}

// uniform is the distribution Uniform[Lo, Hi) of a function's result, with Lo and Hi in
// terms of its parameters ("$0" the first) and constants.
type uniform struct {
	Lo, Hi poly
}

func (u *uniform) String() string {
	return fmt.Sprintf("Uniform[%s, %s)", u.Lo.describe(), u.Hi.describe())
}

// describe writes a poly for facts and tests, its monomials sorted.
func (p poly) describe() string {
	if len(p) == 0 {
		return "0"
	}
	var terms []string
	for m, v := range p {
		t := strconv.FormatFloat(v, 'g', 10, 64)
		if m != "" {
			t += "*" + m
		}
		terms = append(terms, t)
	}
	sort.Strings(terms)
	return strings.Join(terms, "+")
}

// findRandomFuncs marks the package's random functions: those that draw or read a clock as
// randomness themselves, then, until nothing changes, those that call a random function.
// Each gets a randomFunc fact, so that other packages (and external tests) see it.
func (c *checker) findRandomFuncs() {
	c.random = map[*types.Func]*randomFunc{}
	c.draws = map[ast.Node]bool{}
	calls := map[*types.Func][]chainCall{}
	bodies := map[*types.Func]*ast.FuncDecl{}
	var decls []*ast.FuncDecl
	for _, test := range []bool{false, true} {
		for _, cur := range c.funcDecls(test) {
			fd := cur.Node().(*ast.FuncDecl)
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			decls = append(decls, fd)
			bodies[fn] = fd
			via, callees := c.directRandomness(cur)
			calls[fn] = c.chainCalls(callees)
			if via != "" {
				c.random[fn] = &randomFunc{Via: via, Bytes: isByteDraw(via)}
				c.draws[fd] = true
			}
		}
	}
	// Each function takes its shortest chain to a draw, whatever order the functions are
	// visited in: with the first chain found, a function's Hops (and so whether a test of it
	// is judged at all) followed the order of a map's iteration, and go-randomdata's
	// PostalCode was flagged in some runs and not others. The package's func literals are
	// decided in the same passes, in the order of the source.
	c.litFacts = map[*ast.FuncLit]*randomFunc{}
	var lits []*ast.FuncLit
	for cur := range c.insp.Root().Preorder((*ast.FuncLit)(nil)) {
		lits = append(lits, cur.Node().(*ast.FuncLit))
	}
	for changed := true; changed; {
		changed = false
		for _, lit := range lits {
			if f := c.decideLit(lit); f != nil {
				if cur := c.litFacts[lit]; cur == nil || f.Hops < cur.Hops {
					c.litFacts[lit] = f
					changed = true
				}
			}
		}
		for _, fd := range decls {
			fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if c.draws[fd] {
				continue // it draws itself: no chain is shorter
			}
			for _, cc := range calls[fn] {
				call, f := cc.call, cc.fact
				switch {
				case cc.local != nil:
					f = c.randomFact(cc.local)
				case cc.dynamic:
					f = c.randomCall(call)
				}
				if f == nil {
					continue
				}
				if cur := c.random[fn]; cur != nil && cur.Hops <= f.Hops+1 {
					continue
				}
				wraps, only := f.Wraps, c.onlyReturns(bodies[fn], call)
				if only {
					wraps++
				}
				c.random[fn] = &randomFunc{Via: "calls " + calleeName(call), Hops: f.Hops + 1, Wraps: wraps, Bytes: f.Bytes,
					Export: only && c.isTestFile(fd.Pos())}
				changed = true
			}
		}
	}
	for _, fd := range decls {
		fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if f := c.random[fn]; f != nil {
			f.Dist = c.inferUniform(fd)
			f.Text = c.inferText(fd)
			f.GenText = c.inferGenText(fd)
			f.Quiet = c.inferQuiet(fd)
			f.Pick = c.draws[fd] && c.returnsDrawnElement(fd)
		}
	}
	for changed := true; changed; { // wrappers of wrappers, in any order
		changed = false
		for _, fd := range decls {
			fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if f := c.random[fn]; f != nil && f.Text == nil {
				if f.Text = c.wrappedText(fd); f.Text != nil {
					changed = true
				}
			}
			if f := c.random[fn]; f != nil && !f.Pick && c.wrapsPick(fd) {
				f.Pick, changed = true, true
			}
		}
	}
	c.markCounters(decls)
	for _, fd := range decls {
		fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if f := c.random[fn]; f != nil && (!c.isTestFile(fd.Pos()) || f.Export) {
			c.pass.ExportObjectFact(fn, f) // a test file's helpers are no code under test, but its export handles reach some
		}
	}
	c.calleeFacts = map[*ast.CallExpr]calleeFact{} // the facts are decided: randomCallee may keep its answers
}

// A chainCall is a call of a function's body as findRandomFuncs's chains follow it, with
// what can be decided before them: the loop asks every call again until nothing changes, and
// a call of an imported function (its fact read from its package) or of nothing random gets
// the same answer every time, while looking it up (StaticCallee, ImportObjectFact) was a
// quarter of the analysis of memberlist's package.
type chainCall struct {
	call    *ast.CallExpr
	local   *types.Func // the callee, declared in this package: its fact is c.random's, which grows
	fact    *randomFunc // the fact of an imported static callee, fixed
	dynamic bool        // a call through a func value or an interface: randomCall each time
}

// chainCalls returns the chainCalls of calls, in their order.
func (c *checker) chainCalls(calls []*ast.CallExpr) []chainCall {
	out := make([]chainCall, len(calls))
	for i, call := range calls {
		out[i].call = call
		switch fn := typeutil.StaticCallee(c.pass.TypesInfo, call); {
		case fn == nil:
			out[i].dynamic = true
		case fn.Origin().Pkg() == c.pass.Pkg:
			out[i].local = fn
		default:
			out[i].fact = c.randomFact(fn)
		}
	}
	return out
}

// returnsDrawnElement reports whether fd returns, as its first result, an element of a
// collection at an index computed from a draw: xs[rand.IntN(len(xs))], or xs[i] with i given
// one value, a draw.
func (c *checker) returnsDrawnElement(fd *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				return true
			}
			ix, ok := ast.Unparen(n.Results[0]).(*ast.IndexExpr)
			if !ok {
				return true
			}
			index := ix.Index
			if v := c.localVar(index); v != nil {
				if init := c.onlyAssignment(v); init != nil {
					index = init
				}
			}
			found = found || c.drawCount(index) > 0
		}
		return !found
	})
	return found
}

// wrapsPick reports whether fd only returns the result of a function whose result is a pick
// (see randomFunc.Pick).
func (c *checker) wrapsPick(fd *ast.FuncDecl) bool {
	call, ok := ast.Unparen(soleReturn(fd)).(*ast.CallExpr)
	if !ok {
		return false
	}
	f := c.randomCall(call)
	return f != nil && f.Pick
}

// soleReturn returns the first result of the one return statement that is fd's whole body,
// or nil.
func soleReturn(fd *ast.FuncDecl) ast.Expr {
	if fd == nil || fd.Body == nil || len(fd.Body.List) != 1 {
		return nil
	}
	r, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) == 0 {
		return nil
	}
	return r.Results[0]
}

// textHops are the calls between a random text function and its draw, not counting
// wrappers: a wrapper of an ID generator is as near its draw as the generator.
func (f *randomFunc) textHops() int { return f.Hops - f.Wraps }

// onlyReturns reports whether the body of fd is one return of call's results, seen through
// conversions (return NewLenChars(n, StdChars), return []byte(ID(n))).
func (c *checker) onlyReturns(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	r := soleReturn(fd)
	return r != nil && c.stripConversions(c.stripTextConversions(r)) == call
}

// randomFact returns the randomFunc fact of fn, from this package or an imported one. An
// imported fact cannot change, and the checkers ask it of the same functions at every use:
// it is read once (ImportObjectFact copies the fact through reflection on every call).
func (c *checker) randomFact(fn *types.Func) *randomFunc {
	fn = fn.Origin()
	if fn.Pkg() == c.pass.Pkg {
		return funcFact(c, c.random, fn)
	}
	f, ok := c.importedRandom[fn]
	if !ok {
		f = funcFact(c, c.random, fn)
		if c.importedRandom == nil {
			c.importedRandom = map[*types.Func]*randomFunc{}
		}
		c.importedRandom[fn] = f
	}
	return f
}

// funcFact returns the fact of type PT of fn: from local, the package's own, or imported
// from fn's package; nil when it has none.
func funcFact[T any, PT interface {
	*T
	analysis.Fact
}](c *checker, local map[*types.Func]PT, fn *types.Func) PT {
	fn = fn.Origin()
	if f, ok := local[fn]; ok {
		return f
	}
	if fn.Pkg() == c.pass.Pkg {
		return nil
	}
	f := PT(new(T))
	if c.pass.ImportObjectFact(fn, f) {
		return f
	}
	return nil
}

// directRandomness returns what makes the function at fd random by itself (a draw, a draw
// of bytes from crypto/rand or math/rand, or clock randomness), or "", and the calls it
// makes.
func (c *checker) directRandomness(fd cursor) (via string, calls []*ast.CallExpr) {
	for cur := range fd.Preorder((*ast.CallExpr)(nil), (*ast.BinaryExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if d, ok := c.drawOf(n); ok && via == "" {
				via = "rand." + d.name
			} else if b := c.byteDraw(n); b != "" && via == "" {
				via = b
			} else if g := c.generatorArg(n); g != "" && via == "" {
				via = g
			}
			_, lit := ast.Unparen(n.Fun).(*ast.FuncLit) // its calls are in the preorder already
			if tv, ok := c.pass.TypesInfo.Types[n.Fun]; !lit && (!ok || !tv.IsType()) {
				calls = append(calls, n)
			}
		case *ast.BinaryExpr:
			if _, ok := c.clockRandomness(cur); ok && via == "" {
				via = "a clock reading"
			}
		}
	}
	return via, calls
}

// randomCall returns the fact of the random function that call calls, if it calls one: by
// name, or through a func value or an interface method.
func (c *checker) randomCall(call *ast.CallExpr) *randomFunc {
	f, _ := c.randomCallee(call)
	return f
}

// randomCallee is randomCall, and whether the random function is declared in a test file of
// this package.
//
// Once findRandomFuncs has decided the package's facts, the answer for a call no longer
// changes, and the test checkers ask it of the same calls again and again (each walks every
// test): it is kept per call.
func (c *checker) randomCallee(call *ast.CallExpr) (*randomFunc, bool) {
	memo := c.calleeFacts != nil
	if memo {
		if r, ok := c.calleeFacts[call]; ok {
			return r.fact, r.inTest
		}
	}
	var r calleeFact
	if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil {
		r = calleeFact{c.randomFact(fn), fn.Pkg() == c.pass.Pkg && c.isTestFile(fn.Pos())}
		if r.fact == nil && funcReceiver(fn) != nil {
			r.fact, r.inTest = c.samplerCall(call, fn) // timeGen.Sample(): what the random func value makes
		}
		if r.fact != nil && c.quietCall(call, r.fact) {
			r.fact = nil // Bytes(0): the constants take a path that draws nothing
		}
	} else {
		r.fact, r.inTest = c.dynamicFact(call.Fun, 0)
		if r.fact != nil && c.quietCall(call, r.fact) {
			r.fact = nil // a keyed message on a hash partitioner reached through its interface
		}
	}
	if memo {
		c.calleeFacts[call] = r
	}
	return r.fact, r.inTest
}

// calleeFact is what randomCallee answers for a call: the random function's fact, or nil,
// and whether it is declared in a test file of this package.
type calleeFact struct {
	fact   *randomFunc
	inTest bool
}

// calleeName names what a call calls, for messages: the function or method, or the func
// value's expression.
func calleeName(call *ast.CallExpr) string {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return fun.Name
	case *ast.SelectorExpr:
		return fun.Sel.Name
	}
	return text(call.Fun)
}

// inferUniform reads the distribution of a function's result from its body: one numeric
// result, and every return but one returns a constant (a guard such as "if d <= 0 { return
// 0 }"), the other a linear form in one uniform draw with bounds in terms of the parameters.
func (c *checker) inferUniform(fd *ast.FuncDecl) *uniform {
	fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	res := fn.Signature().Results()
	if res.Len() != 1 || !isNumeric(res.At(0).Type()) {
		return nil
	}
	params := map[types.Object]int{}
	for i := range fn.Signature().Params().Len() {
		params[fn.Signature().Params().At(i)] = i
	}
	sym := func(e ast.Expr) (string, bool) {
		if i, ok := params[c.objOf(e)]; ok {
			if _, isIdent := e.(*ast.Ident); isIdent {
				return "$" + strconv.Itoa(i), true
			}
		}
		return "", false
	}
	var found *uniform
	for _, ret := range returnsOf(fd.Body) {
		if len(ret.Results) != 1 {
			return nil
		}
		if tv := c.pass.TypesInfo.Types[ret.Results[0]]; tv.Value != nil {
			continue
		}
		l, ok := c.linearOf(ret.Results[0], sym)
		if !ok || !l.random() || l.draw == nil || found != nil || l.a.sign() != 1 {
			return nil
		}
		found = &uniform{Lo: l.b, Hi: l.b.add(l.a, 1)}
	}
	return found
}

// returnsOf returns the return statements of a function's body, not those of the func
// literals in it.
func returnsOf(body *ast.BlockStmt) []*ast.ReturnStmt {
	var out []*ast.ReturnStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, n)
		}
		return true
	})
	return out
}

// isNumeric reports whether t is an integer or floating-point type (time.Duration included).
func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0
}

// localVar returns the local variable e names, or nil.
func (c *checker) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}
