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
)

// minCheckN is the smallest sample spread.Check can size at its default false-failure rate
// of 1e-9 (below it the order-pattern checks cannot fail at that rate): a suggested fix never
// hands Check fewer draws. TestMinCheckN keeps it equal to what package spread says.
const minCheckN = 14

// tests runs the findings on tests: blind tests and hand-sized tolerances.
func (c *checker) tests() {
	for _, t := range c.testFuncs() {
		fd, tb := t.cur, t.tb
		c.chanceVerdicts(fd, tb)
		c.proportions(fd, tb)
		c.categoryTallies(fd, tb)
		c.blindTexts(fd, tb)
		c.blindPicks(fd, tb)
		c.blindForms(fd, tb)
		c.countedKeys(fd, tb)
		c.helperSamples(fd, tb)
		c.blindVars(fd, tb)
		c.realGaps(fd, tb)
		f := c.newFlow(fd)
		f.findSites()
		if f.spread || len(f.sites) == 0 {
			continue
		}
		f.followSites()
		if f.spread {
			continue
		}
		c.tolerances(f, tb)
		switch {
		case f.breaker == "" && len(f.sites) > 0 && !f.tolerated:
			c.reportBlind(f, tb)
		case f.breaker != "":
			if g := c.blindSite(f); g != nil {
				c.reportBlind(g, tb)
			}
		}
	}
}

// reassignedFunc reports whether call calls a local func variable given more than one value:
// the same text calls different functions.
func (c *checker) reassignedFunc(call *ast.CallExpr) bool {
	return len(c.localFuncValues(c.localVar(call.Fun))) > 1
}

// blindSite follows each draw site of a test that is not blind as a whole on its own, and
// returns the flow of the first one that only meets bounds checks, when no other site that
// draws the same thing (the same call, unless each call moves a state) meets a sharper check:
// a test that pins calcSleep(0) exactly and checks calcSleep(1) only against bounds is blind
// for calcSleep(1).
func (c *checker) blindSite(f *testFlow) *testFlow {
	sites := f.sites
	flows := make([]*testFlow, len(sites))
	for i, s := range sites {
		g := c.newFlow(f.fn)
		g.sites = []*drawSite{s}
		g.followSites()
		flows[i] = g
	}
	var blind []*testFlow
	for i, g := range flows {
		if g.breaker != "" || g.spread || len(g.bounds) == 0 {
			continue
		}
		_, _, stateful := c.statefulCall(sites[i].call)
		sharp := false
		for j, h := range flows {
			if j != i && h.breaker != "" && !stateful && text(sites[j].call) == text(sites[i].call) && !c.reassignedFunc(sites[i].call) &&
				!otherValues(sites[i], sites[j]) {
				sharp = true
			}
		}
		if !sharp {
			blind = append(blind, g)
		}
	}
	if len(blind) == 0 {
		return nil
	}
	if s := blind[0].sites[0]; s.once {
		s.n = len(blind)
	}
	return blind[0]
}

// otherValues reports whether two sites that make the same call read a loop variable of two
// different loops: calcDelay(opts, i) checked against bounds for i from 1 to 5 and pinned
// exactly for i from 6 on (where the delay is capped) draws at other arguments (azcore's
// TestCalcDelay), so the exact check is no sharper check of the first.
func otherValues(a, b *drawSite) bool {
	return a.varies != "" && b.varies != "" && a.loop.Node() != b.loop.Node()
}

// testingParam returns the name of a test function's *testing.T, *testing.F or testing.TB
// parameter, or "" for a function that has none.
func (c *checker) testingParam(fd *ast.FuncDecl) string {
	for _, field := range fd.Type.Params.List {
		t := c.typeOf(field.Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if (isNamed(t, "testing", "T") || isNamed(t, "testing", "TB") || isNamed(t, "testing", "F") || isGocheckC(t)) && len(field.Names) == 1 {
			return field.Names[0].Name
		}
	}
	return ""
}

// gocheckPaths are the import paths of gocheck, whose suites' test methods take a *check.C.
var gocheckPaths = map[string]bool{"gopkg.in/check.v1": true, "github.com/go-check/check": true}

// isGocheckC reports whether t is gocheck's C, the context of a suite's test method (juju's
// tests: func (*suite) TestX(c *gc.C)).
func isGocheckC(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && gocheckPaths[n.Obj().Pkg().Path()] && n.Obj().Name() == "C"
}

// isGocheckBound reports whether call is gocheck's c.Assert or c.Check of arg, the obtained
// value, with an order checker (juju/testing/checkers' GreaterThan or LessThan): a bound.
func (c *checker) isGocheckBound(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	recv := fn.Signature().Recv()
	if recv == nil || len(call.Args) < 2 || call.Args[0] != arg || fn.Name() != "Assert" && fn.Name() != "Check" {
		return false
	}
	if p, ok := recv.Type().(*types.Pointer); !ok || !isGocheckC(p.Elem()) {
		return false
	}
	v, ok := c.objOf(call.Args[1]).(*types.Var)
	return ok && v.Pkg() != nil && strings.HasSuffix(v.Pkg().Path(), "/testing/checkers") && (v.Name() == "GreaterThan" || v.Name() == "LessThan")
}

// siteCursor returns the cursor of a draw site's call.
func (f *testFlow) siteCursor(s *drawSite) cursor {
	cur, _ := f.fn.FindNode(s.call)
	return cur
}

// reportBlind reports a test whose draws meet only bounds checks, or nothing.
func (c *checker) reportBlind(f *testFlow, tb string) {
	s := f.sites[0]
	what := "asserts nothing about them"
	if len(f.bounds) > 0 {
		what = "checks only their bounds (" + f.boundsText() + ")"
	} else if s.once {
		return // a draw with no loop that the test does nothing with: a test of something else
	}
	times := "repeatedly"
	switch {
	case s.once && s.n == 1:
		times, what = "once", strings.ReplaceAll(what, "their", "its")
	case s.n > 0:
		times = fmt.Sprintf("%d times", s.n)
	}
	if s.varies != "" {
		times += ", with an argument that changes on each pass (" + s.varies + "),"
	}
	check, fix := c.spreadCheck(f, s, tb)
	if isSpecWithoutTB(f.fn, tb) {
		check, fix = check+", in a Go test function (this Ginkgo has no GinkgoTB)", nil
	}
	drawn := c.src(s.call.Fun)
	if s.drawer != nil || s.inner {
		drawn += " (" + s.fact.Via + ")"
	}
	d := analysis.Diagnostic{
		Pos: s.call.Pos(), End: s.call.End(),
		Message: fmt.Sprintf("blind test: %s draws %s %s and %s, so a constant or a collapsed range passes it; check the spread: %s",
			c.testName(f.fn), drawn, times, what, check),
		SuggestedFixes: fix,
	}
	c.pass.Report(d)
}

// boundsText writes the bounds the test checks, each whole condition once, in the order of
// the source (next >= min, then next < max in an assertion of its own).
func (f *testFlow) boundsText() string {
	var conds []string
	seen := map[ast.Node]bool{}
	for _, b := range f.bounds {
		w := f.wholeCondition(b)
		if seen[w] {
			continue
		}
		seen[w] = true
		conds = append(conds, f.c.oneLine(w))
	}
	return strings.Join(conds, ", ")
}

// wholeCondition returns the condition a bounds check is part of: the comparison, and the
// others it is joined to by && and || (d < 0 || d >= time.Second), with their negations and
// parentheses, so the message shows every bound the test checks and not the first alone.
func (f *testFlow) wholeCondition(n ast.Node) ast.Node {
	cur, ok := f.fn.FindNode(n)
	if !ok {
		return n
	}
	return conditionRoot(cur).Node()
}

// conditionRoot returns the cursor of the condition that the expression at cur is part of,
// through parentheses, negations, && and ||.
func conditionRoot(cur cursor) cursor {
	for p := cur.Parent(); ; cur, p = p, p.Parent() {
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.UnaryExpr:
			if pn.Op == token.NOT {
				continue
			}
		case *ast.BinaryExpr:
			if pn.Op == token.LOR || pn.Op == token.LAND {
				continue
			}
		}
		return cur
	}
}

// spreadCheck returns the spread.Check call that would test a site's draws, and a suggested
// fix that adds it when that is safe: the draws are in a slice, the distribution is known,
// and there are enough of them for Check to size its limits.
func (c *checker) spreadCheck(f *testFlow, s *drawSite, tb string) (string, []analysis.SuggestedFix) {
	dist, known := c.siteDist(s)
	if !known {
		dist = "spread.Uniform(lo, hi)"
	}
	xs := "xs"
	var slice types.Object
	for v, site := range f.slices {
		if site == s {
			xs, slice = v.Name(), v
		}
	}
	n := "1000"
	if s.n >= minCheckN {
		n = fmt.Sprint(s.n)
	}
	result := c.typeName(firstValue(c.typeOf(s.call)), s.call)
	until := ""
	if isTimeTime(firstValue(c.typeOf(s.call))) {
		// A time is no sample spread can check; its distance from now is a time.Duration,
		// with the draw's spread (go-redis's expiry, now plus a jittered lifetime).
		result, until = "time.Duration", "time.Until"
	}
	ret := func(e string) string { return c.returnDraw(s.call, e, tb, until) }
	if s.varies != "" {
		// The draws at different arguments are no sample of one distribution: check one
		// argument's draws (or each argument's), and offer no fix.
		return fmt.Sprintf("at one value of %s (or each), xs := spread.Draw(%s, func() %s { %s }); spread.Check(%s, xs, %s)",
			s.varies, n, result, ret(c.src(s.call)), tb, dist), nil
	}
	if s.drawer != nil {
		// The value is drawn by one call and read by another: each of the sample's draws
		// makes a fresh value, draws it and reads it, as each pass of the test does.
		return fmt.Sprintf("make each value afresh as the test does, then draw and read it: xs := spread.Draw(%s, func() %s { ...; %s; %s }); spread.Check(%s, xs, %s)",
			n, result, c.src(s.drawer), ret(c.src(s.call)), tb, dist), nil
	}
	if sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr); ok && types.IsInterface(c.typeOf(sel.X)) && c.objOf(sel.X) != nil {
		// A method of an interface may move the state of the value behind it (temporal's
		// Retrier raises its attempt on every NextBackOff), and a copy of an interface shares
		// that value: each draw makes the value afresh, as the test does, and no fix is safe.
		return fmt.Sprintf("%s is a method of an interface, which may move %s's state on every call, so make %s afresh for each draw as the test makes it: xs := spread.Draw(%s, func() %s { %s := ...; %s }); spread.Check(%s, xs, %s)",
			sel.Sel.Name, c.src(sel.X), c.src(sel.X), n, result, c.src(sel.X), ret(c.src(s.call)), tb, dist), nil
	}
	if recv, method, ok := c.statefulCall(s.call); ok {
		// Each call moves the state (the next attempt's interval): the draws are no sample of
		// one distribution, so the check draws from copies of one state, and no fix is safe.
		b := freshName(s.call, "b", "state")
		return fmt.Sprintf("%s changes %s on every call, so draw from copies of one state: xs := spread.Draw(%s, func() %s { %s := %s; %s }); spread.Check(%s, xs, %s)",
			method, c.src(recv), n, result, b, c.copyOf(recv), ret(b+"."+method+c.src(s.call)[len(c.src(s.call.Fun)):]), tb, dist), nil
	}
	if slice == nil {
		return fmt.Sprintf("xs := spread.Draw(%s, func() %s { %s }); spread.Check(%s, xs, %s)",
			n, result, ret(c.src(s.call)), tb, dist), nil
	}
	check := fmt.Sprintf("spread.Check(%s, %s, %s)", tb, xs, dist)
	if !known || s.n < minCheckN {
		return check, nil
	}
	fix := "check the draws with spread.Check against the distribution read from " + c.src(s.call.Fun) + "'s body (declare what it should draw)"
	return check, c.insertCheck(s.loop.Node(), check, fix)
}

// firstValue returns the value a draw of type t gives a sample: t, or the first value of a
// tuple (d, err := JitterErr(base); val, stop := b.Next()).
func firstValue(t types.Type) types.Type {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		return tuple.At(0).Type()
	}
	return t
}

// returnDraw writes the statements that return one draw of call, whose source is e, from a
// closure handed to spread.Draw, which takes a func() T: "return e" for one result; for
// more, the first is returned and an error last fails the test (a closure that returned
// (T, error) would not compile, and an error would be a failure of the code, not a draw).
// conv, when set, is a function the draw is returned through (time.Until for a time).
func (c *checker) returnDraw(call *ast.CallExpr, e, tb, conv string) string {
	wrap := func(v string) string {
		if conv == "" {
			return v
		}
		return conv + "(" + v + ")"
	}
	tuple, ok := c.typeOf(call).(*types.Tuple)
	if !ok || tuple.Len() < 2 {
		return "return " + wrap(e)
	}
	v := freshName(call, "v", "x", "draw")
	rest := strings.Repeat(", _", tuple.Len()-1)
	if !isNamedError(tuple.At(tuple.Len() - 1).Type()) {
		return fmt.Sprintf("%s%s := %s; return %s", v, rest, e, wrap(v))
	}
	err := freshName(call, "err", "drawErr")
	rest = strings.Repeat(", _", tuple.Len()-2) + ", " + err
	return fmt.Sprintf("%s%s := %s; if %s != nil { %s.Fatal(%s) }; return %s", v, rest, e, err, tb, err, wrap(v))
}

// statefulCall returns the receiver and the name of a call to a method with a pointer
// receiver (one that may change its receiver's state, as a backoff's NextBackOff does).
func (c *checker) statefulCall(call *ast.CallExpr) (recv ast.Expr, method string, ok bool) {
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if !isSel || fn == nil || fn.Signature().Recv() == nil {
		return nil, "", false
	}
	if _, ptr := fn.Signature().Recv().Type().(*types.Pointer); !ptr {
		return nil, "", false
	}
	return sel.X, sel.Sel.Name, true
}

// freshName returns the first of names that no identifier in n spells.
func freshName(n ast.Node, names ...string) string {
	used := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	for _, name := range names {
		if !used[name] {
			return name
		}
	}
	return names[len(names)-1] + "1"
}

// copyOf returns the expression that copies the value recv points at (or recv itself, when it
// is not a pointer).
func (c *checker) copyOf(recv ast.Expr) string {
	if _, ptr := c.typeOf(recv).(*types.Pointer); ptr {
		return "*" + c.src(recv)
	}
	return c.src(recv)
}

// siteDist renders the distribution of a site's draws as spread source, when its function's
// distribution is known and its bounds can be written with the call's arguments in the type
// of the draws: spread.Uniform(base/2, base), spread.Uniform[float64](0, 1) (untyped
// constants alone would declare ints), spread.Uniform(0, time.Duration(x)).
func (c *checker) siteDist(s *drawSite) (string, bool) {
	if s.fact.Dist == nil {
		return "", false
	}
	t := c.typeOf(s.call)
	lo, okLo := c.bound(s, s.fact.Dist.Lo, t)
	hi, okHi := c.bound(s, s.fact.Dist.Hi, t)
	if !okLo || !okHi {
		return "", false
	}
	if _, isConst := s.fact.Dist.Lo.constant(); isConst {
		if _, isConst := s.fact.Dist.Hi.constant(); isConst {
			return "spread.Uniform[" + c.typeName(t, s.call) + "](" + lo + ", " + hi + ")", true
		}
	}
	return "spread.Uniform(" + lo + ", " + hi + ")", true
}

// bound renders one bound of a site's distribution in type t: a constant t can hold, or an
// expression of the call's arguments, converted to t when it has another type.
func (c *checker) bound(s *drawSite, p poly, t types.Type) (string, bool) {
	args := make([]string, len(s.call.Args))
	for i, a := range s.call.Args {
		args[i] = c.src(a)
	}
	text, ok := p.render(args)
	if !ok {
		return "", false
	}
	if v, isConst := p.constant(); isConst {
		return text, !isInteger(t) || v == math.Trunc(v)
	}
	for m := range p { // one monomial: render refuses more
		var i int
		if _, err := fmt.Sscanf(m, "$%d", &i); err == nil && i < len(s.call.Args) && !types.Identical(c.typeOf(s.call.Args[i]), t) {
			return c.typeName(t, s.call) + "(" + text + ")", true
		}
	}
	return text, true
}

// typeName writes t as the file holding n spells it: its package by the name the file imports
// it under.
func (c *checker) typeName(t types.Type, n ast.Node) string {
	file := c.fileOf(n.Pos())
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		if name := importName(file, p.Path()); name != "" {
			return name
		}
		return p.Name()
	})
}

// insertCheck is a suggested fix that adds check after stmt, and imports package spread.
// The distribution it declares is the one the code draws: a fix cannot know what it should
// draw, so its message says to declare that.
func (c *checker) insertCheck(stmt ast.Node, check, message string) []analysis.SuggestedFix {
	file := c.fileOf(stmt.Pos())
	name := importName(file, spreadPath)
	edits := []analysis.TextEdit{}
	if name == "" {
		edit, ok := addImport(file, spreadPath)
		if !ok {
			return nil
		}
		edits = append(edits, edit)
	} else if name != "spread" {
		check = name + strings.TrimPrefix(check, "spread") // spread.Check(t, xs, spread.Uniform(...))
		check = strings.ReplaceAll(check, " spread.", " "+name+".")
	}
	indent := strings.Repeat("\t", c.pass.Fset.Position(stmt.Pos()).Column-1)
	edits = append(edits, analysis.TextEdit{Pos: stmt.End(), End: stmt.End(), NewText: []byte("\n" + indent + check)})
	return []analysis.SuggestedFix{{Message: message, TextEdits: edits}}
}
