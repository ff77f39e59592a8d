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

// meanChain is what a test did to a mean on its way to a comparison.
type meanChain struct {
	center ast.Expr // the expression subtracted from the mean, if any
	abs    bool     // math.Abs or Duration.Abs taken
}

// tolerances reports comparisons of a mean or a count of distinct draws with a typed limit.
func (c *checker) tolerances(f *testFlow, tb string) {
	for cur := range f.fn.Preorder((*ast.BinaryExpr)(nil)) {
		e := cur.Node().(*ast.BinaryExpr)
		if e.Op != token.QUO {
			continue
		}
		if site := f.sums[c.localVar(c.stripConversions(e.X))]; site != nil && !c.pinned(site.call) {
			c.meanUse(f, cur, site, meanChain{}, tb, 0)
		}
	}
	for _, l := range f.lens {
		if l.site == nil || !c.pinned(l.site.call) {
			c.countUse(f, l, tb)
		}
	}
}

// meanUse follows a mean of draws up to the comparison that checks it.
func (c *checker) meanUse(f *testFlow, cur cursor, site *drawSite, ch meanChain, tb string, depth int) {
	for depth < 4 {
		p := cur.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(c.pass.TypesInfo, pn).(*types.Func); ok && fn.Name() == "Abs" {
				ch.abs = true
			} else if !c.isConversion(pn) {
				return
			}
		case *ast.SelectorExpr:
			call, ok := p.Parent().Node().(*ast.CallExpr)
			if !ok || pn.Sel.Name != "Abs" || call.Fun != pn {
				return
			}
			ch.abs, p = true, p.Parent()
		case *ast.BinaryExpr:
			switch pn.Op {
			case token.SUB:
				ch.center = pn.Y
				if pn.Y == cur.Node() {
					ch.center = pn.X
				}
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				limit := pn.Y
				if pn.Y == cur.Node() {
					limit = pn.X
				}
				if c.handTyped(limit, 0) && c.guardsFailure(p) {
					c.reportMeanTolerance(f, pn, limit, site, ch, tb)
				}
				return
			default:
				return
			}
		case *ast.AssignStmt:
			if v := c.localVar(pn.Lhs[0]); v != nil && len(pn.Lhs) == 1 && pn.Rhs[0] == cur.Node() {
				for id := range f.fn.Preorder((*ast.Ident)(nil)) {
					if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
						c.meanUse(f, id, site, ch, tb, depth+1)
					}
				}
			}
			return
		default:
			return
		}
		cur = p
	}
}

// handTyped reports whether a limit is typed in by hand: it holds a number other than 0 and
// 1 (directly, or through constants and local variables of this package), and no call that
// could have derived it.
func (c *checker) handTyped(e ast.Expr, depth int) bool {
	lit, derived := false, false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if (n.Kind == token.INT || n.Kind == token.FLOAT) && n.Value != "0" && n.Value != "1" {
				lit = true
			}
		case *ast.CallExpr:
			if !c.isConversion(n) {
				derived = true
				return false
			}
		case *ast.Ident:
			switch o := c.pass.TypesInfo.Uses[n].(type) {
			case *types.Const:
				lit = lit || o.Pkg() == c.pass.Pkg
			case *types.Var:
				if v := c.localVar(n); v != nil && depth < 2 {
					if init := c.onlyAssignment(v); init != nil {
						if c.handTyped(init, depth+1) {
							lit = true
						} else if _, isCall := init.(*ast.CallExpr); isCall {
							derived = true
						}
					}
				}
			}
		}
		return true
	})
	return lit && !derived
}

// testSym names the non-random leaves of a test's expressions by their source text.
func testSym(e ast.Expr) (string, bool) { return text(e), true }

// siteBounds returns the bounds [lo, hi) of a site's distribution in the test's terms.
func (c *checker) siteBounds(s *drawSite) (lo, hi poly, ok bool) {
	if s.fact.Dist == nil || s.varies != "" {
		return nil, nil, false
	}
	args := make([]poly, len(s.call.Args))
	for i, a := range s.call.Args {
		l, ok := c.linearOf(a, testSym)
		if !ok || l.random() {
			return nil, nil, false
		}
		args[i] = l.b
	}
	lo, ok1 := substitute(s.fact.Dist.Lo, args)
	hi, ok2 := substitute(s.fact.Dist.Hi, args)
	return lo, hi, ok1 && ok2
}

// substitute replaces the parameters "$i" of p by args[i].
func substitute(p poly, args []poly) (poly, bool) {
	out := poly{}
	for m, v := range p {
		term := constPoly(v)
		if m != "" {
			var i int
			if _, err := fmt.Sscanf(m, "$%d", &i); err != nil || i >= len(args) || fmt.Sprintf("$%d", i) != m {
				return nil, false
			}
			term = args[i].scale(v)
		}
		out = out.add(term, 1)
	}
	return out, true
}

// meanRate returns the false-failure rate of a typed tolerance on the mean, when the
// distribution, the number of draws and the tolerance relative to the width are all known.
func (c *checker) meanRate(s *drawSite, limit ast.Expr, ch meanChain) (string, bool) {
	lo, hi, ok := c.siteBounds(s)
	lim, ok2 := c.linearOf(limit, testSym)
	if !ok || !ok2 || lim.random() || s.n < 1 {
		return "", false
	}
	width, mu := hi.add(lo, -1), hi.add(lo, 1).scale(0.5)
	tol := lim.b
	if ch.center == nil {
		tol = tol.add(mu, -1) // mean > limit: the tolerance is limit - mu
	} else if center, ok := c.linearOf(ch.center, testSym); !ok || !center.b.equal(mu) {
		return "", false
	}
	r, ok := tol.ratio(width)
	if !ok {
		return "", false
	}
	r = math.Abs(r)
	p, method, err := sizing.MeanUniformTail(s.n, r)
	if err != nil {
		return "", false
	}
	sides := "two-sided"
	if !ch.abs {
		p, sides = p/2, "one-sided"
	}
	note := ""
	if w, ok := width.constant(); isInteger(c.typeOf(s.call)) {
		if ok && w < 1e6 {
			return "", false // too coarse a grid for the continuous rate
		}
		note = ", the integer values taken as continuous"
	}
	return fmt.Sprintf("a tolerance of %.4g of the width, %s, fails a correct %s with probability %.3g (%s%s)",
		r, sides, c.src(s.call.Fun), p, method, note), true
}

// isInteger reports whether t is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

func (c *checker) reportMeanTolerance(f *testFlow, cmp *ast.BinaryExpr, limit ast.Expr, s *drawSite, ch meanChain, tb string) {
	rate, ok := c.meanRate(s, limit, ch)
	if !ok {
		rate = "its false-failure rate is whatever that number happens to give"
	}
	check, _ := c.spreadCheck(f, s, tb)
	f.tolerated = true
	c.pass.Report(analysis.Diagnostic{
		Pos: cmp.Pos(), End: cmp.End(),
		Message: fmt.Sprintf("hand-sized tolerance: %s compares the mean of draws of %s with a typed limit: %s; size the limit from a chosen rate: %s",
			c.src(cmp), c.src(s.call.Fun), rate, check),
	})
}

// countUse reports a count of distinct draws compared with a limit that is not derived.
func (c *checker) countUse(f *testFlow, l lenUse, tb string) {
	cmp, ok := l.cur.Parent().Node().(*ast.BinaryExpr)
	if !ok || !c.guardsFailure(l.cur.Parent()) {
		return
	}
	if l.site != nil && l.site.fact.Counter != "" {
		// len(ids) != 900000 over IDs that hold a counter: they differ whatever is drawn.
		c.reportCounted(f.fn, cmp, l.site.call, l.site.fact, l.site.n, tb)
		return
	}
	limit := cmp.Y
	if cmp.Y == l.call {
		limit = cmp.X
	}
	if c.derived(limit) {
		return
	}
	switch cmp.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
	default:
		return
	}
	rate, ok := c.countRate(l, cmp, limit)
	if !ok {
		rate = "its false-failure rate is whatever that number happens to give"
	}
	check, _ := c.spreadCheck(f, l.site, tb)
	c.pass.Report(analysis.Diagnostic{
		Pos: cmp.Pos(), End: cmp.End(),
		Message: fmt.Sprintf("hand-sized tolerance: %s compares the distinct draws of %s with a limit that nothing derived: %s; size the limit from a chosen rate: %s",
			c.src(cmp), c.src(l.site.call.Fun), rate, check),
	})
}

// guardsFailure reports whether the comparison at cur can fail the test: anything but the
// condition of an if statement whose branches only log (a number that is only reported
// cannot flake).
func (c *checker) guardsFailure(cur cursor) bool {
	if ifs, ok := conditionRoot(cur).Parent().Node().(*ast.IfStmt); ok {
		return c.failsIn(ifs.Body) || (ifs.Else != nil && c.failsIn(ifs.Else))
	}
	return true
}

// failsIn reports whether n calls anything but a logging function (t.Log, t.Logf, fmt and
// log printing): t.Error, t.Fatal, a helper, panic.
func (c *checker) failsIn(n ast.Node) bool {
	fails := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !c.isConversion(call) && !c.onlyLogs(call) {
			fails = true
		}
		return !fails
	})
	return fails
}

// onlyLogs reports whether call prints without failing: t.Log, t.Logf, fmt's and log's Print
// functions, and the formatting of their arguments.
func (c *checker) onlyLogs(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "testing":
		return fn.Name() == "Log" || fn.Name() == "Logf"
	case "fmt":
		return true
	case "log":
		return strings.HasPrefix(fn.Name(), "Print")
	}
	return false
}

// derived reports whether a limit comes from a call (a sizing function, say).
func (c *checker) derived(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !c.isConversion(call) {
			found = true
		}
		if v := c.localVarIdent(n); v != nil {
			if init := c.onlyAssignment(v); init != nil {
				if _, ok := init.(*ast.CallExpr); ok && !c.isConversion(init.(*ast.CallExpr)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func (c *checker) localVarIdent(n ast.Node) *types.Var {
	if id, ok := n.(*ast.Ident); ok {
		return c.localVar(id)
	}
	return nil
}

// countRate returns the false-failure rate of a typed limit on the number of distinct values
// among the draws, when the comparison is a test's failure condition ("if len(set) < n/2 {
// t.Error }") and the draws, their number of possible values and the limit are known.
func (c *checker) countRate(l lenUse, cmp *ast.BinaryExpr, limit ast.Expr) (string, bool) {
	if _, ok := l.cur.Parent().Parent().Node().(*ast.IfStmt); !ok || l.site.n < 2 {
		return "", false
	}
	tv := c.pass.TypesInfo.Types[limit]
	lo, hi, ok := c.siteBounds(l.site)
	if !ok || tv.Value == nil {
		return "", false
	}
	width, ok := hi.add(lo, -1).constant()
	if !ok || width < 1 {
		return "", false
	}
	w := math.Floor(width)
	if !isInteger(c.typeOf(l.site.call)) {
		w = 1 << 53 // the floats a Float64 draw can take
	}
	n, lim := l.site.n, c.constValue(limit)
	op := cmp.Op
	if cmp.X != l.call { // limit OP len(C): turn it round
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ}[op]
	}
	var m int // fail when the repeats R = n - distinct reach m
	switch {
	case op == token.LSS:
		m = n - int(math.Ceil(lim)) + 1
	case op == token.LEQ:
		m = n - int(math.Floor(lim))
	case op == token.NEQ && int(lim) == n:
		m = 1
	default:
		return "", false
	}
	p, method, err := sizing.RepeatsTail(w, n, m)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("it fails a correct %s when %d or more of %d draws repeat, with probability %.3g (%s)",
		c.src(l.site.call.Fun), m, n, p, method), true
}
