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

// maxTrials bounds the trials of a counted proportion that spreadvet evaluates, count by count.
const maxTrials = 1 << 24

// A tally is a local counter of a test, raised by one when a random trial has some outcome:
// "if timeoutNum > 1 { conflicts++ }" in a loop of 1000 rounds that draw.
type tally struct {
	v      *types.Var
	inc    cursor // the one increment
	trials int    // the passes of the loop around it
}

// A countCheck is one comparison of a tally with a typed limit: fails says whether the test
// fails at a count k. A check against each value of a table (InDelta(t, rate, ...) for rate
// of a range over []float64{0.01, 0.5, 0.99}) says so for each: over holds the values, and
// failsAt whether it fails at count k against the value x.
type countCheck struct {
	at      ast.Node
	fails   func(k int) bool
	over    []float64
	failsAt func(k int, x float64) bool
}

// proportions reports a test that counts how often a random outcome happens over a known
// number of trials and fails when the count, or its proportion, passes a typed limit: a
// binomial count passes any limit inside (0, trials) with a chance the limit was not sized
// from.
func (c *checker) proportions(fd cursor, tb string) {
	for _, t := range c.tallies(fd) {
		var checks []countCheck
		for id := range fd.Preorder((*ast.Ident)(nil)) {
			if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != t.v || id.Node().Pos() < t.inc.Node().End() {
				continue
			}
			if ch, ok := c.countCheckAt(id, t); ok {
				checks = append(checks, ch)
			}
		}
		if len(checks) > 0 {
			c.reportProportion(fd, t, checks, tb)
		}
	}
}

// tallies returns the test's counters of random outcomes: local numeric variables that start
// at 0 and are raised by one in exactly one place, under a condition, in a counted loop that
// draws (or that ranges over a slice filled by such a loop).
func (c *checker) tallies(fd cursor) []tally {
	incs := map[*types.Var][]cursor{}
	bad := map[*types.Var]bool{}
	for cur := range fd.Preorder((*ast.IncDecStmt)(nil), (*ast.AssignStmt)(nil), (*ast.UnaryExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.IncDecStmt:
			if v := c.localVar(n.X); v != nil {
				if n.Tok == token.INC {
					incs[v] = append(incs[v], cur)
				} else {
					bad[v] = true
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				v := c.localVar(l)
				if v == nil {
					continue
				}
				switch {
				case n.Tok == token.ADD_ASSIGN && len(n.Rhs) == 1 && c.isConst(n.Rhs[0], 1):
					incs[v] = append(incs[v], cur)
				case n.Tok == token.DEFINE && len(n.Rhs) == len(n.Lhs) && c.isConst(n.Rhs[i], 0):
				default:
					bad[v] = true
				}
			}
		case *ast.UnaryExpr:
			if v := c.localVar(n.X); v != nil && n.Op == token.AND {
				bad[v] = true
			}
		}
	}
	var out []tally
	for v, cs := range incs {
		if bad[v] || len(cs) != 1 || !isNumeric(v.Type()) {
			continue
		}
		loop, conditional := c.trialLoop(cs[0])
		if !conditional {
			continue
		}
		if n := c.trials(fd, loop); n >= 2 && n <= maxTrials {
			out = append(out, tally{v: v, inc: cs[0], trials: n})
		}
	}
	return out
}

// isConst reports whether e is the constant x.
func (c *checker) isConst(e ast.Expr, x float64) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && c.constValue(e) == x
}

// trialLoop returns the innermost loop around an increment, in the same function, and
// whether the increment is under a condition within it (an if or a case).
func (c *checker) trialLoop(inc cursor) (loop cursor, conditional bool) {
	for p := inc.Parent(); ; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.IfStmt, *ast.CaseClause, *ast.CommClause:
			conditional = true
		case *ast.ForStmt, *ast.RangeStmt:
			return p, conditional
		case *ast.FuncLit, *ast.FuncDecl, nil:
			return cursor{}, false
		}
	}
}

// trials returns the number of passes of a loop that draws: a counted loop, or a range over
// a local slice filled by one append in a counted loop, one of the two drawing; else 0.
func (c *checker) trials(fd, loop cursor) int {
	if loop.Node() == nil {
		return 0
	}
	if n := c.loopCount(loop); n > 0 {
		if c.codeDrawsIn(loop.Node()) {
			return n
		}
		return 0
	}
	rs, ok := loop.Node().(*ast.RangeStmt)
	if !ok {
		return 0
	}
	s := c.localVar(rs.X)
	if s == nil {
		return 0
	}
	n, fills := 0, 0
	for cur := range fd.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Lhs) != 1 || len(as.Rhs) != 1 || c.localVar(as.Lhs[0]) != s {
			continue
		}
		if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && len(c.appended(call)) == 1 && c.appended(call)[0] != ast.Expr(call) {
			fills++
			if l, _ := c.trialLoop(cur); l.Node() != nil {
				if k := c.loopCount(l); k > 0 && (c.codeDrawsIn(l.Node()) || c.codeDrawsIn(loop.Node())) {
					n = k
				}
			}
		}
	}
	if fills != 1 {
		return 0
	}
	return n
}

// codeDrawsIn reports whether n calls a random function of the code under test (a test's own
// random helper is no trial of it), or one of the package's functions that reads crypto/rand.
// A call handed a source seeded with constants (see pinned) draws the same in every run: no
// count of its outcomes can fail by chance.
func (c *checker) codeDrawsIn(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if f, inTest := c.randomCallee(call); f != nil && !inTest && !c.pinned(call) {
				found = true
			}
			if fn := typeutil.StaticCallee(c.pass.TypesInfo, call); fn != nil && c.cryptoReaders()[fn.Origin()] {
				found = true
			}
		}
		return !found
	})
	return found
}

// cryptoReaders returns the package's non-test functions that read crypto/rand, directly
// or through the package's own calls (etcd raft draws its election timeouts from
// crypto/rand.Int). They are randomFuncs too (byteDraw), with no distribution the numeric
// checks could read; this index also holds those that read crypto/rand for other ends (a
// nonce inside a function whose result is a count).
func (c *checker) cryptoReaders() map[*types.Func]bool {
	if c.crypto != nil {
		return c.crypto
	}
	c.crypto = map[*types.Func]bool{}
	calls := map[*types.Func][]*types.Func{}
	for _, cur := range c.funcDecls(false) {
		fd := cur.Node().(*ast.FuncDecl)
		fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if callee := typeutil.StaticCallee(c.pass.TypesInfo, call); callee != nil {
					if callee.Pkg() != nil && callee.Pkg().Path() == "crypto/rand" {
						c.crypto[fn] = true
					}
					calls[fn] = append(calls[fn], callee.Origin())
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for fn, callees := range calls {
			for _, callee := range callees {
				if !c.crypto[fn] && c.crypto[callee] {
					c.crypto[fn], changed = true, true
				}
			}
		}
	}
	return c.crypto
}

// countCheckAt returns the check that a use of a tally meets: the tally, or its proportion
// (divided by a constant, through conversions), compared with a typed constant in the
// condition of an if that fails the test, or in testify's Less, LessOrEqual, Greater,
// GreaterOrEqual, InDelta or InEpsilon.
func (c *checker) countCheckAt(id cursor, t tally) (countCheck, bool) {
	cur, div := id, 1.0
	integer := isInteger(t.v.Type())
	for {
		p := cur.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			cur = p
			continue
		case *ast.CallExpr:
			if c.isConversion(pn) {
				integer = isInteger(c.typeOf(pn))
				cur = p
				continue
			}
			return c.helperCheck(pn, cur.Node().(ast.Expr), div, integer)
		case *ast.BinaryExpr:
			if pn.Op == token.QUO && pn.X == cur.Node() && div == 1 {
				// count / 1000, or float64(count) / float64(iterations) with iterations := 50000
				if d := c.countValue(c.stripConversions(pn.Y)); d > 0 {
					div, integer = d, isInteger(c.typeOf(pn))
					cur = p
					continue
				}
				return countCheck{}, false
			}
			if !isOrder(pn.Op) || !c.failsWhenTrue(p) {
				return countCheck{}, false
			}
			limit, op := pn.Y, pn.Op
			if pn.Y == cur.Node() {
				limit, op = pn.X, flipOrder(op)
			}
			if !c.typedLimit(limit) {
				return countCheck{}, false
			}
			lim := c.constValue(limit)
			return countCheck{at: pn, fails: func(k int) bool { return holds(op, scaled(k, div, integer), lim) }}, true
		}
		return countCheck{}, false
	}
}

// typedLimit reports whether e is a constant typed in by hand.
func (c *checker) typedLimit(e ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && c.handTyped(e, 0)
}

// helperCheck returns the check of a testify comparison whose argument x is the tally's
// value.
func (c *checker) helperCheck(call *ast.CallExpr, x ast.Expr, div float64, integer bool) (countCheck, bool) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || !isBoundsHelper(fn) || len(call.Args) < 3 {
		return countCheck{}, false
	}
	name := strings.TrimSuffix(fn.Name(), "f")
	value := func(k int) float64 { return scaled(k, div, integer) }
	switch name {
	case "InDelta", "InEpsilon":
		if len(call.Args) < 4 || call.Args[2] != x || !c.typedLimit(call.Args[3]) {
			return countCheck{}, false
		}
		delta := c.constValue(call.Args[3])
		failsAt := func(k int, want float64) bool {
			d := delta
			if name == "InEpsilon" {
				d *= math.Abs(want) // testify's InEpsilon bounds the relative error: the band is epsilon*|expected|
			}
			return !(math.Abs(value(k)-want) <= d)
		}
		if c.typedLimit(call.Args[1]) {
			want := c.constValue(call.Args[1])
			return countCheck{at: call, fails: func(k int) bool { return failsAt(k, want) }}, true
		}
		if over := c.tableValues(call.Args[1]); over != nil {
			return countCheck{at: call, over: over, failsAt: failsAt}, true
		}
		return countCheck{}, false
	case "Less", "LessOrEqual", "Greater", "GreaterOrEqual":
		op := map[string]token.Token{"Less": token.LSS, "LessOrEqual": token.LEQ, "Greater": token.GTR, "GreaterOrEqual": token.GEQ}[name]
		limit := call.Args[2]
		switch x {
		case call.Args[1]:
		case call.Args[2]:
			limit, op = call.Args[1], flipOrder(op)
		default:
			return countCheck{}, false
		}
		if !c.typedLimit(limit) {
			return countCheck{}, false
		}
		lim := c.constValue(limit)
		return countCheck{at: call, fails: func(k int) bool { return !holds(op, value(k), lim) }}, true
	}
	return countCheck{}, false
}

// scaled is the value a test compares at count k: k/div, truncated for integer division.
func scaled(k int, div float64, integer bool) float64 {
	x := float64(k) / div
	if integer {
		x = math.Trunc(x)
	}
	return x
}

// holds reports whether x op y holds for an order op.
func holds(op token.Token, x, y float64) bool {
	switch op {
	case token.LSS:
		return x < y
	case token.LEQ:
		return x <= y
	case token.GTR:
		return x > y
	case token.GEQ:
		return x >= y
	}
	return false
}

// flipOrder turns an order round: a < b is b > a.
func flipOrder(op token.Token) token.Token {
	return map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ}[op]
}

// failRegion returns the counts at which the test fails, as the ends of two tails: it
// fails at every count up to lo (lo = -1: none) and at every count from hi (hi = n + 1:
// none), and at no count between. It returns false for any other shape, or when the test
// fails at every count or at none.
func failRegion(checks []countCheck, n int) (lo, hi int, ok bool) {
	fails := func(k int) bool {
		for _, ch := range checks {
			if ch.fails(k) {
				return true
			}
		}
		return false
	}
	lo, hi = -1, n+1
	for lo+1 <= n && fails(lo+1) {
		lo++
	}
	for hi-1 > lo && fails(hi-1) {
		hi--
	}
	for k := lo + 1; k < hi; k++ {
		if fails(k) {
			return 0, 0, false
		}
	}
	return lo, hi, hi-lo > 1 && (lo >= 0 || hi <= n)
}

// reportProportion reports a tally's checks with the chance that correct code fails them.
func (c *checker) reportProportion(fd cursor, t tally, checks []countCheck, tb string) {
	n := t.trials
	if len(checks) == 1 && checks[0].over != nil {
		c.reportTableProportion(fd, t, checks[0])
		return
	}
	for _, ch := range checks {
		if ch.over != nil {
			return // a table beside other checks: no one region to read
		}
	}
	lo, hi, ok := failRegion(checks, n)
	if !ok {
		return
	}
	chance, ok := proportionChance(lo, hi, n)
	if !ok {
		return
	}
	at := checks[0].at
	c.pass.Report(analysis.Diagnostic{
		Pos: at.Pos(), End: at.End(),
		Message: fmt.Sprintf("hand-sized tolerance: %s counts in %s how often a random outcome happens in %d trials and fails when %s (%s): a binomial count passes a typed limit by chance; %s; size the limit from the rate p the code should have and a chosen false-failure rate: fail only when sizing.BinomialTail(%s, %d, p) (or its lower tail) is below 1e-9, or, for outcomes meant to be equally likely, check them with spread.Check(%s, xs, spread.OneOf(...))",
			c.testName(fd), t.v.Name(), n, failWords(lo, hi, n), c.src(at), chance, t.v.Name(), n, tb),
	})
}

// failWords says at which counts the test fails.
func failWords(lo, hi, n int) string {
	switch {
	case lo >= 0 && hi <= n:
		return fmt.Sprintf("the count is at most %d or at least %d", lo, hi)
	case lo >= 0:
		return fmt.Sprintf("the count is at most %d", lo)
	}
	return fmt.Sprintf("the count is at least %d", hi)
}

// tailsChance returns P(X <= lo) + P(X >= hi) for X ~ Binomial(n, p), the lower tail as
// the upper tail of n - X (no cancellation when it is small).
func tailsChance(lo, hi, n int, p float64) (float64, error) {
	a := 0.0
	if lo >= 0 {
		var err error
		if a, err = sizing.BinomialTail(n-lo, n, 1-p); err != nil {
			return 0, err
		}
	}
	if hi > n {
		return a, nil // no count reaches hi
	}
	b, err := sizing.BinomialTail(hi, n, p)
	return a + b, err
}

// proportionChance writes the chance that a binomial count of n trials lands where the test
// fails (at most lo, or at least hi). Between two limits it takes the rate they are centred
// on as the true one; beyond one limit it gives the rates at which the chance passes 1e-9.
func proportionChance(lo, hi, n int) (string, bool) {
	switch {
	case lo >= 0 && hi <= n:
		p0 := float64(lo+hi) / 2 / float64(n)
		p, err := tailsChance(lo, hi, n, p0)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("at the rate %.4g the limits are centred on, correct code fails it with probability %.3g (sizing.BinomialTail, both tails)", p0, p), true
	case hi <= n:
		pLo, _, err := sizing.ClopperPearson(hi, n, 2*minReportedChance)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("correct code fails it more often than once in 1e9 runs when its true rate is above %.4g (P(count >= %d) = 1e-9 there, sizing.ClopperPearson)", pLo, hi), true
	default:
		_, pHi, err := sizing.ClopperPearson(lo, n, 2*minReportedChance)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("correct code fails it more often than once in 1e9 runs when its true rate is below %.4g (P(count <= %d) = 1e-9 there, sizing.ClopperPearson)", pHi, lo), true
	}
}

// tableValues returns the values a variable takes from a table of constants: the value of a
// range over a local slice literal of constants (for _, rate := range rates), through a copy
// of it (rate := rate), or nil.
func (c *checker) tableValues(e ast.Expr) []float64 {
	v := c.localVar(e)
	for i := 0; v != nil && i < 2; i++ {
		if init := c.onlyAssignment(v); init != nil {
			v = c.localVar(init) // rate := rate, the copy a closure takes
		}
	}
	if v == nil {
		return nil
	}
	for cur := range c.insp.Root().Preorder((*ast.RangeStmt)(nil)) {
		r := cur.Node().(*ast.RangeStmt)
		if r.Value == nil || c.pass.TypesInfo.Defs[identOf(r.Value)] != v {
			continue
		}
		lit, ok := ast.Unparen(c.onlyAssignment(c.localVar(r.X))).(*ast.CompositeLit)
		if !ok {
			return nil
		}
		var out []float64
		for _, el := range lit.Elts {
			if !c.typedLimit(el) {
				return nil
			}
			out = append(out, c.constValue(el))
		}
		return out
	}
	return nil
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// reportTableProportion reports a tally checked against each value of a table, one subtest
// a value (datadog-go's TestShouldSample: InDelta(t, rate, count/iterations, 0.01) for eight
// rates): the chance that one of them fails correct code, each rate taken as the true one.
func (c *checker) reportTableProportion(fd cursor, t tally, ch countCheck) {
	n, pass := t.trials, 1.0
	var worst, worstAt float64
	for _, x := range ch.over {
		lo, hi, ok := failRegion([]countCheck{{fails: func(k int) bool { return ch.failsAt(k, x) }}}, n)
		if !ok {
			continue // a rate no count can fail, as 1.0 or 0
		}
		p, err := tailsChance(lo, hi, n, x)
		if err != nil {
			return
		}
		pass *= 1 - p
		if p > worst {
			worst, worstAt = p, x
		}
	}
	chance := 1 - pass
	if chance < minReportedChance {
		return
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: ch.at.Pos(), End: ch.at.End(),
		Message: fmt.Sprintf("hand-sized tolerance: %s counts in %s how often a random outcome happens in %d trials, for each of %d rates of a table, and fails when the proportion leaves a typed band around the rate (%s): correct code fails one of them with probability %.3g (each rate taken as the true one, sizing.BinomialTail, both tails; %.3g at the worst rate, %g); size the band from a chosen false-failure rate: fail only when sizing.BinomialTail(%s, %d, rate) (or its lower tail) is below 1e-9",
			c.testName(fd), t.v.Name(), n, len(ch.over), c.src(ch.at), chance, worst, worstAt, t.v.Name(), n),
	})
}
