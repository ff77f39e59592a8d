package spreadvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/spreadcheck/spreadcheck/internal/sizing"
)

// minReportedChance is the smallest chance of failing a correct implementation that a
// chance verdict is reported for: below it a test fails less often than the kit's own
// default false-failure rate of one assertion, 1e-9.
const minReportedChance = 1e-9

// chanceVerdicts reports the verdicts of a test that depend on chance or on real time: two
// random picks required to differ, and wall-clock time (an elapsed span, a real timer)
// checked while the code under test draws.
func (c *checker) chanceVerdicts(fd cursor, tb string) {
	for cur := range fd.Preorder((*ast.BinaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.IfStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.IfStmt:
			c.seenBefore(fd, cur, n, tb)
			if ix, ok := ast.Unparen(n.Cond).(*ast.IndexExpr); ok && c.failsIn(n.Body) {
				c.seenIndex(fd, cur, ix, n.Cond, tb) // if used[id] { t.Fatal }
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL && c.failsWhenTrue(cur) {
				c.collision(fd, n, n.X, n.Y, tb)
			}
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func)
			switch {
			case ok && isNotEqualHelper(fn) && len(n.Args) >= 3:
				c.collision(fd, n, n.Args[1], n.Args[2], tb)
				c.shuffleDiffers(fd, n, n.Args[1], n.Args[2], tb)
			case ok && isFalseHelper(fn) && len(n.Args) >= 2:
				if ix, ok := ast.Unparen(n.Args[1]).(*ast.IndexExpr); ok {
					c.seenIndex(fd, cur, ix, n.Args[1], tb) // require.False(t, used[id])
				}
			case ok && isEqualFunc(fn) && len(n.Args) == 2 && c.failsWhenTrue(cur):
				c.collision(fd, n, n.Args[0], n.Args[1], tb) // if reflect.DeepEqual(s1, s2) { t.Fatal }
				c.shuffleDiffers(fd, n, n.Args[0], n.Args[1], tb)
			}
		}
	}
	c.realTime(fd)
}

// failsWhenTrue reports whether the condition at cur is (a disjunct of) an if statement's
// condition whose body fails the test.
func (c *checker) failsWhenTrue(cur cursor) bool {
	for p := cur.Parent(); ; cur, p = p, p.Parent() {
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.BinaryExpr:
			if pn.Op == token.LOR {
				continue
			}
		case *ast.IfStmt:
			return pn.Cond == cur.Node() && c.failsIn(pn.Body)
		}
		return false
	}
}

// isEqualFunc reports whether fn is reflect.DeepEqual or slices.Equal.
func isEqualFunc(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	return path == "reflect" && fn.Name() == "DeepEqual" || path == "slices" && fn.Name() == "Equal"
}

// isNotEqualHelper reports whether fn is testify's NotEqual (assert or require).
func isNotEqualHelper(fn *types.Func) bool {
	return fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") &&
		strings.TrimSuffix(fn.Name(), "f") == "NotEqual"
}

// randomValueCall returns the call of a random function of the code under test that e is,
// directly or through a local variable given one value.
func (c *checker) randomValueCall(e ast.Expr) (*ast.CallExpr, *randomFunc) {
	e = ast.Unparen(e)
	if v := c.localVar(e); v != nil {
		if init := c.onlyAssignment(v); init != nil {
			e = ast.Unparen(init)
		} else if call := c.firstOf(v); call != nil {
			e = call
		}
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	f, inTest := c.randomCallee(call)
	if f == nil {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && len(call.Args) == 0 && c.localVar(sel.X) != nil {
			return c.randomValueCall(sel.X) // s := id.String(): the text of a random value
		}
	}
	if f == nil || inTest {
		return nil, nil
	}
	return call, f
}

// collision reports a test that fails when two draws of one random function, with the same
// arguments, are equal: a birthday collision that a correct function makes by chance.
func (c *checker) collision(fd cursor, at ast.Node, x, y ast.Expr, tb string) {
	a, fact := c.randomValueCall(x)
	b, _ := c.randomValueCall(y)
	if a == nil || b == nil || a == b || text(a) != text(b) {
		return
	}
	if isIdentity(firstResult(c.typeOf(a))) && !fact.Pick {
		return // two pointers it made or kept: equal or not whatever it draws
	}
	if c.pinned(a) || c.pinned(b) {
		return // the same draws in every run
	}
	if fact.Counter != "" && !c.pinsClock(fd) {
		c.reportCounted(fd, at, a, fact, 2, tb) // u1 == u2 of IDs that hold a counter
		return
	}
	chance := "with a chance of 1/k for a function that picks one of k values evenly"
	if w, text, ok := c.textValues(a, fact); text {
		// Random text: k^-n from its shape, or no verdict when that cannot be computed (a
		// guess of 1/k would flag every pair of long tokens).
		p, method, err := sizing.RepeatsTail(w, 2, 1)
		if !ok || math.IsInf(w, 1) || err != nil || p < minReportedChance {
			return
		}
		chance = fmt.Sprintf("with probability %.3g (%s, the characters uniform)", p, method)
	} else if p, method, ok := c.collisionChance(a, fact); ok {
		if p < minReportedChance {
			return
		}
		chance = fmt.Sprintf("with probability %.3g (%s)", p, method)
	} else if fact.Bytes {
		return // a number made of crypto/rand bytes (a 63-bit seed): its chance is past reading
	}
	fix := "test the spread of many draws instead, sized from a false-failure rate: "
	if _, isText, _ := c.textValues(a, fact); isText {
		fix = "test the spread of its characters instead, sized from a false-failure rate: " + c.charSpread(a, tb)
	} else if isNumeric(c.typeOf(a)) {
		check, _ := c.spreadCheck(&testFlow{c: c, fn: fd}, &drawSite{call: a, fact: fact}, tb)
		fix += check
	} else {
		fix += "draw many picks and check their spread with spread.Check (of their indices), or pin the picks with a seeded source"
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: at.Pos(), End: at.End(),
		Message: fmt.Sprintf("chance verdict: %s fails when two draws of %s are equal (%s), which a correct %s does %s; %s",
			c.testName(fd), c.src(a.Fun), c.src(at), c.src(a.Fun), chance, fix),
	})
}

// isIdentity reports whether == on values of t compares identities: pointers, channels and
// unsafe pointers, which are equal when they are one object, not when they hold equal values.
func isIdentity(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Chan:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// fullRangeBits are the bits of the draws of math/rand over the whole range of their type,
// by the Via of a function that returns one.
var fullRangeBits = map[string]float64{
	"rand.Int63": 63, "rand.Int64": 63, "rand.Uint64": 64, "rand.Int31": 31, "rand.Int32": 31, "rand.Uint32": 32,
}

// seenBefore reports a loop that fails the test when a draw was seen before: "if _, ok :=
// seen[x]; ok { t.Fatal }" over draws of one random function, a birthday collision among all
// the loop's draws.
func (c *checker) seenBefore(fd, cur cursor, ifs *ast.IfStmt, tb string) {
	init, ok := ifs.Init.(*ast.AssignStmt)
	if !ok || len(init.Lhs) != 2 || len(init.Rhs) != 1 {
		return
	}
	okVar := c.localVar(init.Lhs[1])
	ix, isIndex := ast.Unparen(init.Rhs[0]).(*ast.IndexExpr)
	if okVar == nil || !isIndex {
		return
	}
	seen := c.objOf(ifs.Cond) == okVar && c.failsIn(ifs.Body)
	if not, ok := ast.Unparen(ifs.Cond).(*ast.UnaryExpr); ok && not.Op == token.NOT && c.objOf(not.X) == okVar {
		// if _, ok := ids[id]; !ok { ids[id] = ... } else { t.Errorf(...) }: shortid's form
		else_, ok := ifs.Else.(*ast.BlockStmt)
		seen = ok && c.failsIn(else_)
	}
	if !seen {
		return
	}
	c.seenIndex(fd, cur, ix, init, tb)
}

// isFalseHelper reports whether fn is testify's False (assert or require).
func isFalseHelper(fn *types.Func) bool {
	return fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") &&
		strings.TrimSuffix(fn.Name(), "f") == "False"
}

// seenIndex reports the read of a map of the draws seen before, seen[x] at check (the if's
// init, its condition, or testify's False), that fails the test when x is in the map: a
// birthday collision among the loop's draws.
func (c *checker) seenIndex(fd, cur cursor, ix *ast.IndexExpr, check ast.Node, tb string) {
	mt, isMap := c.typeOf(ix.X).Underlying().(*types.Map)
	if !isMap {
		return
	}
	if _, isInit := check.(*ast.AssignStmt); !isInit && !isBool(mt.Elem()) {
		return // the map's value read as the verdict: only a set of bools says "seen"
	}
	call, fact := c.randomValueCall(ix.Index)
	if call == nil || c.pinned(call) {
		return
	}
	loop, varies, ok := c.repeatingLoop(cur, call)
	n := c.loopCount(loop)
	if ok && fact.Counter != "" && !c.pinsClock(fd) {
		c.reportCounted(fd, check, call, fact, n, tb) // whatever the loop's count or arguments
		return
	}
	if !ok || varies != "" || n < 2 {
		return
	}
	chance := "with a chance that grows with the square of the draws over the values it can return"
	w, text, ok := c.textValues(call, fact)
	if text && (!ok || math.IsInf(w, 1)) {
		return // random text whose chance of a repeat cannot be computed: see collision
	}
	if !text {
		w, ok = c.valueCount(call, fact)
	}
	if !ok && fact.Bytes {
		return // see collision
	}
	if ok {
		p, method, err := sizing.RepeatsTail(w, n, 1)
		if err != nil || p < minReportedChance {
			return
		}
		chance = fmt.Sprintf("with probability %.3g (%s)", p, method)
	}
	spread, _ := c.spreadCheck(&testFlow{c: c, fn: fd}, &drawSite{call: call, fact: fact, n: n}, tb)
	if text {
		spread = c.charSpread(call, tb) // a string is no sample of numbers
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: check.Pos(), End: check.End(),
		Message: fmt.Sprintf("chance verdict: %s fails when one of %d draws of %s repeats an earlier one (%s), which a correct %s does %s; test the spread instead, sized from a false-failure rate: %s",
			c.testName(fd), n, c.src(call.Fun), c.src(check), c.src(call.Fun), chance, spread),
	})
}

// valueCount returns the number of values a uniform random function's call can return, when
// it is known: the integers of its range, 2^53 per unit of a float range.
func (c *checker) valueCount(call *ast.CallExpr, fact *randomFunc) (float64, bool) {
	if bits, ok := fullRangeBits[fact.Via]; ok && fact.Hops == 0 && fact.Dist == nil {
		return math.Exp2(bits), true
	}
	lo, hi, ok := c.siteBounds(&drawSite{call: call, fact: fact})
	if !ok {
		return 0, false
	}
	width, ok := hi.add(lo, -1).constant()
	if !ok || width < 1 && isInteger(c.typeOf(call)) {
		return 0, false
	}
	if !isInteger(c.typeOf(call)) {
		return math.Max(math.Floor(width), 1) * (1 << 53), true
	}
	return math.Floor(width), true
}

// collisionChance returns the probability that two draws of a uniform random function are
// equal: 1/w over w integer values, 2^-53 for floats in a unit range.
func (c *checker) collisionChance(call *ast.CallExpr, fact *randomFunc) (float64, string, bool) {
	w, ok := c.valueCount(call, fact)
	if !ok {
		return 0, "", false
	}
	p, method, err := sizing.RepeatsTail(w, 2, 1)
	return p, method, err == nil
}

// realTime reports a test that checks wall-clock time (an elapsed span compared with a
// limit, or a real timer that fails the test when it fires) while the code under test draws:
// its verdict depends on the draws and on how busy the machine is.
func (c *checker) realTime(fd cursor) {
	draw, fact := c.testDraw(fd)
	if draw == nil {
		return
	}
	name := c.testName(fd)
	fix := "drive the code with a fake clock (fakeclock.Fake) or run the test in a testing/synctest bubble, where time moves only when every goroutine waits, and check the waits themselves with spread.Check"
	for cur := range fd.Preorder((*ast.BinaryExpr)(nil), (*ast.CallExpr)(nil), (*ast.CommClause)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if !isOrder(n.Op) || !c.guardsFailure(cur) {
				continue
			}
			elapsed, limit := n.X, n.Y
			if !c.isElapsed(elapsed, 0) {
				elapsed, limit = n.Y, n.X
			}
			if !c.isElapsed(elapsed, 0) {
				continue
			}
			chance := ""
			if p, ok := c.sleepSumChance(fd, n, elapsed, limit); ok {
				chance = p
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: n.Pos(), End: n.End(),
				Message: fmt.Sprintf("real-time verdict: %s compares the wall-clock time %s with %s while %s draws (%s)%s: the verdict depends on the draws and on how busy the machine is; %s",
					name, c.src(elapsed), c.src(limit), c.src(draw), fact.Via, chance, fix),
			})
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func)
			if !ok || !isBoundsHelper(fn) || len(n.Args) < 3 {
				continue
			}
			for i, a := range n.Args[1:3] {
				if c.isElapsed(a, 0) {
					c.pass.Report(analysis.Diagnostic{
						Pos: n.Pos(), End: n.End(),
						Message: fmt.Sprintf("real-time verdict: %s compares the wall-clock time %s with %s while %s draws (%s): the verdict depends on the draws and on how busy the machine is; %s",
							name, c.src(a), c.src(n.Args[2-i]), c.src(draw), fact.Via, fix),
					})
					break
				}
			}
		case *ast.CommClause:
			timer := c.timerCase(n)
			if timer == nil || !c.failsInStmts(n.Body) {
				continue
			}
			c.pass.Report(analysis.Diagnostic{
				Pos: timer.Pos(), End: timer.End(),
				Message: fmt.Sprintf("real-time verdict: %s fails when the real timer %s fires first while %s draws (%s): a jittered wait can outlast it on a busy machine; %s",
					name, c.src(timer), c.src(draw), fact.Via, fix),
			})
		}
	}
}

// isOrder reports whether op compares order.
func isOrder(op token.Token) bool {
	return op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ
}

// testDraw returns the first random wait of the code under test that the test draws: a call
// of a random function (one that draws itself or calls one that does) whose result is a
// duration or a channel of times, or such a function handed over as a value
// (retry.DelayType(retry.RandomDelay)). A test that only runs code that draws somewhere
// (an ID, a shuffle) is not waiting on a draw.
func (c *checker) testDraw(fd cursor) (ast.Expr, *randomFunc) {
	for cur := range fd.Preorder((*ast.CallExpr)(nil), (*ast.Ident)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			// Whether it returns a wait, asked first, is cheaper than its fact and rules out most calls.
			if t := c.typeOf(n); t == nil || !isWait(t) {
				continue
			}
			if f, inTest := c.randomCallee(n); f != nil && !inTest && f.Hops <= 1 {
				return n.Fun, f
			}
		case *ast.Ident:
			fn, ok := c.pass.TypesInfo.Uses[n].(*types.Func)
			if _, called := cur.Parent().Node().(*ast.CallExpr); !ok || called && cur.Parent().Node().(*ast.CallExpr).Fun == n {
				continue
			}
			if sel, ok := cur.Parent().Node().(*ast.SelectorExpr); ok && sel.Sel == n {
				if call, ok := cur.Parent().Parent().Node().(*ast.CallExpr); ok && call.Fun == sel {
					continue
				}
			}
			if fn.Signature().Results().Len() != 1 || !isWait(fn.Signature().Results().At(0).Type()) {
				continue // as for a call: the result's type first
			}
			if f := c.randomFact(fn); f != nil && f.Hops <= 1 && !(fn.Pkg() == c.pass.Pkg && c.isTestFile(fn.Pos())) {
				return n, f
			}
		}
	}
	return nil, nil
}

// isWait reports whether t is a wait: a time.Duration, or a channel of time.Time.
func isWait(t types.Type) bool {
	if isNamed(t, "time", "Duration") {
		return true
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ok && isTimeTime(ch.Elem())
}

// isElapsed reports whether e is a span of wall-clock time: time.Since(x), x.Sub(y) of a
// reading of the clock, or a local variable given one of these, seen through conversions and
// Duration methods (Seconds, Milliseconds).
func (c *checker) isElapsed(e ast.Expr, depth int) bool {
	e = c.stripConversions(e)
	if v := c.localVar(e); v != nil && depth < 2 {
		init := c.onlyAssignment(v)
		return init != nil && c.isElapsed(init, depth+1)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	if c.isTimeFunc(call, "Since") {
		return true
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch {
	case sel.Sel.Name == "Sub" && isTimeTime(c.typeOf(sel.X)) && c.isNow(sel.X):
		return true
	case isNamed(c.typeOf(sel.X), "time", "Duration") && len(call.Args) == 0:
		return c.isElapsed(sel.X, depth)
	}
	return false
}

// timerCase returns the time.After call a select case receives from, or nil.
func (c *checker) timerCase(cc *ast.CommClause) *ast.CallExpr {
	var recv ast.Expr
	switch s := cc.Comm.(type) {
	case *ast.ExprStmt:
		recv = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			recv = s.Rhs[0]
		}
	}
	u, ok := ast.Unparen(recv).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	call, ok := ast.Unparen(u.X).(*ast.CallExpr)
	if !ok || !c.isTimeFunc(call, "After") {
		return nil
	}
	return call
}

// failsInStmts reports whether any of stmts fails the test.
func (c *checker) failsInStmts(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		if c.failsIn(s) {
			return true
		}
	}
	return false
}

// sleepSumChance returns the chance, at least, that a test fails on a correct random
// function when it sleeps n draws of it in a counted loop and fails when the elapsed time
// passes a constant limit: the sum of n uniform draws passes it (the test's own work only
// adds time). It returns false unless that is the test's shape.
func (c *checker) sleepSumChance(fd cursor, cmp *ast.BinaryExpr, elapsed, limit ast.Expr) (string, bool) {
	failsWhenSlow := (cmp.X == elapsed) == (cmp.Op == token.GTR || cmp.Op == token.GEQ)
	tv := c.pass.TypesInfo.Types[limit]
	if !failsWhenSlow || tv.Value == nil {
		return "", false
	}
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		sleep := cur.Node().(*ast.CallExpr)
		if !c.isTimeFunc(sleep, "Sleep") || len(sleep.Args) != 1 {
			continue
		}
		arg, ok := ast.Unparen(sleep.Args[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		fact := c.randomCall(arg)
		if fact == nil {
			continue
		}
		loop, varies, ok := c.repeatingLoop(cur, sleep)
		n := c.loopCount(loop)
		if !ok || varies != "" || n < 1 {
			continue
		}
		lo, hi, ok := c.siteBounds(&drawSite{call: arg, fact: fact})
		loV, ok1 := lo.constant()
		hiV, ok2 := hi.constant()
		if !ok || !ok1 || !ok2 || hiV <= loV {
			continue
		}
		perDraw := c.constValue(limit) / float64(n)
		r := (perDraw - (loV+hiV)/2) / (hiV - loV)
		if r <= 0 {
			return fmt.Sprintf(" (%d sleeps of %s average more than the limit allows half the time or more)", n, c.src(arg.Fun)), true
		}
		p, method, err := sizing.MeanUniformTail(n, r)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf(" (the %d sleeps of %s alone pass the limit with probability %.3g, %s, one-sided)", n, c.src(arg.Fun), p/2, method), true
	}
	return "", false
}
