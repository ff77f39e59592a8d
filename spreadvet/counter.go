package spreadvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// markCounters sets Counter on the package's random functions whose result holds a counter:
// a state (a package variable or a field of the receiver) that the function advances on each
// call and returns a part of (nats-io/nuid's Next adds n.inc to n.seq and writes n.seq into the
// ID; shortid's getMsAndCounter raises sid.count; uuid's getV7Time keeps lastV7time rising), or
// that a function it calls advances so. Such IDs differ from one call to the next whatever is
// drawn: a test that checks only that they differ cannot see the draws.
func (c *checker) markCounters(decls []*ast.FuncDecl) {
	counters := map[*types.Func]heldCounter{}
	var rest []*ast.FuncDecl // in the order of declaration, so that messages do not vary
	calls := map[*ast.FuncDecl][]keptCall{}
	for _, fd := range decls {
		if c.isTestFile(fd.Pos()) {
			continue
		}
		if h := c.advancedState(fd); h.state != "" {
			counters[c.pass.TypesInfo.Defs[fd.Name].(*types.Func)] = h
		} else {
			rest, calls[fd] = append(rest, fd), keptCalls(fd)
		}
	}
	// Each round applies the counters found to the facts, so that a call through an interface
	// (whose implementation's fact answers it) sees them in the next.
	for changed := true; changed; {
		changed = false
		for _, fd := range rest {
			fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if counters[fn].state != "" {
				continue
			}
			if s := c.callsCounter(calls[fd], counters); s != "" {
				counters[fn], changed = heldCounter{state: s}, true
			}
		}
		for fn, h := range counters { // each fact is set once, whatever the order
			if f := c.random[fn]; f != nil && f.Counter == "" {
				g := *f // a fact may be shared with the function it wraps
				g.Counter = h.state
				c.random[fn], changed = &g, true
			}
		}
	}
}

// heldCounter is a counter a function holds: the state, and which of its results hold it
// (nil: any of them).
type heldCounter struct {
	state   string
	results []bool
}

// A keptCall is a call of a function's body, with the assignment it is the one value of.
type keptCall struct {
	call   *ast.CallExpr
	assign *ast.AssignStmt
}

// keptCalls returns the calls of a function's body, in one walk.
func keptCalls(fd *ast.FuncDecl) []keptCall {
	assigned := map[*ast.CallExpr]*ast.AssignStmt{}
	var out []keptCall
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					assigned[call] = n
				}
			}
		case *ast.CallExpr:
			out = append(out, keptCall{call: n})
		}
		return true
	})
	for i := range out {
		out[i].assign = assigned[out[i].call] // an assignment is visited before its call
	}
	return out
}

// callsCounter returns the state of the first counter that one of a function's calls (kept)
// reaches and keeps, declared in the package or known by its fact, or "". A call whose
// results that hold the counter are all left out keeps none of it (gofrs/uuid's
// NewV6AtTime takes timeNow, _, err from getClockSequence, whose second result is the clock
// sequence).
func (c *checker) callsCounter(kept []keptCall, counters map[*types.Func]heldCounter) string {
	for _, k := range kept {
		if fn := typeutil.StaticCallee(c.pass.TypesInfo, k.call); fn != nil {
			if h := counters[fn]; h.state != "" && keepsResults(k.assign, h.results) {
				return h.state
			} else if f := c.randomFact(fn); f != nil && fn.Pkg() != c.pass.Pkg && f.Counter != "" {
				return f.Counter
			}
		} else if f := c.randomCall(k.call); f != nil && f.Counter != "" {
			return f.Counter // DefaultGenerator.NewV1(): the implementation's, once applied
		}
	}
	return ""
}

// advancedState returns the state a function advances and returns a part of, as written in
// its body (n.seq, lastV7time), or "": a package variable or a field of the receiver that
// is raised (x++, x += d, or given a value computed from itself, as lastV7time = now after
// now = lastV7time + 1) and read by what the function returns.
func (c *checker) advancedState(fd *ast.FuncDecl) heldCounter {
	if fd.Body == nil || fd.Type.Results.NumFields() == 0 {
		return heldCounter{} // what it returns holds the counter: a setter holds none
	}
	seen := map[string]bool{}
	for _, s := range c.stateWrites(fd) {
		if seen[text(s)] {
			continue // each state once, however often it is written
		}
		seen[text(s)] = true
		taint := c.taintFrom(fd, s)
		if !c.advances(fd, s, taint) {
			continue
		}
		if held := c.returnsTaint(fd, s, taint); slices.Contains(held, true) {
			return heldCounter{c.src(s), held}
		}
	}
	return heldCounter{}
}

// keepsResults reports whether a call keeps one of the results held marks: an assignment a
// of its results that gives one of them to a name, not to _, or any other use of the call (a
// nil a).
func keepsResults(a *ast.AssignStmt, held []bool) bool {
	if a == nil || len(a.Lhs) != len(held) {
		return true
	}
	for i, l := range a.Lhs {
		if id, isIdent := l.(*ast.Ident); held[i] && (!isIdent || id.Name != "_") {
			return true
		}
	}
	return false
}

// stateWrites returns the package variables and receiver fields a function assigns or
// raises.
func (c *checker) stateWrites(fd *ast.FuncDecl) []ast.Expr {
	var out []ast.Expr
	add := func(e ast.Expr) {
		if c.isState(fd, e) {
			out = append(out, e)
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			add(n.X)
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				add(l)
			}
		}
		return true
	})
	return out
}

// isState reports whether e is a number kept as a package variable or a field of fd's
// receiver (a slice that shrinks, a map that fills, is no counter).
func (c *checker) isState(fd *ast.FuncDecl, e ast.Expr) bool {
	t := c.typeOf(e)
	if t == nil {
		return false // _
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.ObjectOf(e).(*types.Var)
		return ok && !v.IsField() && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
			return false
		}
		recv := c.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		v, ok := c.pass.TypesInfo.ObjectOf(e.Sel).(*types.Var)
		return ok && v.IsField() && recv != nil && c.objOf(e.X) == recv
	}
	return false
}

// sameState reports whether e names the state s.
func (c *checker) sameState(e, s ast.Expr) bool {
	return c.objOf(e) != nil && c.objOf(e) == c.objOf(s) && text(e) == text(s)
}

// taintFrom returns the locals of a function whose value is computed from the state s: each
// local given a value that reads s or a local so computed, by assignment, an element's
// assignment (b[i] = digits[l%base]) or a loop's init, until nothing changes.
func (c *checker) taintFrom(fd *ast.FuncDecl, s ast.Expr) map[types.Object]bool {
	taint := map[types.Object]bool{}
	for changed := true; changed; {
		changed = false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			a, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			reads := false
			for _, r := range a.Rhs {
				reads = reads || c.readsState(r, s, taint)
			}
			if !reads && a.Tok != token.ASSIGN && a.Tok != token.DEFINE {
				reads = c.readsState(a.Lhs[0], s, taint) // x += d reads x
			}
			for _, l := range a.Lhs {
				root := l
				for ix, ok := ast.Unparen(root).(*ast.IndexExpr); ok; ix, ok = ast.Unparen(root).(*ast.IndexExpr) {
					root = ix.X
				}
				if v := c.localVar(root); v != nil && reads && !taint[v] {
					taint[v], changed = true, true
				}
			}
			return true
		})
	}
	return taint
}

// readsState reports whether e reads the state s or a tainted local. A position into other
// data (pool[poolPos:], buf[i]) is no part of the value read, unless the data is a constant
// table the counter is written with (digits[l%base]).
func (c *checker) readsState(e ast.Expr, s ast.Expr, taint map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			found = found || taint[c.pass.TypesInfo.Uses[n]]
		case *ast.IndexExpr:
			if c.pass.TypesInfo.Types[n.X].Value == nil {
				found = found || c.readsState(n.X, s, taint)
				return false
			}
			return !found
		case *ast.SliceExpr:
			found = found || c.readsState(n.X, s, taint)
			return false
		case *ast.SelectorExpr, *ast.ParenExpr:
		default:
			return !found
		}
		if x, ok := n.(ast.Expr); ok && c.sameState(x, s) {
			found = true
		}
		return !found
	})
	return found
}

// advances reports whether the function raises s: s++, s += d, or s given a value computed
// from itself.
func (c *checker) advances(fd *ast.FuncDecl, s ast.Expr, taint map[types.Object]bool) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			found = found || n.Tok == token.INC && c.sameState(n.X, s)
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if !c.sameState(l, s) || i >= len(n.Rhs) {
					continue
				}
				found = found || n.Tok == token.ADD_ASSIGN || n.Tok == token.ASSIGN && c.readsState(n.Rhs[i], s, taint)
			}
		}
		return !found
	})
	return found
}

// returnsTaint marks the results of the function that a return statement gives the state s
// or a tainted local, or that are tainted named results it leaves.
func (c *checker) returnsTaint(fd *ast.FuncDecl, s ast.Expr, taint map[types.Object]bool) []bool {
	var names []*ast.Ident
	if fd.Type.Results != nil {
		for _, f := range fd.Type.Results.List {
			names = append(names, f.Names...)
		}
	}
	held := make([]bool, fd.Type.Results.NumFields())
	for _, r := range returnsOf(fd.Body) {
		for i, e := range r.Results {
			if i < len(held) && c.readsState(e, s, taint) {
				held[i] = true
			}
		}
		if len(r.Results) == 0 {
			for i, name := range names {
				held[i] = held[i] || taint[c.pass.TypesInfo.Defs[name]]
			}
		}
	}
	return held
}

// reportCounted reports a check that n results of a function with a counter differ: the
// counter keeps them apart whatever the function draws, so the check cannot see the draws.
func (c *checker) reportCounted(fd cursor, check ast.Node, call *ast.CallExpr, fact *randomFunc, n int, tb string) {
	results := "the results"
	if n > 1 {
		results = fmt.Sprintf("%d results", n)
	}
	fix := formFix // an ID of bytes: no character to index
	if isText(firstResult(c.typeOf(call))) {
		fix = "check what it draws: the spread of its characters over many calls: " + c.charSpread(call, tb)
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: check.Pos(), End: check.End(),
		Message: fmt.Sprintf("blind test: %s checks that %s of %s differ (%s), which its counter (%s) keeps true with every draw constant; %s",
			c.testName(fd), results, c.src(call.Fun), c.src(check), fact.Counter, fix),
	})
}

// countedKeys reports the results of a function with a counter kept as keys of a local map
// whose size alone is then checked (shortid's concurrent test: ids[id] = struct{}{}, then
// len(ids) != 900000): the counter makes them all distinct whatever is drawn. Numbers take
// the tolerance rule's path (countUse); this one is for text and other values.
func (c *checker) countedKeys(fd cursor, tb string) {
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fact, inTest := c.randomCallee(call)
		if fact == nil || inTest || fact.Counter == "" || isSample(firstResult(c.typeOf(call))) {
			continue
		}
		v := c.definedBy(cur)
		if v == nil || c.pinsClock(fd) {
			continue
		}
		for _, m := range c.keyedBy(fd, v) {
			if cmp := c.sizeChecked(fd, m); cmp != nil {
				loop, _, _ := c.repeatingLoop(cur, call)
				c.reportCounted(fd, cmp, call, fact, c.loopCount(loop), tb)
			}
		}
	}
}

// keyedBy returns the local maps that v is stored into as a key (m[v] = x).
func (c *checker) keyedBy(fd cursor, v *types.Var) []*types.Var {
	var out []*types.Var
	for id := range fd.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != v {
			continue
		}
		ix, ok := id.Parent().Node().(*ast.IndexExpr)
		if !ok || ix.Index != id.Node() {
			continue
		}
		a, ok := id.Parent().Parent().Node().(*ast.AssignStmt)
		if m := c.localVar(ix.X); ok && m != nil && len(a.Lhs) == 1 && a.Lhs[0] == ix {
			out = append(out, m)
		}
	}
	return out
}

// sizeChecked returns the comparison of len(m) that can fail the test, if there is one.
func (c *checker) sizeChecked(fd cursor, m *types.Var) *ast.BinaryExpr {
	for id := range fd.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != m {
			continue
		}
		call, ok := id.Parent().Node().(*ast.CallExpr)
		if !ok {
			continue
		}
		if b, isLen := typeutil.Callee(c.pass.TypesInfo, call).(*types.Builtin); !isLen || b.Name() != "len" {
			continue
		}
		cmp, ok := id.Parent().Parent().Node().(*ast.BinaryExpr)
		if ok && c.guardsFailure(id.Parent().Parent()) {
			return cmp
		}
	}
	return nil
}

// pinsClock reports whether a test hands the code a clock that stands still: a func literal
// that returns a time made of constants (gofrs/uuid's StaleEpoch tests give the generator
// epochFunc: func() time.Time { return time.Unix(0, 0) }). Such a test sets the counter to
// work on purpose: that its IDs differ is what it tests, not a check of the draws.
func (c *checker) pinsClock(fd cursor) bool {
	for cur := range fd.Preorder((*ast.FuncLit)(nil)) {
		lit := cur.Node().(*ast.FuncLit)
		if len(lit.Body.List) != 1 || lit.Type.Results.NumFields() != 1 {
			continue
		}
		ret, ok := lit.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 || !isTimeTime(c.typeOf(ret.Results[0])) {
			continue
		}
		if call, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr); ok && c.constantArgs(call) {
			return true
		}
	}
	return false
}

// constantArgs reports whether a call's arguments are all constants.
func (c *checker) constantArgs(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if c.pass.TypesInfo.Types[a].Value == nil {
			return false
		}
	}
	return true
}
