package spreadvet

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Per-category tallies. The common real test of a random pick counts every outcome at once,
// counts[r]++ for each rune r of a random string, and then requires each count to lie in a
// hand-typed band around its expectation (github.com/dchest/uniuri's TestBias,
// github.com/matoous/go-nanoid's TestFlatDistribution). Each count is binomial, and the test
// fails when any of the k counts leaves its band, so it fails correct code at a rate the band
// was not sized from.

// A categoryTally is a local map, array or slice of counters, one per outcome, raised by one
// at an index drawn on every trial.
type categoryTally struct {
	v          *types.Var
	inc        cursor // the one increment, counts[x]++ or counts[x] += 1
	trials     int    // the increments over the whole test: the passes of the loops around it
	categories int    // the number of outcomes when the code tells it (an array's length, a make's, an alphabet's), else 0
	ranges     []*ast.RangeStmt
}

// categoryTallies reports the per-category tallies of a test whose counts are each compared
// with a typed band.
func (c *checker) categoryTallies(fd cursor, tb string) {
	for _, t := range c.categoryCounters(fd) {
		var checks []countCheck
		for _, rs := range t.ranges {
			cv := c.localVar(rs.Value)
			if rs.Value == nil || cv == nil {
				continue
			}
			rcur, ok := fd.FindNode(rs)
			if !ok {
				continue
			}
			for id := range rcur.Preorder((*ast.Ident)(nil)) {
				if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == cv {
					checks = append(checks, c.bandChecksAt(fd, id, cv, t.trials, 0)...)
				}
			}
		}
		if len(checks) > 0 {
			c.reportCategories(fd, t, checks, tb)
		}
	}
}

// categoryCounters returns the test's per-category tallies: local maps, arrays and slices of
// numbers, made empty (or zero), raised by one in exactly one place at an index that a draw
// gives (a character of a random string the loop ranges over, or a draw in a counted loop),
// and otherwise only read, ranged over or measured with len.
func (c *checker) categoryCounters(fd cursor) []categoryTally {
	type uses struct {
		incs   []cursor
		ranges []*ast.RangeStmt
		bad    bool
	}
	all := map[*types.Var]*uses{}
	for id := range fd.Preorder((*ast.Ident)(nil)) {
		v := c.localVar(id.Node().(*ast.Ident))
		if v == nil || c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != v || !isCounterTable(v.Type()) {
			continue
		}
		u := all[v]
		if u == nil {
			u = &uses{}
			all[v] = u
		}
		switch p := id.Parent().Node().(type) {
		case *ast.IndexExpr:
			if p.X != id.Node() {
				u.bad = true
				break
			}
			switch g := id.Parent().Parent().Node().(type) {
			case *ast.IncDecStmt:
				if g.Tok != token.INC {
					u.bad = true
				}
				u.incs = append(u.incs, id.Parent().Parent())
			case *ast.AssignStmt:
				if g.Tok == token.ADD_ASSIGN && len(g.Rhs) == 1 && g.Lhs[0] == p && c.isConst(g.Rhs[0], 1) {
					u.incs = append(u.incs, id.Parent().Parent())
				} else if g.Lhs[0] == p || len(g.Lhs) > 1 {
					u.bad = true
				}
			case *ast.UnaryExpr:
				u.bad = u.bad || g.Op == token.AND
			}
		case *ast.RangeStmt:
			if p.X == id.Node() {
				u.ranges = append(u.ranges, p)
			} else {
				u.bad = true
			}
		case *ast.CallExpr:
			if b, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Builtin); !ok || b.Name() != "len" {
				u.bad = true // passed on: anything may happen to it
			}
		default:
			u.bad = true
		}
	}
	var out []categoryTally
	for v, u := range all {
		if u.bad || len(u.incs) != 1 || len(u.ranges) == 0 {
			continue
		}
		k, ok := c.emptyTable(fd, v)
		if !ok {
			continue
		}
		trials, alphabet := c.categoryTrials(u.incs[0])
		if trials < 2 || trials > maxTrials {
			continue
		}
		if k == 0 {
			k = alphabet
		}
		out = append(out, categoryTally{v: v, inc: u.incs[0], trials: trials, categories: k, ranges: u.ranges})
	}
	return out
}

// isCounterTable reports whether t is a map, an array or a slice of numbers.
func isCounterTable(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Map:
		return isNumeric(t.Elem())
	case *types.Array:
		return isNumeric(t.Elem())
	case *types.Slice:
		return isNumeric(t.Elem())
	}
	return false
}

// emptyTable reports whether v starts with every count 0 (var counts [26]int, make(map[rune]int),
// map[rune]int{}, make([]int, k)), and returns its number of counters when its type or its
// make tells it (else 0).
func (c *checker) emptyTable(fd cursor, v *types.Var) (int, bool) {
	if a, ok := v.Type().Underlying().(*types.Array); ok {
		for id := range fd.Preorder((*ast.Ident)(nil)) {
			if c.pass.TypesInfo.Defs[id.Node().(*ast.Ident)] == v {
				if vs, ok := id.Parent().Node().(*ast.ValueSpec); ok && len(vs.Values) == 0 {
					return int(a.Len()), true
				}
			}
		}
		return 0, false
	}
	switch init := ast.Unparen(c.onlyAssignment(v)).(type) {
	case *ast.CompositeLit:
		return 0, len(init.Elts) == 0
	case *ast.CallExpr:
		if b, ok := typeutil.Callee(c.pass.TypesInfo, init).(*types.Builtin); !ok || b.Name() != "make" {
			return 0, false
		}
		if _, isMap := v.Type().Underlying().(*types.Map); isMap {
			return 0, true
		}
		if len(init.Args) < 2 {
			return 0, false
		}
		n, ok := c.evalNum(init.Args[1], nil, 0)
		return int(n), ok && n >= 2
	}
	return 0, false
}

// categoryTrials returns the number of draws that a tally's increment counts over the whole
// test, and the length of the alphabet they are drawn from when a random string's is known
// (else 0): the innermost loop is a range over the characters of a random string of a known
// length (its one integer argument), or a counted loop whose index is a draw; every loop
// around it must be counted.
func (c *checker) categoryTrials(inc cursor) (trials, alphabet int) {
	var index ast.Expr
	switch n := inc.Node().(type) {
	case *ast.IncDecStmt:
		index = n.X.(*ast.IndexExpr).Index
	case *ast.AssignStmt:
		index = n.Lhs[0].(*ast.IndexExpr).Index
	}
	var loop cursor
	for p, found := inc.Parent(), false; !found; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loop, found = p, true
		case *ast.FuncLit, *ast.FuncDecl, nil:
			return 0, 0
		}
	}
	per := 0
	if rs, ok := loop.Node().(*ast.RangeStmt); ok && !isNumeric(c.typeOf(rs.X)) {
		ch := c.localVar(rs.Value)
		if ch == nil || !mentions(c, index, ch) || !isText(c.typeOf(rs.X)) {
			return 0, 0
		}
		call, ok := ast.Unparen(rs.X).(*ast.CallExpr)
		if v := c.localVar(rs.X); v != nil {
			call, ok = ast.Unparen(c.onlyAssignment(v)).(*ast.CallExpr)
		}
		if !ok || !c.codeDrawsIn(call) {
			return 0, 0
		}
		per, alphabet = c.textShape(call)
	} else {
		n := c.loopTimes(loop)
		if n == 0 || !c.drawnTallyIndex(index, loop) {
			return 0, 0
		}
		per = n
	}
	if per == 0 {
		return 0, 0
	}
	trials = per
	for p := loop.Parent(); ; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			n := c.loopTimes(p)
			if n == 0 || trials > maxTrials {
				return 0, 0
			}
			trials *= n
		case *ast.FuncLit, nil:
			return 0, 0
		case *ast.FuncDecl:
			return trials, alphabet
		}
	}
}

// mentions reports whether e names v.
func mentions(c *checker, e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// drawnTallyIndex reports whether a counted loop's tally index is a draw of the code: a call that
// draws, or a local given one in the loop.
func (c *checker) drawnTallyIndex(index ast.Expr, loop cursor) bool {
	if c.codeDrawsIn(index) {
		return true
	}
	v := c.localVar(c.stripConversions(index))
	init := c.onlyAssignment(v)
	return init != nil && init.Pos() >= loop.Node().Pos() && init.End() <= loop.Node().End() && c.codeDrawsIn(init)
}

// textShape returns the length of the random string a call returns and the size of its
// alphabet, each 0 when unknown: the call's one integer argument is its length and its one
// text argument its alphabet (NewLenChars(n, chars), Generate(alphabet, n)).
func (c *checker) textShape(call *ast.CallExpr) (length, alphabet int) {
	ints, texts := 0, 0
	for _, a := range call.Args {
		switch t := c.typeOf(a); {
		case t != nil && isInteger(t):
			if n, ok := c.evalNum(a, nil, 0); ok {
				length = int(n)
			}
			ints++
		case t != nil && isText(t):
			if n, ok := c.textLen(a, 0); ok {
				alphabet = n
			}
			texts++
		}
	}
	if ints != 1 {
		length = 0
	}
	if texts != 1 {
		alphabet = 0
	}
	return length, alphabet
}

// loopTimes returns the passes of a counted loop, its count a constant or a local given one
// value the test typed ("tries := 100_000; for i := 0; i < tries; i++"), else 0.
func (c *checker) loopTimes(loop cursor) int {
	if n := c.loopCount(loop); n > 0 {
		return n
	}
	switch l := loop.Node().(type) {
	case *ast.RangeStmt:
		if isNumeric(c.typeOf(l.X)) {
			if n, ok := c.evalNum(l.X, nil, 0); ok && n > 0 {
				return int(n)
			}
		}
	case *ast.ForStmt:
		init, ok := l.Init.(*ast.AssignStmt)
		cond, ok2 := l.Cond.(*ast.BinaryExpr)
		if !ok || !ok2 || len(init.Rhs) != 1 || !c.isConst(init.Rhs[0], 0) || c.localVar(cond.X) != c.localVar(init.Lhs[0]) {
			return 0
		}
		n, ok := c.evalNum(cond.Y, nil, 0)
		switch {
		case !ok || n <= 0:
		case cond.Op == token.LSS:
			return int(n)
		case cond.Op == token.LEQ:
			return int(n) + 1
		}
	}
	return 0
}

// textLen returns the length of a text the test typed: a constant string, a conversion of
// one ([]byte("abc")), or a local given one of those.
func (c *checker) textLen(e ast.Expr, depth int) (int, bool) {
	e = ast.Unparen(e)
	if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return len(constant.StringVal(tv.Value)), true
	}
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			return c.textLen(call.Args[0], depth)
		}
	}
	if v := c.localVar(e); v != nil && depth < 3 {
		return c.textLen(c.onlyAssignment(v), depth+1)
	}
	return 0, false
}

// evalNum returns the value of a numeric expression made only of constants, the values in
// env, locals given one such value, lengths of typed texts, conversions (truncating to
// integers), math.Abs and arithmetic. Any other call (a sizing function, say) has no value
// here: a limit it derives is not hand-sized.
func (c *checker) evalNum(e ast.Expr, env map[*types.Var]float64, depth int) (float64, bool) {
	if e == nil || depth > 6 {
		return 0, false
	}
	if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return c.constValue(e), true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.evalNum(e.X, env, depth)
	case *ast.Ident:
		v := c.localVar(e)
		if x, ok := env[v]; ok {
			return x, true
		}
		if init := c.onlyAssignment(v); init != nil && !isText(c.typeOf(e)) {
			return c.evalNum(init, env, depth+1)
		}
	case *ast.UnaryExpr:
		if x, ok := c.evalNum(e.X, env, depth); ok && e.Op == token.SUB {
			return -x, true
		}
	case *ast.CallExpr:
		if len(e.Args) != 1 {
			return 0, false
		}
		if c.isConversion(e) {
			x, ok := c.evalNum(e.Args[0], env, depth)
			if ok && isInteger(c.typeOf(e)) {
				x = math.Trunc(x)
			}
			return x, ok
		}
		if b, ok := typeutil.Callee(c.pass.TypesInfo, e).(*types.Builtin); ok && b.Name() == "len" {
			n, ok := c.textLen(e.Args[0], depth)
			return float64(n), ok
		}
		if fn, ok := typeutil.Callee(c.pass.TypesInfo, e).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "Abs" {
			x, ok := c.evalNum(e.Args[0], env, depth)
			return math.Abs(x), ok
		}
	case *ast.BinaryExpr:
		x, ok1 := c.evalNum(e.X, env, depth)
		y, ok2 := c.evalNum(e.Y, env, depth)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case token.ADD:
			return x + y, true
		case token.SUB:
			return x - y, true
		case token.MUL:
			return x * y, true
		case token.QUO:
			if y == 0 {
				return 0, false
			}
			if isInteger(c.typeOf(e)) {
				return math.Trunc(x / y), true
			}
			return x / y, true
		}
	}
	return 0, false
}

// bandChecksAt returns the checks that a use of a count (the range variable cv over a tally)
// meets: the count, through arithmetic, conversions, math.Abs and locals (diff :=
// float64(n)/avg), compared in a failing if with a side the test typed, or testify's InDelta
// or InEpsilon with a typed expectation and tolerance.
func (c *checker) bandChecksAt(fd, id cursor, cv *types.Var, n, depth int) []countCheck {
	env := func(k int) map[*types.Var]float64 { return map[*types.Var]float64{cv: float64(k)} }
	cur := id
	for {
		p := cur.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
		case *ast.UnaryExpr:
			if pn.Op != token.SUB {
				return nil
			}
		case *ast.CallExpr:
			fn, _ := typeutil.Callee(c.pass.TypesInfo, pn).(*types.Func)
			isAbs := fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "math" && fn.Name() == "Abs"
			if !c.isConversion(pn) && !isAbs {
				if ch, ok := c.bandHelper(pn, cur.Node().(ast.Expr), env); ok {
					return []countCheck{ch}
				}
				return nil
			}
		case *ast.BinaryExpr:
			switch pn.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO:
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
				if !c.failsWhenTrue(p) {
					return nil
				}
				at, op := pn, pn.Op
				fails := func(k int) bool {
					x, ok1 := c.evalNum(at.X, env(k), 0)
					y, ok2 := c.evalNum(at.Y, env(k), 0)
					return ok1 && ok2 && holds(op, x, y)
				}
				if !c.evaluates(at, env(n/2)) {
					return nil
				}
				return []countCheck{{at: at, fails: fails}}
			default:
				return nil
			}
		case *ast.AssignStmt:
			v := c.localVar(pn.Lhs[0])
			if pn.Tok != token.DEFINE || len(pn.Lhs) != 1 || pn.Rhs[0] != cur.Node() || v == nil || depth > 2 {
				return nil
			}
			var out []countCheck
			for use := range fd.Preorder((*ast.Ident)(nil)) {
				if c.pass.TypesInfo.Uses[use.Node().(*ast.Ident)] == v {
					// The local's value is the count's, through the expression: substituting
					// cv into it is evalNum's job when the comparison is evaluated.
					out = append(out, c.bandChecksAt(fd, use, cv, n, depth+1)...)
				}
			}
			return out
		default:
			return nil
		}
		cur = p
	}
}

// evaluates reports whether both sides of a comparison have a value at env.
func (c *checker) evaluates(cmp *ast.BinaryExpr, env map[*types.Var]float64) bool {
	_, ok1 := c.evalNum(cmp.X, env, 0)
	_, ok2 := c.evalNum(cmp.Y, env, 0)
	return ok1 && ok2
}

// bandHelper returns the check of testify's InDelta or InEpsilon whose actual value x is a
// count: the test fails when the count is more than delta, or epsilon*|expected|, from
// expected.
func (c *checker) bandHelper(call *ast.CallExpr, x ast.Expr, env func(int) map[*types.Var]float64) (countCheck, bool) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || !isBoundsHelper(fn) || len(call.Args) < 4 || call.Args[2] != x {
		return countCheck{}, false
	}
	name := strings.TrimSuffix(fn.Name(), "f")
	if name != "InDelta" && name != "InEpsilon" {
		return countCheck{}, false
	}
	want, ok1 := c.evalNum(call.Args[1], nil, 0)
	tol, ok2 := c.evalNum(call.Args[3], nil, 0)
	if !ok1 || !ok2 {
		return countCheck{}, false
	}
	if name == "InEpsilon" {
		tol *= math.Abs(want)
	}
	return countCheck{at: call, fails: func(k int) bool {
		v, ok := c.evalNum(x, env(k), 0)
		return ok && !(math.Abs(v-want) <= tol)
	}}, true
}

// categoriesChance returns the chance that any of k binomial counts of n trials, each with
// rate 1/k, lands where the test fails (at most lo, or at least hi): the chance for one count
// (sizing.BinomialTail, both tails) and k times it, the union bound (an upper bound on the
// chance that any does; the counts are negatively correlated, so it is close when the chance
// is small).
func categoriesChance(lo, hi, n, k int) (one, anyOf float64, err error) {
	one, err = tailsChance(lo, hi, n, 1/float64(k))
	return one, math.Min(1, float64(k)*one), err
}

// reportCategories reports a per-category tally with the chance that correct code fails its
// checks.
func (c *checker) reportCategories(fd cursor, t categoryTally, checks []countCheck, tb string) {
	n := t.trials
	lo, hi, ok := failRegion(checks, n)
	if !ok {
		return
	}
	k := t.categories
	if k < 2 && lo >= 0 && hi <= n {
		// No type or alphabet tells the number of outcomes: a band centred on n/k tells it
		// when n/k is whole.
		center := float64(lo+hi) / 2
		if r := float64(n) / center; math.Abs(r-math.Round(r)) < 0.01 {
			k = int(math.Round(r))
		}
	}
	if k < 2 {
		return
	}
	one, anyOf, err := categoriesChance(lo, hi, n, k)
	if err != nil || anyOf < minReportedChance {
		return
	}
	at := checks[0].at
	tails := "both tails"
	if lo < 0 || hi > n {
		tails = "one tail"
	}
	words := strings.Replace(failWords(lo, hi, n), "the count is", "a count is", 1)
	c.pass.Report(analysis.Diagnostic{
		Pos: at.Pos(), End: at.End(),
		Message: fmt.Sprintf("hand-sized tolerance: %s counts in %s how often each of %d outcomes happens in %d trials and fails when %s (%s): each count is binomial (n = %d, p = 1/%d) and leaves that band with probability %.3g (sizing.BinomialTail, %s), so correct code fails the test with probability at most %.3g (the union bound over the %d counts, an upper bound); check the distribution of the draws instead, spread.Check(%s, xs, spread.OneOf(...)), or size each band from a chosen false-failure rate alpha: fail a count only when sizing.BinomialTail(count, %d, 1.0/%d) (or its lower tail) is below sizing.Bonferroni(alpha, %d)",
			c.testName(fd), t.v.Name(), k, n, words, c.src(at), n, k, one, tails, anyOf, k, tb, n, k, k),
	})
}
