package spreadvet

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// clockRandomness reports whether the expression at cur takes a clock reading as a random
// number: a fine reading (nanoseconds, microseconds, milliseconds) modulo n or masked (its
// parity, "% 2" or "& 1"), or the fraction of the current second (Nanosecond() / 1e9). It
// returns a description of the reading. Whole seconds modulo n are left alone (they index
// time windows: a ring of per-second buckets), and so is a remainder that aligns a time to
// a boundary (interval - now%interval, now - now%interval).
func (c *checker) clockRandomness(cur cursor) (string, bool) {
	e := cur.Node().(*ast.BinaryExpr)
	switch e.Op {
	case token.REM, token.AND:
		m, ok := c.fineReading(e.X)
		switch {
		case !ok || c.aligns(cur):
		case e.Op == token.REM:
			return "a remainder of the clock reading " + m + "()", true
		default:
			return "the low bits of the clock reading " + m + "()", true
		}
	case token.QUO:
		if m, ok := c.clockReading(e.X); ok && m == "Nanosecond" && c.constValue(e.Y) == 1e9 {
			return "the fraction of the current second", true
		}
	}
	return "", false
}

// fineReading returns the method of a clock reading finer than a second, as clockReading.
func (c *checker) fineReading(e ast.Expr) (string, bool) {
	m, ok := c.clockReading(e)
	return m, ok && m != "Unix"
}

// aligns reports whether the remainder at cur is subtracted from its own modulus or from a
// clock reading: the time left to the next boundary, or the time rounded down to one.
func (c *checker) aligns(cur cursor) bool {
	rem := cur.Node().(*ast.BinaryExpr)
	for p := cur.Parent(); ; cur, p = p, p.Parent() {
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.CallExpr:
			if c.isConversion(pn) {
				continue
			}
		case *ast.BinaryExpr:
			if pn.Op != token.SUB || pn.Y != cur.Node() {
				return false
			}
			from := c.stripConversions(pn.X)
			_, reading := c.clockReading(from)
			return reading || text(from) == text(c.stripConversions(rem.Y))
		}
		return false
	}
}

// constValue returns the value of a constant expression, or NaN-free 0 when it has none.
func (c *checker) constValue(e ast.Expr) float64 {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return 0
	}
	v, _ := constant.Float64Val(constant.ToFloat(tv.Value))
	return v
}

// clockRandomness reports randomness read from a clock in the package's non-test code.
func (c *checker) clockRandomnessFindings() {
	for _, fd := range c.funcDecls(false) {
		for cur := range fd.Preorder((*ast.BinaryExpr)(nil), (*ast.CallExpr)(nil)) {
			switch n := cur.Node().(type) {
			case *ast.BinaryExpr:
				if what, ok := c.clockRandomness(cur); ok {
					c.reportClockRemainder(n, what)
				}
			case *ast.CallExpr:
				c.clockSeed(cur, n)
			}
		}
	}
}

func (c *checker) reportClockRemainder(e *ast.BinaryExpr, what string) {
	d := analysis.Diagnostic{
		Pos: e.Pos(), End: e.End(),
		Message: "clock-derived randomness: " + c.src(e) + " takes " + what + " as a random number; " +
			"clock readings only go up and move in steps (on a microsecond clock every UnixNano is even), " +
			"so it is constant or serially correlated: draw from math/rand/v2 or an injected *rand.Rand",
	}
	if e.Op == token.REM && c.isInt64(e) {
		file := c.fileOf(e.Pos())
		switch {
		case importName(file, "math/rand/v2") == "rand":
			d.SuggestedFixes = replace("draw with rand.Int64N", e, "rand.Int64N("+c.src(e.Y)+")")
		case importName(file, "math/rand") == "rand":
			d.SuggestedFixes = replace("draw with rand.Int63n", e, "rand.Int63n("+c.src(e.Y)+")")
		}
	}
	c.pass.Report(d)
}

// isInt64 reports whether e has type int64 exactly.
func (c *checker) isInt64(e ast.Expr) bool {
	b, ok := c.typeOf(e).(*types.Basic)
	return ok && b.Kind() == types.Int64
}

// seedFuncs are the constructors and seeders of math/rand and math/rand/v2.
var seedFuncs = map[string]bool{"NewSource": true, "NewPCG": true, "Seed": true, "NewChaCha8": false}

// clockSeed reports a source seeded from the clock on every call: rand.Seed(clock) outside
// init, or rand.New(rand.NewSource(clock)) whose result is drawn from and dropped in the
// same function, rather than kept.
func (c *checker) clockSeed(cur cursor, call *ast.CallExpr) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || !isRandPkg(fn.Pkg().Path()) || !seedFuncs[fn.Name()] || !c.argReadsClock(call) {
		return
	}
	fd, ok := enclosingFunc(cur)
	if !ok || c.runsOnce(fd) || c.isConstructor(fd) {
		return
	}
	if fn.Name() != "Seed" {
		gen, ok := c.generatorOf(cur)
		if !ok || !c.dropsGenerator(gen) {
			return
		}
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: "clock-derived randomness: " + c.src(call) + " seeds a source from the clock on every call; " +
			"calls in the same clock step get the same numbers, and successive seeds are correlated: " +
			"draw from the global source of math/rand/v2, or create one *rand.Rand once and inject it",
	})
}

// argReadsClock reports whether an argument of call contains a clock reading, directly or
// through local variables given one value (seed := time.Now().UnixNano()).
func (c *checker) argReadsClock(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if c.readsClock(a, 0) {
			return true
		}
	}
	return false
}

// readsClock reports whether e contains a clock reading, following local variables given one
// value up to a depth of three.
func (c *checker) readsClock(e ast.Expr, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			_, found = c.clockReading(e)
			if v := c.localVarIdent(n); v != nil && !found && depth < 3 {
				if init := c.onlyAssignment(v); init != nil {
					found = c.readsClock(init, depth+1)
				}
			}
		}
		return !found
	})
	return found
}

// isConstructor reports whether the function at fd makes a value (its name starts with New
// or new and it returns a pointer or a named type): a source seeded there, even to draw the
// value's own seeds, is seeded once per value, not on every call of a draw.
func (c *checker) isConstructor(fd cursor) bool {
	decl, ok := fd.Node().(*ast.FuncDecl)
	if !ok || !strings.HasPrefix(strings.ToLower(decl.Name.Name), "new") || decl.Type.Results == nil {
		return false
	}
	for _, r := range decl.Type.Results.List {
		t := c.typeOf(r.Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if _, named := types.Unalias(t).(*types.Named); named && !isRandRand(t) {
			return true
		}
	}
	return false
}

// isRandRand reports whether t is *rand.Rand or rand.Rand of math/rand or math/rand/v2: a
// function that returns a fresh generator is no constructor of a value that keeps it.
func isRandRand(t types.Type) bool {
	return isNamed(t, "math/rand", "Rand") || isNamed(t, "math/rand/v2", "Rand")
}

// runsOnce reports whether the function at fd runs once per program: init, main, or a
// function literal given to sync.Once's Do.
func (c *checker) runsOnce(fd cursor) bool {
	switch n := fd.Node().(type) {
	case *ast.FuncDecl:
		return n.Recv == nil && (n.Name.Name == "init" || n.Name.Name == "main")
	case *ast.FuncLit:
		call, ok := fd.Parent().Node().(*ast.CallExpr)
		if !ok {
			return false
		}
		if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil && fn.Pkg() != nil &&
			fn.Pkg().Path() == "sync" && (fn.Name() == "Do" || fn.Name() == "OnceFunc" || fn.Name() == "OnceValue") {
			return true
		}
		if outer, ok := enclosingFunc(fd.Parent()); ok {
			return c.runsOnce(outer)
		}
	}
	return false
}

// generatorOf returns the rand.New call around a source constructor at cur, or the one that
// takes the local variable the source is kept in (src := rand.NewSource(seed); r :=
// rand.New(src)).
func (c *checker) generatorOf(cur cursor) (cursor, bool) {
	p := cur.Parent()
	if a, ok := p.Node().(*ast.AssignStmt); ok && len(a.Lhs) == 1 && len(a.Rhs) == 1 && a.Tok == token.DEFINE {
		return c.generatorOfVar(cur, c.localVar(a.Lhs[0]))
	}
	call, ok := p.Node().(*ast.CallExpr)
	if !ok {
		return cursor{}, false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || !isRandPkg(fn.Pkg().Path()) || fn.Name() != "New" {
		return cursor{}, false
	}
	return p, true
}

// generatorOfVar returns the rand.New call that takes the source kept in v, when that is
// v's only use in the function around cur.
func (c *checker) generatorOfVar(cur cursor, v *types.Var) (cursor, bool) {
	fd, ok := enclosingFunc(cur)
	if v == nil || !ok {
		return cursor{}, false
	}
	var uses []cursor
	for id := range fd.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
			uses = append(uses, id)
		}
	}
	if len(uses) != 1 {
		return cursor{}, false
	}
	return c.generatorOf(uses[0])
}

// dropsGenerator reports whether the *rand.Rand made at gen is used only to draw, in the
// function that makes it: drawn from at once, or kept in a local variable that is only
// ever the receiver of a method call.
func (c *checker) dropsGenerator(gen cursor) bool {
	switch p := gen.Parent().Node().(type) {
	case *ast.SelectorExpr:
		return true // rand.New(...).Float64()
	case *ast.AssignStmt:
		if len(p.Lhs) != 1 || p.Tok != token.DEFINE {
			return false
		}
		v := c.localVar(p.Lhs[0])
		return v != nil && c.onlyReceiver(gen, v) && !c.drawnAgain(gen, v)
	}
	return false
}

// drawnAgain reports whether v, a generator made in the function around cur, outlives the
// call that made it: drawn from in a func literal that keeps it, or in an endless loop of that
// function (for { ... }), which runs as long as what it serves. The start of kafka-go's
// discover goroutine seeds one for every wait of its refresh loop, through a closure: seeded
// once for many draws. A counted loop (a shuffle of nats.go's server pool) still draws only
// within the call, and the next call seeds again.
func (c *checker) drawnAgain(cur cursor, v *types.Var) bool {
	fd, ok := enclosingFunc(cur)
	if !ok {
		return false
	}
	for id := range c.usesIn(fd, v) {
		for p := range id.Enclosing((*ast.ForStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			if p.Node() == fd.Node() {
				break
			}
			if loop, ok := p.Node().(*ast.ForStmt); !ok || loop.Cond == nil {
				return true
			}
		}
	}
	return false
}

// usesIn yields the identifiers under fd that use v.
func (c *checker) usesIn(fd cursor, v *types.Var) iter.Seq[cursor] {
	return func(yield func(cursor) bool) {
		for id := range fd.Preorder((*ast.Ident)(nil)) {
			if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v && !yield(id) {
				return
			}
		}
	}
}

// onlyReceiver reports whether every use of v in the function around cur is the receiver of a
// method call.
func (c *checker) onlyReceiver(cur cursor, v *types.Var) bool {
	fd, ok := enclosingFunc(cur)
	if !ok {
		return false
	}
	for id := range c.usesIn(fd, v) {
		sel, ok := id.Parent().Node().(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if _, ok := id.Parent().Parent().Node().(*ast.CallExpr); !ok || sel.X != id.Node() {
			return false
		}
	}
	return true
}
