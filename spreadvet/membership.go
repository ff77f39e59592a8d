package spreadvet

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Random picks. A function that picks from a list (a name, a country, a title) is tested as
// often by membership alone: the pick is in the list, or is not empty. A constant pick, the
// list's first element every time, passes such a test, as a collapsed range passes a bounds
// check.

// A pickUse is what a test does with one random result: the membership and emptiness checks
// it makes, or the first use that tests more.
type pickUse struct {
	checks  []ast.Node // the membership, emptiness and length checks, for the message
	member  ast.Expr   // the collection of the first membership check, when it has one
	inSlice bool       // member is a slice (its picks have indices)
	empty   bool       // some check is of emptiness (s == "", len(s) == 0)
	length  bool       // some check compares the length with a constant other than 0 (len(s) < 3)
	breaker string
}

// A pickFinding is a random result checked only by membership or emptiness.
type pickFinding struct {
	cur  cursor
	call *ast.CallExpr
	use  *pickUse
}

// blindPicks reports the calls of random functions with results other than numbers (which
// blind tests of bounds cover) that a test checks only for being in a collection, for being
// non-empty, or both: a loop of them, or calls with no loop. A call whose same text is
// checked otherwise elsewhere in the test is not blind, nor is a test that hands anything to
// package spread.
func (c *checker) blindPicks(fd cursor, tb string) {
	var found []pickFinding
	sharp := map[string]bool{} // the calls' texts that some use checks more sharply
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if c.isSpreadCheck(call) {
			return
		}
		t := firstResult(c.typeOf(call))
		// An error is no pick: err == nil after a call that happens to draw (a retry, a
		// request through a randomly chosen server) checks the call's outcome, not a draw.
		if _, tuple := t.(*types.Tuple); tuple || t == nil || isSample(t) || !types.Comparable(t) || isError(t) || c.blindReported[call] {
			continue
		}
		fact, inTest := c.randomCallee(call)
		if fact == nil || inTest {
			continue
		}
		if (isIdentity(t) || isID(t)) && !fact.Pick {
			// A pointer the function made (a client's response, after a retry that slept a
			// random backoff): a nil check tells whether it got one, whatever it drew. An ID
			// made of random numbers is no pick either: blindForms follows it.
			continue
		}
		u := &pickUse{}
		if v := c.definedBy(cur); v != nil {
			for id := range fd.Preorder((*ast.Ident)(nil)) {
				if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
					c.pickUseAt(fd, id, u)
				}
			}
		} else if v, depth := c.storedPick(cur); v != nil {
			c.elementUses(fd, v, depth, u)
		} else {
			c.pickUseAt(fd, cur, u)
		}
		switch {
		case u.breaker != "":
			sharp[text(call)] = true
		case u.member != nil || u.empty && !u.length:
			// A length alone is random text's shape (blindTexts), not a pick's.
			found = append(found, pickFinding{cur, call, u})
		}
	}
	// Report each function once per test, at its first blind call, with the number of its
	// blind calls with no loop: three picks of Title checked by membership are one finding.
	reported := map[string]bool{}
	for _, p := range found {
		if sharp[text(p.call)] {
			continue
		}
		name := c.src(p.call.Fun)
		if reported[name] {
			continue
		}
		reported[name] = true
		if c.blindReported == nil {
			c.blindReported = map[*ast.CallExpr]bool{}
		}
		n := 0
		for _, q := range found {
			if c.src(q.call.Fun) == name && !sharp[text(q.call)] {
				c.blindReported[q.call] = true
				if _, _, loop := c.repeatingLoop(q.cur, q.call); !loop {
					n++
				}
			}
		}
		c.reportBlindPick(fd, p, n, tb)
	}
}

// pickUseAt classifies one use of a random result, the expression at cur: passed to a
// membership check (slices.Contains, a map lookup, the module's own helper), compared with
// the empty value, its length compared, split into fields that are themselves checked by
// membership, or reported; anything else tests more.
func (c *checker) pickUseAt(fd, cur cursor, u *pickUse) {
	p := cur.Parent()
	switch pn := p.Node().(type) {
	case *ast.ParenExpr:
		c.pickUseAt(fd, p, u)
	case *ast.TypeAssertExpr: // bloodType.(string): a pick handed back as any
		if pn.X == cur.Node() && pn.Type != nil {
			c.pickUseAt(fd, p, u)
			return
		}
		u.breaker = "used in " + c.src(pn)
	case *ast.CallExpr:
		if b, ok := typeutil.Callee(c.pass.TypesInfo, pn).(*types.Builtin); ok && b.Name() == "len" {
			c.lenUse(p, u)
			return
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, pn).(*types.Func)
		switch {
		case !ok:
			u.breaker = "passed to " + c.src(pn.Fun)
		case isReporting(fn) || isMessageArg(fn, pn, cur.Node()):
		case isTypeOnly(fn):
			// reflect.TypeOf(s).String() != "string": the type says nothing of the value.
		case isEmptinessHelper(fn):
			u.checks, u.empty = append(u.checks, pn), true
		case c.isMembership(fn, pn, cur.Node()):
			u.checks = append(u.checks, pn)
			if u.member == nil {
				u.member = c.collectionOf(fn, pn, cur.Node())
				_, u.inSlice = c.typeOf(u.member).Underlying().(*types.Slice)
			}
		case isSplitter(fn) && len(pn.Args) > 0 && pn.Args[0] == cur.Node():
			c.fieldsUse(fd, p, u)
		default:
			u.breaker = "passed to " + c.src(pn.Fun)
		}
	case *ast.BinaryExpr:
		other := pn.X
		if other == cur.Node() {
			other = pn.Y
		}
		if !c.isEmptyValue(other) || (pn.Op != token.EQL && pn.Op != token.NEQ) {
			u.breaker = "compared: " + c.src(pn)
			return
		}
		if pn.Op == token.NEQ && c.reportsWhenTrue(p) {
			u.breaker = "checked to be empty: " + c.src(pn)
			return
		}
		u.checks, u.empty = append(u.checks, pn), true
	case *ast.IndexExpr:
		if pn.Index == cur.Node() && c.isSetLookup(p) {
			u.checks = append(u.checks, pn)
			if u.member == nil {
				u.member = pn.X
			}
			return
		}
		u.breaker = "used in " + c.src(pn)
	default:
		u.breaker = "used in " + strings.TrimPrefix(c.src(pn), "*ast.")
	}
}

// lenUse classifies len(x) of a random result at cur: compared with a constant it is a check
// of length or emptiness (len(s) == 0, len(s) < 3), given to a report nothing.
func (c *checker) lenUse(cur cursor, u *pickUse) {
	switch p := cur.Parent().Node().(type) {
	case *ast.CallExpr:
		if c.reports(p) {
			return
		}
	case *ast.BinaryExpr:
		other := p.X
		if other == cur.Node() {
			other = p.Y
		}
		if tv := c.pass.TypesInfo.Types[other]; tv.Value != nil {
			n, _ := constant.Int64Val(tv.Value)
			op := p.Op
			if other == p.X {
				op = mirror(op)
			}
			switch {
			case op == token.EQL && n == 0, op == token.LEQ && n == 0, op == token.LSS && n == 1:
				u.checks, u.empty = append(u.checks, p), true
			case op == token.NEQ && n == 0, op == token.GTR && n == 0, op == token.GEQ && n == 1:
				if c.reportsWhenTrue(cur.Parent()) {
					u.breaker = "checked to be empty: " + c.src(p)
					return
				}
				u.checks, u.empty = append(u.checks, p), true // assert.True(t, len(s) > 0)
			default:
				u.checks, u.length = append(u.checks, p), true
			}
			return
		}
	}
	u.breaker = "its length used in " + c.src(cur.Parent().Node())
}

// fieldsUse classifies the fields a random result is split into (strings.Fields(name)): the
// number of them compared with a constant, and each field at a constant index checked by
// membership, as the result itself would be.
func (c *checker) fieldsUse(fd, split cursor, u *pickUse) {
	v := c.definedBy(split)
	if v == nil {
		u.breaker = "split by " + c.src(split.Node().(*ast.CallExpr).Fun)
		return
	}
	for id := range fd.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] != v {
			continue
		}
		switch p := id.Parent().Node().(type) {
		case *ast.CallExpr:
			if b, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Builtin); ok && b.Name() == "len" {
				c.lenUse(id.Parent(), u)
				continue
			}
			if fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func); ok && (isReporting(fn) || isMessageArg(fn, p, id.Node())) {
				continue
			}
			u.breaker = "its fields passed to " + c.src(p.Fun)
		case *ast.IndexExpr:
			if tv := c.pass.TypesInfo.Types[p.Index]; p.X == id.Node() && tv.Value != nil {
				c.pickUseAt(fd, id.Parent(), u)
				continue
			}
			u.breaker = "its fields used in " + c.src(p)
		default:
			u.breaker = "its fields used in " + strings.TrimPrefix(c.src(p), "*ast.")
		}
	}
}

// mirror returns the comparison op with its operands swapped: 0 < len(s) is len(s) > 0.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// isEmptyValue reports whether e is the constant empty string, nil, the zero of an ID
// (ids.SpanID{}) or the integer 0.
func (c *checker) isEmptyValue(e ast.Expr) bool {
	tv := c.pass.TypesInfo.Types[e]
	if tv.IsNil() {
		return true
	}
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok && len(lit.Elts) == 0 && isID(tv.Type) {
		return true // ids.SpanID{}: the zero ID
	}
	if tv.Value != nil && tv.Value.Kind() == constant.Int && isInteger(tv.Type) {
		return constant.Sign(tv.Value) == 0 // id.Low == 0: a half of an ID, zero
	}
	return tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
}

// reportsWhenTrue reports whether the condition at cur is an if statement's whole condition
// (or one joined by ||) whose body reports a failure: s != "" there fails a non-empty s, an
// exact check that it is empty.
func (c *checker) reportsWhenTrue(cur cursor) bool {
	for p := cur.Parent(); ; cur, p = p, p.Parent() {
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.BinaryExpr:
			if pn.Op == token.LOR {
				continue
			}
			return false
		case *ast.IfStmt:
			if pn.Cond != cur.Node() {
				return false
			}
			fails := false
			ast.Inspect(pn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && c.reports(call) {
					fails = true
				}
				return !fails
			})
			return fails
		default:
			return false
		}
	}
}

// isSetLookup reports whether the map index at cur only tells whether its key is present:
// _, ok := set[x], or set[x] of a map of bool read as a condition (!set[x], set[x] && ...).
func (c *checker) isSetLookup(cur cursor) bool {
	ix := cur.Node().(*ast.IndexExpr)
	m, ok := c.typeOf(ix.X).Underlying().(*types.Map)
	if !ok {
		return false
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 2 && len(p.Rhs) == 1 && p.Rhs[0] == ix {
			id, blank := p.Lhs[0].(*ast.Ident)
			return blank && id.Name == "_"
		}
		return false
	case *ast.UnaryExpr:
		return p.Op == token.NOT && isBool(m.Elem())
	case *ast.BinaryExpr:
		return (p.Op == token.LAND || p.Op == token.LOR) && isBool(m.Elem())
	case *ast.IfStmt:
		return p.Cond == ix && isBool(m.Elem())
	}
	return false
}

// isBool reports whether t is a boolean type.
func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// isTypeOnly reports whether fn looks only at the type of its argument: reflect.TypeOf.
func isTypeOnly(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "reflect" && fn.Name() == "TypeOf"
}

// isEmptinessHelper reports whether fn is testify's NotEmpty or NotZero (assert or require),
// which checks only that a value is not empty.
func isEmptinessHelper(fn *types.Func) bool {
	if fn.Pkg() == nil || !strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") {
		return false
	}
	name := strings.TrimSuffix(fn.Name(), "f")
	return name == "NotEmpty" || name == "NotZero"
}

// isSplitter reports whether fn splits a string into fields: strings.Fields, Split, SplitN.
func isSplitter(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "strings" {
		return false
	}
	switch fn.Name() {
	case "Fields", "Split", "SplitN":
		return true
	}
	return false
}

// isMembership reports whether the call of fn only tells whether arg is in a collection:
// slices.Contains(list, arg), testify's Contains(t, list, arg), or a function of this
// package that ranges over one parameter and does nothing with the parameter arg is passed
// as but compare it with == to the elements (findInSlice(list, arg), a loop returning true).
func (c *checker) isMembership(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	if fn.Pkg() == nil {
		return false
	}
	if fn.Pkg().Path() == "slices" && fn.Name() == "Contains" {
		return len(call.Args) == 2 && call.Args[1] == arg
	}
	if strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") && strings.TrimSuffix(fn.Name(), "f") == "Contains" {
		// assert.Contains(t, list, x), or a.Contains(list, x) of Assertions
		i := 2
		if fn.Signature().Recv() != nil {
			i = 1
		}
		if len(call.Args) <= i || call.Args[i] != arg {
			return false
		}
		_, slice := c.typeOf(call.Args[i-1]).Underlying().(*types.Slice)
		return slice
	}
	if c.isOwnMembership(fn, call, arg) {
		return true
	}
	var f memberTest
	if fn.Pkg() == c.pass.Pkg || !c.pass.ImportObjectFact(fn, &f) {
		return false
	}
	return f.Item < len(call.Args) && call.Args[f.Item] == arg
}

// memberTest is the fact that a function of a package reports whether its parameter Item is
// one of the elements of another parameter, as go-faker's pkg/slice.Contains(slice, item)
// does: a membership helper another package's tests call.
type memberTest struct {
	Item int
}

func (*memberTest) AFact() {}

func (f *memberTest) String() string { return fmt.Sprintf("member($%d)", f.Item) }

// findMemberTests exports a memberTest fact for each exported function of the package's
// non-test code that tests membership: its own range and == (isOwnMembership), or a body
// that only returns slices.Contains of two of its parameters, or a helper with the fact.
func (c *checker) findMemberTests() {
	for _, cur := range c.funcDecls(false) {
		fd := cur.Node().(*ast.FuncDecl)
		fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || !fn.Exported() || fd.Recv != nil {
			continue
		}
		sig := fn.Signature()
		for i := range sig.Params().Len() {
			if c.testsMember(fd, sig, i) {
				c.pass.ExportObjectFact(fn, &memberTest{Item: i})
				break
			}
		}
	}
}

// testsMember reports whether fd, of signature sig, reports whether its i'th parameter is one
// of another parameter's elements.
func (c *checker) testsMember(fd *ast.FuncDecl, sig *types.Signature, i int) bool {
	params := make([]ast.Expr, sig.Params().Len())
	for j := range params {
		params[j] = ast.NewIdent(sig.Params().At(j).Name())
	}
	if c.isOwnMembership(c.pass.TypesInfo.Defs[fd.Name].(*types.Func), &ast.CallExpr{Args: params}, params[i]) {
		return true
	}
	if len(fd.Body.List) != 1 {
		return false
	}
	r, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return false
	}
	call, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	inner, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || inner.Pkg() == nil || inner.Pkg().Path() != "slices" || inner.Name() != "Contains" || len(call.Args) != 2 {
		return false
	}
	item, list := c.objOf(call.Args[1]), c.objOf(call.Args[0])
	return item == types.Object(sig.Params().At(i)) && list != item && isParamOf(sig, list)
}

// isOwnMembership is isMembership for the package's own helpers: fn returns one bool, and
// every use of the parameter arg is passed as compares it with == or != to the value of a
// range over another of its parameters.
func (c *checker) isOwnMembership(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	decl := c.declOf(fn)
	sig := fn.Signature()
	if decl == nil || decl.Body == nil || sig.Variadic() || sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) || len(call.Args) != sig.Params().Len() {
		return false
	}
	var param *types.Var
	for i, a := range call.Args {
		if a == arg {
			param = sig.Params().At(i)
		}
	}
	if param == nil {
		return false
	}
	elems := map[types.Object]bool{} // the values of ranges over other parameters
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok && r.Value != nil {
			if o := c.objOf(r.X); o != nil && o != param && isParamOf(sig, o) {
				elems[c.objOf(r.Value)] = true
			}
		}
		return true
	})
	if len(elems) == 0 {
		return false
	}
	only, used := true, false
	var parents []ast.Node
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if n == nil {
			parents = parents[:len(parents)-1]
			return false
		}
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == param {
			used = true
			b, ok := parents[len(parents)-1].(*ast.BinaryExpr)
			if !ok || (b.Op != token.EQL && b.Op != token.NEQ) || !elems[c.objOf(b.X)] && !elems[c.objOf(b.Y)] {
				only = false
			}
		}
		parents = append(parents, n)
		return true
	})
	return used && only
}

// isParamOf reports whether o is one of sig's parameters.
func isParamOf(sig *types.Signature, o types.Object) bool {
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == o {
			return true
		}
	}
	return false
}

// collectionOf returns the collection of the membership call of fn that tests arg.
func (c *checker) collectionOf(fn *types.Func, call *ast.CallExpr, arg ast.Node) ast.Expr {
	if fn.Pkg() != nil && fn.Pkg().Path() == "slices" {
		return call.Args[0]
	}
	return c.otherArg(call, arg)
}

// isFixedCollection reports whether e is a collection no test makes of draws: a
// package-level variable of the code (go-faker's currencies), not of its tests, or a
// composite literal of constants. A local slice may hold earlier draws, and membership in it
// is then a check of distinctness.
func (c *checker) isFixedCollection(e ast.Expr) bool {
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
		return !slices.ContainsFunc(lit.Elts, func(x ast.Expr) bool { return c.pass.TypesInfo.Types[x].Value == nil })
	}
	v, ok := c.objOf(e).(*types.Var)
	return ok && !v.IsField() && v.Parent() == v.Pkg().Scope() && (v.Pkg() != c.pass.Pkg || !c.isTestFile(v.Pos()))
}

// otherArg returns the argument of a membership call that is the collection: the one before
// arg (list in findInSlice(list, x), assert.Contains(t, list, x)), or the one after it.
func (c *checker) otherArg(call *ast.CallExpr, arg ast.Node) ast.Expr {
	for i, a := range call.Args {
		if a != arg {
			continue
		}
		if i > 0 && !c.isTB(call.Args[i-1]) {
			return call.Args[i-1]
		}
		if i+1 < len(call.Args) {
			return call.Args[i+1]
		}
	}
	return call.Args[0]
}

// isTB reports whether e is a *testing.T, *testing.B, *testing.F or testing.TB.
func (c *checker) isTB(e ast.Expr) bool {
	t := c.typeOf(e)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return isNamed(t, "testing", "T") || isNamed(t, "testing", "TB") || isNamed(t, "testing", "B") || isNamed(t, "testing", "F")
}

// reportBlindPick reports a test that checks a random result only by membership or
// emptiness; n is the number of the function's blind calls with no loop.
func (c *checker) reportBlindPick(fd cursor, p pickFinding, n int, tb string) {
	times, varies, _ := c.drawTimes(p.cur, p.call, n)
	var checks []string
	for _, n := range p.use.checks {
		checks = append(checks, c.src(n))
	}
	name := c.testName(fd)
	if p.use.member == nil {
		c.pass.Report(analysis.Diagnostic{
			Pos: p.call.Pos(), End: p.call.End(),
			Message: fmt.Sprintf("blind test: %s draws %s %s and checks only that the result is not empty (%s), so a constant passes it; check what it draws: seed the source and compare the result exactly, or draw many and check that every value it should pick turns up, as often as it should (spread.Check of the indices of the picks)",
				name, c.src(p.call.Fun), times, strings.Join(checks, ", ")),
		})
		return
	}
	coll := c.src(p.use.member)
	check := fmt.Sprintf("xs := spread.Draw(1000, func() int { return <the index of %s among %s> }); spread.Check(%s, xs, spread.Uniform(0, <the number of choices>))", c.src(p.call), coll, tb)
	if p.use.inSlice {
		check = fmt.Sprintf("xs := spread.Draw(1000, func() int { return slices.Index(%s, %s) }); spread.Check(%s, xs, spread.Uniform(0, len(%s)))", coll, c.src(p.call), tb, coll)
	}
	if varies != "" {
		// The picks at different arguments are no sample of one distribution.
		check = "at one value of " + varies + " (or each), " + check
	}
	what := "that the result is in a collection"
	switch {
	case p.use.empty && p.use.length:
		what += ", is not empty and has a length"
	case p.use.empty:
		what += " and is not empty"
	case p.use.length:
		what += " and its length"
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: p.call.Pos(), End: p.call.End(),
		Message: fmt.Sprintf("blind test: %s draws %s %s and checks only %s (%s), so a constant pick (the first element every time) passes it; check that every element turns up, as often as it should: %s",
			name, c.src(p.call.Fun), times, what, strings.Join(checks, ", "), check),
	})
}

// isError reports whether t is an error: the interface, or a type that implements it.
func isError(t types.Type) bool {
	return types.Implements(t, types.Universe.Lookup("error").Type().Underlying().(*types.Interface))
}
