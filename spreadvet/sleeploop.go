package spreadvet

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// randomSleepLoops reports a loop that repeats forever (no counter) and paces itself with a
// random sleep, in a function with no ticker and no wait on a channel of times: its gaps have no fixed mean pace, so runs of
// long and of short sleeps (cold and hot runs) come by chance. Retry loops (that return or
// break on a nil error) and sleeps that grow in the loop (backoff) are left alone.
func (c *checker) randomSleepLoops() {
	for _, fd := range c.funcDecls(false) {
		if c.hasTicker(fd.Node()) {
			continue
		}
		for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if !(c.isTimeFunc(call, "Sleep") || c.isTimeFunc(call, "After")) || len(call.Args) != 1 || !c.drawsIn(call.Args[0]) {
				continue
			}
			loop, ok := c.foreverLoop(cur)
			if !ok || c.isRetryLoop(loop) || c.changesIn(loop, call.Args[0]) || c.receivesTime(loop, call) || c.isLoadGenerator(loop, call) {
				continue
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: call.Pos(), End: call.End(),
				Message: "random sleep loop: " + c.src(call) + " paces a loop with no ticker (a periodic task: it repeats with no counter, no exit on success, a sleep that does not grow, and does not time its own work as a load generator's think time does), so the gaps drift and come in hot and cold runs; " +
					"keep the pace with a ticker and jitter inside each interval: tick := time.NewTicker(interval); for { time.Sleep(rand.N(interval)); doThing(); <-tick.C }",
			})
		}
	}
}

// hasTicker reports whether n creates a ticker: time.Tick, time.NewTicker, or a Tick or
// NewTicker method of an injected clock.
func (c *checker) hasTicker(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil && (fn.Name() == "Tick" || fn.Name() == "NewTicker") {
				found = true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Tick" || sel.Sel.Name == "NewTicker") {
				found = true
			}
		}
		return !found
	})
	return found
}

// receivesTime reports whether the loop waits on a channel of time.Time other than the
// sleep itself: a ticker made elsewhere (<-tick, <-t.C) keeps the pace.
func (c *checker) receivesTime(loop cursor, sleep *ast.CallExpr) bool {
	for cur := range loop.Preorder((*ast.UnaryExpr)(nil)) {
		recv := cur.Node().(*ast.UnaryExpr)
		if recv.Op != token.ARROW || ast.Unparen(recv.X) == sleep {
			continue
		}
		t := c.typeOf(recv.X)
		if t == nil {
			continue
		}
		if ch, ok := t.Underlying().(*types.Chan); ok && isTimeTime(ch.Elem()) {
			return true
		}
	}
	return false
}

// drawsIn reports whether e draws a random number, directly or through a random function.
func (c *checker) drawsIn(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if _, ok := c.drawOf(call); ok || c.randomCall(call) != nil {
				found = true
			}
		}
		return !found
	})
	return found
}

// foreverLoop returns the innermost loop around cur in its function when it has no counter:
// "for {", or "for cond {" without init and post statements.
func (c *checker) foreverLoop(cur cursor) (cursor, bool) {
	for p := range cur.Enclosing((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
		if f, ok := p.Node().(*ast.ForStmt); ok {
			return p, f.Init == nil && f.Post == nil
		}
		return cursor{}, false
	}
	return cursor{}, false
}

// isRetryLoop reports whether the loop returns or breaks under an "if err == nil" or
// "if err != nil": it stops once an operation succeeds (or fails for good).
func (c *checker) isRetryLoop(loop cursor) bool {
	found := false
	for cur := range loop.Preorder((*ast.IfStmt)(nil)) {
		cond, ok := cur.Node().(*ast.IfStmt).Cond.(*ast.BinaryExpr)
		if !ok || (cond.Op != token.EQL && cond.Op != token.NEQ) || !c.isError(cond.X) {
			continue
		}
		ast.Inspect(cur.Node().(*ast.IfStmt).Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ReturnStmt:
				found = true
			case *ast.BranchStmt:
				found = found || n.Tok == token.BREAK
			case *ast.FuncLit:
				return false
			}
			return !found
		})
	}
	return found
}

// isError reports whether e has type error.
func (c *checker) isError(e ast.Expr) bool {
	t := c.typeOf(e)
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// changesIn reports whether e reads a variable that the loop assigns, or calls a method that
// may change its receiver (backoff.Step()): a sleep that grows.
func (c *checker) changesIn(loop cursor, e ast.Expr) bool {
	vars := c.loopVars(loop.Node())
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			_, _, found = c.statefulCall(call)
		}
		if id, ok := n.(*ast.Ident); ok && vars[c.pass.TypesInfo.Uses[id]] {
			found = true
		}
		if sel, ok := n.(*ast.SelectorExpr); ok && vars[c.pass.TypesInfo.Uses[sel.Sel]] {
			found = true
		}
		return !found
	})
	return found
}

// isLoadGenerator reports whether a loop is a closed-loop load generator rather than a
// periodic task: it times its own work (a request's latency, time.Since of a reading taken in
// the loop), or its random sleep is a think time (a name that says so), or it lives in a
// benchmark or load-generating package. Its sleep spaces one client's requests, and no pace
// is meant.
func (c *checker) isLoadGenerator(loop cursor, sleep *ast.CallExpr) bool {
	for cur := range loop.Preorder((*ast.CallExpr)(nil)) {
		if c.isElapsed(cur.Node().(*ast.CallExpr), 0) {
			return true
		}
	}
	think := false
	ast.Inspect(sleep, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "think") {
			think = true
		}
		return !think
	})
	if think {
		return true
	}
	for _, seg := range strings.Split(c.pass.Pkg.Path(), "/") {
		seg = strings.ToLower(seg)
		if strings.Contains(seg, "bench") || strings.Contains(seg, "loadgen") || strings.Contains(seg, "stress") {
			return true
		}
	}
	return false
}
