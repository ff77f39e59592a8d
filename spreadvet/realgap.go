package spreadvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Loops that end on a real gap. A test of a jittered retry loop waits for the loop's passes,
// measures the wall-clock gap between two of them, and breaks out when one gap falls in (or
// out of) a range; what it asserts afterwards (how many passes ran) then depends on real time
// as well as on the draws, and a constant wait that never ends the loop early may pass it too.

// realGaps reports the loops of a test that the code under test's random waits drive (the
// loop's condition reads a value a random function made: c := p.Start(ctx); for
// backoff.Continue(c)) and that break when the wall-clock gap between two passes meets a
// comparison, when the test checks a variable the loop changes after it.
func (c *checker) realGaps(fd cursor, tb string) {
	for cur := range fd.Preorder((*ast.ForStmt)(nil)) {
		loop := cur.Node().(*ast.ForStmt)
		driver, fact := c.randomDriver(loop.Cond)
		if driver == nil {
			continue
		}
		changed := c.loopVars(loop.Body)
		for ic := range cur.Preorder((*ast.IfStmt)(nil)) {
			ifs := ic.Node().(*ast.IfStmt)
			gap := c.gapIn(ifs.Cond, changed)
			if gap == nil || !breaksOut(ifs.Body) || c.failsIn(ifs.Body) {
				continue
			}
			verdict, read := c.checkAfter(fd, loop, changed)
			if verdict == "" {
				continue
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: ifs.Cond.Pos(), End: ifs.Cond.End(),
				Message: fmt.Sprintf("real-time verdict: %s leaves the loop that %s drives (%s) when the wall-clock gap %s between two passes meets %s, and then checks %s (%s): the verdict depends on the draws and on how busy the machine is, and a constant wait that never ends the loop early can pass it; drive the code with a fake clock (fakeclock.Fake) or in a testing/synctest bubble and check the waits themselves with spread.Check(%s, waits, ...)",
					c.testName(fd), c.src(driver.Fun), fact.Via, c.src(gap), c.oneLine(ifs.Cond), read, verdict, tb),
			})
			break
		}
	}
}

// randomDriver returns the call of a random function of the code under test whose value the
// loop condition cond reads through a local variable (c := p.Start(ctx); for Continue(c)).
func (c *checker) randomDriver(cond ast.Expr) (*ast.CallExpr, *randomFunc) {
	if cond == nil {
		return nil, nil
	}
	var call *ast.CallExpr
	var fact *randomFunc
	ast.Inspect(cond, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || call != nil {
			return call == nil
		}
		init, ok := ast.Unparen(c.onlyAssignment(c.localVar(id))).(*ast.CallExpr)
		if !ok {
			return true
		}
		if f, inTest := c.randomCallee(init); f != nil && !inTest {
			call, fact = init, f
		}
		return true
	})
	return call, fact
}

// gapIn returns the wall-clock gap that an order comparison in cond measures since a time the
// loop takes again on each pass (time.Since(prev), with prev = time.Now() in the loop), or
// nil.
func (c *checker) gapIn(cond ast.Expr, changed map[types.Object]bool) ast.Expr {
	var gap ast.Expr
	ast.Inspect(cond, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && isOrder(b.Op) && gap == nil {
			for _, side := range []ast.Expr{b.X, b.Y} {
				if since := c.sinceVar(side, 0); since != nil && changed[since] {
					gap = side
				}
			}
		}
		return gap == nil
	})
	return gap
}

// sinceVar returns the variable a span of wall-clock time is measured from: prev in
// time.Since(prev) or time.Now().Sub(prev), directly or through a local variable given one
// of these, seen through conversions.
func (c *checker) sinceVar(e ast.Expr, depth int) *types.Var {
	e = c.stripConversions(e)
	if v := c.localVar(e); v != nil && depth < 2 {
		return c.sinceVar(c.onlyAssignment(v), depth+1)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	if c.isTimeFunc(call, "Since") {
		return c.localVar(call.Args[0])
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sub" && isTimeTime(c.typeOf(sel.X)) && c.isNow(sel.X) {
		return c.localVar(call.Args[0])
	}
	return nil
}

// breaksOut reports whether a block leaves its loop: a break among its statements (not in a
// nested loop, switch or select).
func breaksOut(b *ast.BlockStmt) bool {
	for _, s := range b.List {
		if br, ok := s.(*ast.BranchStmt); ok && br.Tok == token.BREAK && br.Label == nil {
			return true
		}
	}
	return false
}

// checkAfter returns the first check after loop that reads a variable the loop changes (an
// assertion helper, or the condition of an if statement that fails the test), for messages,
// and the variable's name.
func (c *checker) checkAfter(fd cursor, loop *ast.ForStmt, changed map[types.Object]bool) (check, read string) {
	reads := func(n ast.Node) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && changed[c.pass.TypesInfo.Uses[id]] && read == "" {
				read = id.Name
			}
			return read == ""
		})
		return read != ""
	}
	for cur := range fd.Preorder((*ast.CallExpr)(nil), (*ast.IfStmt)(nil)) {
		if cur.Node().Pos() < loop.End() {
			continue
		}
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func)
			if ok && fn.Pkg() != nil && isAssertPkg(fn.Pkg().Path()) && reads(n) {
				return c.src(n.Fun), read
			}
		case *ast.IfStmt:
			if c.failsIn(n.Body) && reads(n.Cond) {
				return c.oneLine(n.Cond), read
			}
		}
	}
	return "", ""
}

// oneLine returns the source of n with its line breaks and indents folded into single
// spaces, for messages.
func (c *checker) oneLine(n ast.Node) string { return strings.Join(strings.Fields(c.src(n)), " ") }
