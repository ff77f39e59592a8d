package spreadvet

import (
	"fmt"
	"go/ast"
	"go/types"
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
	for _, fd := range c.funcDecls(true) {
		tb := c.testingParam(fd.Node().(*ast.FuncDecl))
		if tb == "" {
			continue
		}
		f := c.newFlow(fd)
		f.findSites()
		if f.spread || len(f.sites) == 0 {
			continue
		}
		for _, s := range f.sites {
			f.use(f.siteCursor(s), s)
		}
		if f.spread {
			continue
		}
		c.tolerances(f, tb)
		if f.breaker == "" {
			c.reportBlind(f, tb)
		}
	}
}

// testingParam returns the name of a test function's *testing.T, *testing.F or testing.TB
// parameter, or "" for a function that has none.
func (c *checker) testingParam(fd *ast.FuncDecl) string {
	for _, field := range fd.Type.Params.List {
		t := c.typeOf(field.Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if (isNamed(t, "testing", "T") || isNamed(t, "testing", "TB") || isNamed(t, "testing", "F")) && len(field.Names) == 1 {
			return field.Names[0].Name
		}
	}
	return ""
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
		what = "checks only their bounds (" + c.src(f.bounds[0]) + ")"
	}
	times := "repeatedly"
	if s.n > 0 {
		times = fmt.Sprintf("%d times", s.n)
	}
	check, fix := c.spreadCheck(f, s, tb)
	d := analysis.Diagnostic{
		Pos: s.call.Pos(), End: s.call.End(),
		Message: fmt.Sprintf("blind test: %s draws %s %s and %s, so a constant or a collapsed range passes it; check the spread: %s",
			f.fn.Node().(*ast.FuncDecl).Name.Name, c.src(s.call.Fun), times, what, check),
		SuggestedFixes: fix,
	}
	c.pass.Report(d)
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
	result := types.TypeString(c.typeOf(s.call), types.RelativeTo(c.pass.Pkg))
	if recv, method, ok := c.statefulCall(s.call); ok {
		// Each call moves the state (the next attempt's interval): the draws are no sample of
		// one distribution, so the check draws from copies of one state, and no fix is safe.
		b := freshName(s.call, "b", "state")
		return fmt.Sprintf("%s changes %s on every call, so draw from copies of one state: xs := spread.Draw(%s, func() %s { %s := %s; return %s.%s%s }); spread.Check(%s, xs, %s)",
			method, c.src(recv), n, result, b, c.copyOf(recv), b, method, c.src(s.call)[len(c.src(s.call.Fun)):], tb, dist), nil
	}
	if slice == nil {
		return fmt.Sprintf("xs := spread.Draw(%s, func() %s { return %s }); spread.Check(%s, xs, %s)",
			n, result, c.src(s.call), tb, dist), nil
	}
	check := fmt.Sprintf("spread.Check(%s, %s, %s)", tb, xs, dist)
	if !known || s.n < minCheckN {
		return check, nil
	}
	return check, c.insertCheck(s.loop.Node(), check)
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
// distribution is known and its bounds can be written with the call's arguments.
func (c *checker) siteDist(s *drawSite) (string, bool) {
	if s.fact.Dist == nil {
		return "", false
	}
	args := make([]string, len(s.call.Args))
	for i, a := range s.call.Args {
		args[i] = c.src(a)
	}
	lo, ok1 := s.fact.Dist.Lo.render(args)
	hi, ok2 := s.fact.Dist.Hi.render(args)
	if !ok1 || !ok2 {
		return "", false
	}
	return "spread.Uniform(" + lo + ", " + hi + ")", true
}

// insertCheck is a suggested fix that adds check after stmt, and imports package spread.
func (c *checker) insertCheck(stmt ast.Node, check string) []analysis.SuggestedFix {
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
	return []analysis.SuggestedFix{{Message: "check the draws with spread.Check", TextEdits: edits}}
}
