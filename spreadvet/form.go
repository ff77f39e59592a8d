package spreadvet

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Checks of form. A random value is tested as often by its form alone: it parses as a date,
// a locale or an address (time.Parse, language.Parse, net.ParseIP, strconv.Atoi), it splits
// into the right number of parts, what it parses to lies within bounds, it survives a round
// trip through its parser or a change of case, or a condition over it holds whatever it is
// (b != true && b != false). A constant of the right form passes every one of them, as a
// constant string of the right length passes a check of its shape.

// A formKind is one kind of check of form.
type formKind uint16

const (
	formParses    formKind = 1 << iota // handed to a parser, which tells only whether it parses
	formBounds                         // what it parses to compared with bounds
	formLength                         // its length, or its number of parts
	formChars                          // its characters: a regexp, an alphabet, a substring
	formRoundTrip                      // compared with what was made from it (ip.String() parsed again, strings.ToLower(s))
	formEmpty                          // compared with the empty value
	formNever                          // a condition over it that holds whatever it is
	formFixed                          // an accessor of an ID compared with a constant (uuid.Version() != 4)
	formOrder                          // ordered against the draw before (prev.Compare(next) >= 0)
	formValid                          // its own validity predicate (traceID.IsValid(), col.IsValid())
	formType                           // the type of a value handed back as any (v, ok := value.(int64))
	formFinite                         // a number checked to be no NaN and no infinity (math.IsNaN, math.IsInf)
	formMember                         // one of a fixed collection (slice.Contains(currencies, parts[0]))
)

// A formUse is what a test does with one random result and with what it makes of it: the
// checks of form, or the first use that tests more.
type formUse struct {
	made    map[types.Object]bool // the locals holding the result or a value made from it
	checks  []ast.Node
	kinds   formKind
	breaker string
	depth   int  // the module's own helpers followed into, to stop at a cycle
	loop    bool // a loop repeats the draw
	// checkFuncs are a test helper's func parameters bound to the test's func literals that
	// check each value it samples (see helperSamples)
	checkFuncs map[types.Object]*ast.FuncLit
	// fixed are the fields of the ID drawn, of type id, that the function reached never
	// draws (randomID64's TraceID leaves High zero)
	fixed map[string]bool
	id    types.Type
}

// check records one check of form.
func (u *formUse) check(n ast.Node, k formKind) {
	u.checks, u.kinds = append(u.checks, n), u.kinds|k
}

// breaks records the first use that tests more than the form.
func (u *formUse) breaks(why string) {
	if u.breaker == "" {
		u.breaker = why
	}
}

// blindForms reports the calls of random functions with a text, a bool or a list of texts
// as their result that a test checks only for their form, when neither blindTexts nor
// blindPicks has reported them. Each function is reported once per test, at its first blind
// call, as blindPicks does; a call whose same text some use checks more sharply is not
// blind, nor is a test that hands anything to package spread.
func (c *checker) blindForms(fd cursor, tb string) {
	type finding struct {
		cur  cursor
		call *ast.CallExpr
		use  *formUse
	}
	var found []finding
	sharp := map[string]bool{}
	done := map[string]bool{} // the functions blindTexts or blindPicks reported in this test
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		if call := cur.Node().(*ast.CallExpr); c.blindReported[call] {
			done[c.src(call.Fun)] = true
		}
	}
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if c.isSpreadCheck(call) {
			return
		}
		t := firstResult(c.typeOf(call))
		ids := c.idResults(cur)
		if t == nil || !isText(t) && !isBool(t) && !isTextList(t) && !isID(t) && !c.isRecord(t) && !isAny(t) && ids == nil || c.blindReported[call] {
			continue
		}
		fact, inTest := c.randomCallee(call)
		if fact == nil || inTest {
			continue
		}
		_, _, loop := c.repeatingLoop(cur, call)
		if c.listsFixed(fd, call.Pos()) {
			continue // bloodTypes = []string{"O"}: the test leaves the draw one value to pick
		}
		if !loop && fact.Hops > 1 && !isText(t) && !isBool(t) && !isTextList(t) && !isAny(t) {
			// One ID or record made far from its draw (ulid.MustNew(ulid.Now(), entropy),
			// four calls away): its other parts (the time) decide a zero check, and the test
			// is more often one of something else (IsZero) than of the draw.
			continue
		}
		u := &formUse{made: map[types.Object]bool{}, loop: loop, fixed: c.fixedOf(call), id: t}
		c.formResult(cur, ids, u)
		if fact.Counter != "" && u.kinds&(formOrder|formBounds) != 0 {
			// IDs with a counter come in order by it (a UUID v7's rising time and sequence):
			// a test of their order, or of bounds, tests the counter, not the draws (gofrs/uuid's
			// Sequential1M and google/uuid's TestVersion7Monotonicity, true negatives).
			u.breaks("ordered, as its counter (" + fact.Counter + ") orders it")
		}
		switch {
		case u.breaker != "":
			sharp[text(call)] = true
		case len(u.checks) > 0:
			found = append(found, finding{cur, call, u})
		}
	}
	reported := map[string]bool{}
	for _, f := range found {
		name := c.src(f.call.Fun)
		if sharp[text(f.call)] || reported[name] || done[name] {
			continue
		}
		reported[name] = true
		n, at, inLoop := 0, f, false // at: the first blind call in a loop, which says how many it draws
		use := &formUse{}            // the checks of every blind call of the function, for the message
		for _, g := range found {
			if c.src(g.call.Fun) == name && !sharp[text(g.call)] {
				use.checks, use.kinds = append(use.checks, g.use.checks...), use.kinds|g.use.kinds
				if _, _, loop := c.repeatingLoop(g.cur, g.call); !loop {
					n++
				} else if !inLoop {
					at, inLoop = g, true
				}
			}
		}
		c.reportBlindForm(fd, at.cur, at.call, use, n, tb)
	}
}

// formResult classifies every use of the random result of the call at cur: through the local
// it defines, or the one it is stored into up to the next store, or the identifiers ids it
// defines, or up the syntax tree.
func (c *checker) formResult(cur cursor, ids []*types.Var, u *formUse) {
	if v := c.definedBy(cur); v != nil {
		c.formVar(cur, v, u)
	} else if v, end, ok := c.storedInTurn(cur); ok {
		for _, id := range c.usesOf(cur, v) {
			if at := id.Node().Pos(); at > cur.Node().End() && (end == token.NoPos || at < end) {
				c.formUseAt(id, u)
			}
		}
	} else if ids != nil {
		for _, v := range ids {
			c.formVar(cur, v, u)
		}
	} else {
		c.formUseAt(cur, u)
	}
}

// isID reports whether t is an identifier, or another value, made of random numbers: an
// array of numbers (a [16]byte trace ID) or a struct of numbers and such arrays (a {High,
// Low uint64} ID, a colour's {R, G, B float64}). Its one rule is most often that it is not
// zero, or valid, and a check of that alone is a check of form.
func isID(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return isNumeric(u.Elem()) && u.Len() > 0
	case *types.Struct:
		for f := range u.Fields() {
			if a, ok := f.Type().Underlying().(*types.Array); !isNumeric(f.Type()) && !(ok && isNumeric(a.Elem())) {
				return false
			}
		}
		return u.NumFields() > 0
	}
	return false
}

// idResults returns the locals a call with several results, every one an identifier,
// defines, each given no other value (traceID, spanID := gen.NewIDs(ctx)), or nil.
func (c *checker) idResults(cur cursor) []*types.Var {
	tup, ok := c.typeOf(cur.Node().(ast.Expr)).(*types.Tuple)
	a, isAssign := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || !isAssign || a.Tok != token.DEFINE || len(a.Rhs) != 1 || len(a.Lhs) != tup.Len() {
		return nil
	}
	var vs []*types.Var
	for i, l := range a.Lhs {
		v := c.localVar(l)
		if v == nil || !isID(tup.At(i).Type()) || c.assignCount(v) != 1 {
			return nil
		}
		vs = append(vs, v)
	}
	return vs
}

// listsFixed reports whether the test fd, before pos, gives a package variable a list of one
// element (bloodTypes = []string{"O"}, go-faker's TestBloodGroup): what the code picks from it
// is fixed, and a check of the pick's form then checks all there is to pick.
func (c *checker) listsFixed(fd cursor, pos token.Pos) bool {
	for cur := range fd.Preorder((*ast.AssignStmt)(nil)) {
		a := cur.Node().(*ast.AssignStmt)
		if a.Pos() >= pos || len(a.Lhs) != len(a.Rhs) {
			continue
		}
		for i, l := range a.Lhs {
			v, ok := c.objOf(l).(*types.Var)
			lit, isLit := ast.Unparen(a.Rhs[i]).(*ast.CompositeLit)
			if ok && !v.IsField() && v.Parent() == v.Pkg().Scope() && isLit && len(lit.Elts) == 1 {
				return true
			}
		}
	}
	return false
}

// isAny reports whether t is the empty interface: a random function that hands its value back
// as any (faker's `Amount(v reflect.Value) (any, error)`), which the test type-asserts.
func isAny(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.Empty()
}

// storedInTurn returns the local that the call at cur is stored into when the variable is
// given several values in turn (p := NewPerson("a"), then p = NewPerson("b")), with the
// position of the next store into it (NoPos for none): the uses between read this call's
// result.
func (c *checker) storedInTurn(cur cursor) (*types.Var, token.Pos, bool) {
	a, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 || a.Rhs[0] != cur.Node() || a.Tok != token.DEFINE && a.Tok != token.ASSIGN {
		return nil, token.NoPos, false
	}
	v := c.localVar(a.Lhs[0])
	if v == nil {
		return nil, token.NoPos, false
	}
	fd, ok := enclosingFunc(cur)
	if !ok {
		return nil, token.NoPos, false
	}
	return v, c.nextStore(fd, v, a.End()), true
}

// isRecord reports whether t is a struct of the package, or a pointer to one, that has a
// drawn field, at any depth: a fake profile whose fields its constructor draws.
func (c *checker) isRecord(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return ok && c.holdsDrawn(st, 0)
}

// holdsDrawn reports whether a struct has a drawn field, or a struct field that has one.
func (c *checker) holdsDrawn(st *types.Struct, depth int) bool {
	for f := range st.Fields() {
		if c.drawnField(f) {
			return true
		}
		ft := f.Type()
		if p, ok := ft.Underlying().(*types.Pointer); ok {
			ft = p.Elem() // lockedNUID's embedded *NUID
		}
		if inner, ok := ft.Underlying().(*types.Struct); ok && depth < 3 && c.holdsDrawn(inner, depth+1) {
			return true
		}
	}
	return false
}

// drawnField reports whether the package's non-test code gives the field a value that calls
// a random function (p.Name = Name(), p.Address.Street = Name() + " street", Person{Name:
// Name()}). The fields are found in one walk of the package.
func (c *checker) drawnField(f *types.Var) bool {
	if c.drawnFields == nil {
		c.drawnFields = map[*types.Var]bool{}
		for _, fd := range c.funcDecls(false) {
			buffers := c.drawnBuffers(fd)
			for cur := range fd.Preorder((*ast.AssignStmt)(nil), (*ast.KeyValueExpr)(nil)) {
				switch n := cur.Node().(type) {
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) {
						for i, l := range n.Lhs {
							if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
								l = ix.X // n.pre[i] = digits[int(b[i])%base]: an element of the field
							}
							if v, ok := c.objOf(l).(*types.Var); ok && v.IsField() && c.callsRandom(n.Rhs[i], buffers) {
								c.drawnFields[v.Origin()] = true
							}
						}
					}
				case *ast.KeyValueExpr:
					if v, ok := c.objOf(n.Key).(*types.Var); ok && v.IsField() && c.callsRandom(n.Value, buffers) {
						c.drawnFields[v.Origin()] = true
					}
				}
			}
		}
	}
	return c.drawnFields[f.Origin()]
}

// drawnBuffers returns the locals of a function that a draw of bytes fills (cbs of
// rand.Read(cbs), nats-io/nuid's prefix), and the arrays they slice (cb of cbs := cb[:]).
func (c *checker) drawnBuffers(fd cursor) map[types.Object]bool {
	out := map[types.Object]bool{}
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if c.byteDraw(call) == "" {
			continue
		}
		for _, a := range call.Args {
			if v := c.localVar(a); v != nil {
				out[v] = true
				if s, ok := ast.Unparen(c.onlyAssignment(v)).(*ast.SliceExpr); ok {
					if arr := c.localVar(s.X); arr != nil {
						out[arr] = true
					}
				}
			}
		}
	}
	return out
}

// callsRandom reports whether e calls a random function of the code (not through a func
// literal it holds), or reads one of buffers, locals a draw of bytes filled.
func (c *checker) callsRandom(e ast.Expr, buffers map[types.Object]bool) bool {
	return anyNode(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			return buffers[c.pass.TypesInfo.Uses[n]]
		case *ast.CallExpr:
			if _, draw := c.drawOf(n); draw || c.byteDraw(n) != "" {
				return true // rand.Int64N(1000) itself
			}
			f, inTest := c.randomCallee(n)
			return f != nil && !inTest
		}
		return false
	})
}

// anyNode reports whether a node of e, outside the func literals it holds, meets match.
func anyNode(e ast.Expr, match func(ast.Node) bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit || found {
			return false
		}
		found = match(n)
		return !found
	})
	return found
}

// isTextList reports whether t is a slice of texts (the parts a random function returns).
func isTextList(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && isText(s.Elem())
}

// formVar classifies every use of the local v, which holds the random result or a value made
// from it, in the function declaration around at.
func (c *checker) formVar(at cursor, v types.Object, u *formUse) {
	if u.made[v] {
		return
	}
	u.made[v] = true
	for _, id := range c.usesOf(at, v) {
		c.formUseAt(id, u)
	}
}

// formValue follows a value made from the random result, the expression at cur: into the
// variable it is the one value of, or up the syntax tree.
func (c *checker) formValue(cur cursor, u *formUse) {
	switch cur.Parent().Node().(type) {
	case *ast.AssignStmt, *ast.ValueSpec:
		if v := c.definedBy(cur); v != nil {
			c.formVar(cur, v, u)
			return
		}
	}
	c.formUseAt(cur, u)
}

// formUseAt classifies one use of the random result or of a value made from it, the
// expression at cur.
func (c *checker) formUseAt(cur cursor, u *formUse) {
	if u.breaker != "" {
		return
	}
	if isBool(c.typeOf(cur.Node().(ast.Expr))) {
		c.boolUse(cur, u)
		return
	}
	p := cur.Parent()
	switch pn := p.Node().(type) {
	case *ast.ParenExpr:
		c.formUseAt(p, u)
	case *ast.TypeAssertExpr: // p.(string): a value handed back as any, followed as what it is
		if pn.X != cur.Node() || pn.Type == nil {
			u.breaks("used in " + c.src(pn))
			return
		}
		if first, ok := commaOk(p); ok {
			u.check(pn, formType) // v, ok := value.(int64): ok tells its type, which a constant has
			if id, blank := first.(*ast.Ident); blank && id.Name == "_" {
				return
			}
		}
		c.formValue(p, u)
	case *ast.CallExpr:
		if pn.Fun == cur.Node() {
			u.breaks("called")
			return
		}
		c.formCallUse(p, pn, cur, u)
	case *ast.SelectorExpr:
		c.formMethodUse(p, pn, u)
	case *ast.BinaryExpr:
		other := pn.X
		if other == cur.Node() {
			other = pn.Y
		}
		switch {
		case c.isShift(pn, cur.Node()):
			c.shiftedPart(p, u) // id.High>>32: its high bits
		case (pn.Op == token.EQL || pn.Op == token.NEQ) && c.isEmptyValue(other):
			if pn.Op == token.NEQ && c.reportsWhenTrue(p) {
				u.breaks("checked to be empty: " + c.src(pn))
				return
			}
			u.check(pn, formEmpty)
		case (pn.Op == token.EQL || pn.Op == token.NEQ) && c.madeFrom(other, u):
			u.check(pn, formRoundTrip)
		case isOrder(pn.Op):
			u.check(pn, formBounds)
		default:
			u.breaks("compared: " + c.src(pn))
		}
	case *ast.IndexExpr:
		if pn.X != cur.Node() {
			u.breaks("used as an index in " + c.src(pn))
			return
		}
		if isText(c.typeOf(pn)) {
			c.formValue(p, u) // parts[1]
			return
		}
		c.formChar(p, u) // s[0]
	case *ast.RangeStmt:
		if pn.X != cur.Node() {
			u.breaks("used in " + c.src(pn.X))
			return
		}
		v := c.localVar(pn.Value)
		if v == nil {
			return // for i := range s: the indices say only the length
		}
		if isText(v.Type()) {
			c.formVar(p, v, u)
			return
		}
		for id := range p.Preorder((*ast.Ident)(nil)) {
			if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
				c.formChar(id, u)
			}
		}
	case *ast.AssignStmt, *ast.ValueSpec:
		if v := c.definedBy(cur); v != nil {
			c.formVar(cur, v, u)
			return
		}
		if v := c.pairedBy(cur); v != nil {
			c.formVar(cur, v, u) // if want, have := x, id.Low; want != have
			return
		}
		if a, ok := pn.(*ast.AssignStmt); ok && a.Tok == token.ASSIGN && len(a.Rhs) == 1 && a.Rhs[0] == cur.Node() && c.keptForOrder(cur, c.localVar(a.Lhs[0])) {
			return // prev = next, prev only ordered against the next draw: see keptForOrder
		}
		u.breaks("assigned in " + c.src(pn))
	case *ast.ExprStmt:
	default:
		u.breaks("used in " + strings.TrimPrefix(c.src(pn), "*ast."))
	}
}

// formCallUse classifies the random result or a value made from it (at arg) passed to call.
func (c *checker) formCallUse(p cursor, call *ast.CallExpr, arg cursor, u *formUse) {
	if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		c.formValue(p, u) // string(b), []byte(s), int(n)
		return
	}
	if b, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Builtin); ok && b.Name() == "len" {
		c.formLength(p, u)
		return
	}
	if b, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Builtin); ok && b.Name() == "append" {
		c.appendedDraw(p, call, arg, u) // ids = append(ids, gen.TraceID())
		return
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	first := len(call.Args) > 0 && call.Args[0] == arg.Node()
	switch {
	case !ok && u.checkFuncs[c.objOf(call.Fun)] != nil:
		c.checkFuncUse(p, call, arg, u)
	case !ok:
		u.breaks("passed to " + c.src(call.Fun))
	case isReporting(fn) || isMessageArg(fn, call, arg.Node()):
	case first && isFiniteCheck(fn):
		u.check(call, formFinite)
	case isPatternMatch(fn, call, arg.Node()):
		u.check(call, formChars)
	case first && isSubstringCheck(fn):
		u.check(call, formChars) // strings.Contains(res, "f")
	case first && isStringsFunc(fn, "Count"):
		c.formLength(p, u) // strings.Count(s, " "): a number of characters, as a length is
	case first && (isSplitter(fn) || isCaseChange(fn)):
		c.formValue(p, u)
	case c.isParser(fn, call, arg.Node()):
		u.kinds |= formParses
		c.parsedUse(p, call, u)
	case c.isMembership(fn, call, arg.Node()) && c.isFixedCollection(c.collectionOf(fn, call, arg.Node())):
		u.check(call, formMember) // slice.Contains(currencies, parts[0]): a constant of the list passes
	case isEqualCall(fn):
		for _, a := range call.Args {
			if a != arg.Node() && c.madeFrom(a, u) {
				u.check(call, formRoundTrip) // bytes.Equal(ip, net.ParseIP(ip.String()))
				return
			}
		}
		u.breaks("compared: " + c.src(call))
	case c.formHelper(fn, call, arg.Node(), u):
		u.check(call, 0)
	case isOrderMethod(fn) && len(call.Args) == 1 && c.orderedAgainst(p, call, u):
		// prev.Compare(next) >= 0: the draw ordered after the one before, an order of two
		// draws, which a constant increment keeps
	case isID(c.typeOf(arg.Node().(ast.Expr))) && fn.Pkg() != nil && c.inModule(fn.Pkg()) && !c.isTestFile(fn.Pos()) && c.madeResult(p, u):
		// root = ids.RootSpan(id): what the code makes of the ID, compared only with the
		// ID's parts, as a round trip is
	default:
		u.breaks("passed to " + c.src(call.Fun))
	}
}

// madeResult follows the result of a call of the code under test that was handed the random
// result, at cur, when a local keeps it (r := f(id), or r = f(id) between two stores into r):
// each of its uses, up to the next store, is classified as a value made from the result.
func (c *checker) madeResult(cur cursor, u *formUse) bool {
	v, end, ok := c.storedInTurn(cur)
	if !ok {
		return false
	}
	sub := &formUse{made: maps.Clone(u.made), depth: u.depth, loop: u.loop, fixed: u.fixed, id: u.id}
	sub.made[v] = true
	for _, id := range c.usesOf(cur, v) {
		if at := id.Node().Pos(); at > cur.Node().End() && (end == token.NoPos || at < end) {
			c.formUseAt(id, sub)
		}
	}
	if sub.breaker != "" || sub.kinds != formRoundTrip {
		return false // checked for more than a round trip, or not checked
	}
	maps.Copy(u.made, sub.made)
	u.checks, u.kinds = append(u.checks, sub.checks...), u.kinds|sub.kinds
	return true
}

// pairedBy returns the local that the expression at cur is the value of in a definition of
// several (want, have := x, id.Low), given no other value, or nil.
func (c *checker) pairedBy(cur cursor) *types.Var {
	a, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || a.Tok != token.DEFINE || len(a.Lhs) != len(a.Rhs) || len(a.Lhs) < 2 {
		return nil
	}
	i := slices.IndexFunc(a.Rhs, func(r ast.Expr) bool { return r == cur.Node() })
	if i < 0 {
		return nil
	}
	v := c.localVar(a.Lhs[i])
	if v == nil || c.assignCount(v) != 1 {
		return nil
	}
	return v
}

// formMethodUse classifies a method of the random result or a value made from it, sel: the
// String of what it parsed to, the order of a time.Time (Before, After), and its emptiness.
func (c *checker) formMethodUse(p cursor, sel *ast.SelectorExpr, u *formUse) {
	if v, ok := c.pass.TypesInfo.Uses[sel.Sel].(*types.Var); ok && v.IsField() {
		switch {
		case u.fixed[v.Name()] && types.Identical(c.typeOf(sel.X), u.id):
			// id.High, a part the function never draws: what the test checks of it says
			// nothing of the draws, as of a record's fixed field
		case isID(c.typeOf(sel.X)):
			c.formValue(p, u) // id.Low: a half of the ID, its form checked as the ID's
		case c.drawnField(v) || c.isRecord(v.Type()):
			c.formValue(p, u) // p.Name, p.Address: a drawn field, or a part that holds one
		case c.isRecord(c.typeOf(sel.X)):
			// p.Kind, a field the constructor fixes: what the test checks of it says
			// nothing of the draws
		default:
			u.breaks("used as " + c.src(sel))
		}
		return
	}
	call, ok := p.Parent().Node().(*ast.CallExpr)
	if !ok || call.Fun != sel {
		u.breaks("used as " + c.src(sel))
		return
	}
	switch sel.Sel.Name {
	case "String":
		c.formValue(p.Parent(), u)
	case "Before", "After", "Compare":
		u.check(call, formBounds)
	case "IsZero", "Empty", "IsEmpty":
		u.check(call, formEmpty)
	case "IsValid", "Valid": // traceID.IsValid(): not the zero ID; col.IsValid(): in gamut
		u.check(call, formValid)
	case "Equal":
		if len(call.Args) == 1 && c.madeFrom(call.Args[0], u) {
			u.check(call, formRoundTrip)
			return
		}
		u.breaks("compared: " + c.src(call))
	default:
		if len(call.Args) == 0 && isTimeTime(c.typeOf(sel.X)) && isNumeric(c.typeOf(call)) {
			c.formValue(p.Parent(), u) // v.Year(): a part of the time, held to bounds as the time is
			return
		}
		if len(call.Args) == 0 && isID(c.typeOf(sel.X)) && u.loop && (c.reportsOnly(p.Parent()) || c.fixedAccessor(p.Parent(), u)) {
			return // uuid.Version() != 4, in a loop of draws: the version its form fixes
		}
		u.breaks("passed to " + c.src(sel))
	}
}

// commaOk returns the first value the type assertion at cur defines or assigns with its ok
// (v, ok := value.(int64); var v, ok = value.(int64)), and whether it has one.
func commaOk(cur cursor) (ast.Expr, bool) {
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 2 && len(p.Rhs) == 1 {
			return p.Lhs[0], true
		}
	case *ast.ValueSpec:
		if len(p.Names) == 2 && len(p.Values) == 1 {
			return p.Names[0], true
		}
	}
	return nil, false
}

// isFiniteCheck reports whether fn is math.IsNaN or math.IsInf: a number checked to be one,
// which a constant is.
func isFiniteCheck(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "math" && (fn.Name() == "IsNaN" || fn.Name() == "IsInf")
}

// isOrderMethod reports whether fn is a method that orders its receiver and its argument of
// the same type: Compare (an int), Before, After or Less (a bool).
func isOrderMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil || fn.Signature().Params().Len() != 1 {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch fn.Name() {
	case "Compare", "Before", "After", "Less":
		return types.Identical(t, fn.Signature().Params().At(0).Type())
	}
	return false
}

// orderedAgainst reports whether the order method call, handed the random result at cur,
// is only compared as an order (a Compare's int with 0 by an order, a Before's bool in a
// condition), and records it: a check of bounds, the draw before being the bound, which a
// constant increment passes.
func (c *checker) orderedAgainst(cur cursor, call *ast.CallExpr, u *formUse) bool {
	switch p := cur.Parent().Node().(type) {
	case *ast.BinaryExpr:
		if !isOrder(p.Op) || c.pass.TypesInfo.Types[otherSide(p, call)].Value == nil {
			return false
		}
		u.check(p, formOrder)
		return true
	case *ast.IfStmt, *ast.UnaryExpr:
		if isBool(c.typeOf(call)) {
			u.check(call, formOrder)
			return true
		}
	}
	return false
}

// keptForOrder reports whether v, given the random result at cur (prev = next), is read only
// as the receiver of an order method (prev.Compare(next)), or of an accessor or in a message
// (t.Fatalf("%v", prev.Time())): it keeps the draw to order the next one, which is no check
// of this one (ulid's TestMonotonic).
func (c *checker) keptForOrder(cur cursor, v *types.Var) bool {
	if v == nil {
		return false
	}
	return keptOnlyFor(c.usesOf(cur, v), func(id cursor) bool {
		switch p := id.Parent().Node().(type) {
		case *ast.SelectorExpr:
			call, ok := id.Parent().Parent().Node().(*ast.CallExpr)
			fn, isFn := c.pass.TypesInfo.Uses[p.Sel].(*types.Func)
			return ok && isFn && call.Fun == p && (isOrderMethod(fn) || c.reportsOnly(id.Parent().Parent()))
		case *ast.CallExpr:
			return c.reportsOnly(id)
		case *ast.BinaryExpr:
			return isOrder(p.Op) // latestTS < next>>32
		case *ast.AssignStmt:
			return c.definesOrderedOnly(id) // oldVal := latestTS, then ordered
		}
		return false
	})
}

// reportsOnly reports whether the value at cur is only an argument of a message.
func (c *checker) reportsOnly(cur cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && (isReporting(fn) || isMessageArg(fn, call, cur.Node()))
}

// fixedAccessor reports whether the result of an ID's accessor, the call at cur
// (uuid.Variant()), is only compared with constants, directly or through the local it is
// given (if v := uuid.Variant(); v != VariantIETF), or reported, and records the
// comparisons. A random ID's accessor that a test pins to a constant reads the bits its form
// fixes (a version 4 UUID's version and variant), which an ID with no random bit has too. A
// single draw so checked is more often a test of the accessors (gocql's
// TestRandomUUIDInvalidAPICalls), so only a loop of draws counts.
func (c *checker) fixedAccessor(cur cursor, u *formUse) bool {
	var uses []cursor
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		v := c.definedBy(cur)
		if v == nil && len(p.Lhs) == len(p.Rhs) {
			// got, want := u.Version(), V7: the accessor's own local in a pair (gofrs/uuid)
			v = c.localVar(p.Lhs[slices.Index(p.Rhs, cur.Node().(ast.Expr))])
		}
		if v == nil || p.Tok != token.DEFINE {
			return false
		}
		uses = c.usesOf(cur, v)
	default:
		uses = []cursor{cur}
	}
	var cmps []ast.Node
	for _, id := range uses {
		switch p := id.Parent().Node().(type) {
		case *ast.BinaryExpr:
			other := otherSide(p, id.Node())
			if p.Op != token.EQL && p.Op != token.NEQ || !c.constantLocal(other) {
				return false
			}
			cmps = append(cmps, p)
		case *ast.CallExpr:
			if !c.reportsOnly(id) {
				return false
			}
		default:
			return false
		}
	}
	for _, n := range cmps {
		u.check(n, formFixed)
	}
	return len(cmps) > 0
}

// formLength classifies a length or a count of characters of the random result, at cur:
// compared with a constant, or joined by + and - to constants and to other such lengths
// first ((len(s) - strings.Count(s, " ")) > 16).
func (c *checker) formLength(cur cursor, u *formUse) {
	p := cur.Parent()
	switch pn := p.Node().(type) {
	case *ast.ParenExpr:
		c.formLength(p, u)
		return
	case *ast.CallExpr:
		if c.reports(pn) {
			return
		}
	case *ast.BinaryExpr:
		other := pn.X
		if other == cur.Node() {
			other = pn.Y
		}
		constant := c.pass.TypesInfo.Types[other].Value != nil
		switch {
		case (pn.Op == token.ADD || pn.Op == token.SUB) && (constant || c.isLength(other, u)):
			c.formLength(p, u)
			return
		case (isOrder(pn.Op) || pn.Op == token.EQL || pn.Op == token.NEQ) && (constant || c.isLength(other, u)):
			u.check(pn, formLength)
			return
		}
	}
	u.breaks("its length used in " + c.src(p.Node()))
}

// isLength reports whether e is a length or a count of characters of a value made from the
// random result: len(parts), strings.Count(s, " ").
func (c *checker) isLength(e ast.Expr, u *formUse) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || !c.madeFrom(call.Args[0], u) {
		return false
	}
	if b, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Builtin); ok {
		return b.Name() == "len"
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && isStringsFunc(fn, "Count")
}

// formChar classifies one use of a character of the random result, at cur, as charUse does
// for random text.
func (c *checker) formChar(cur cursor, u *formUse) {
	tu := &textUse{}
	c.charUse(cur, tu)
	if tu.breaker != "" {
		u.breaks(tu.breaker)
		return
	}
	for _, n := range tu.shape {
		u.check(n, formChars)
	}
}

// parsedUse follows what a parser made of the random result (the call at p): its error,
// whose every use only tells whether the result parsed, and its values, which are followed
// as values made from the result. A parse whose error and values go unread checks nothing.
func (c *checker) parsedUse(p cursor, call *ast.CallExpr, u *formUse) {
	var lhs []ast.Expr
	switch pn := p.Parent().Node().(type) {
	case *ast.AssignStmt:
		if pn.Tok != token.DEFINE || len(pn.Rhs) != 1 {
			u.breaks("parsed into " + c.src(pn))
			return
		}
		lhs = pn.Lhs
	case *ast.ValueSpec:
		if len(pn.Values) != 1 {
			u.breaks("parsed into " + c.src(pn))
			return
		}
		for _, n := range pn.Names {
			lhs = append(lhs, n)
		}
	default:
		if _, tuple := c.typeOf(call).(*types.Tuple); tuple {
			u.breaks("parsed by " + c.src(call))
			return
		}
		c.formUseAt(p, u) // net.ParseIP(s) == nil
		return
	}
	for _, e := range lhs {
		v := c.localVar(e)
		if v == nil {
			continue // _
		}
		if isNamedError(v.Type()) {
			// Every use of the error tells only whether the result parsed; the comparisons
			// and assertions of it are the checks a message names.
			for _, id := range c.usesOf(p, v) {
				switch pn := id.Parent().Node().(type) {
				case *ast.BinaryExpr:
					u.check(pn, formParses)
				case *ast.CallExpr:
					if !c.reports(pn) {
						u.check(pn, formParses)
					}
				}
			}
			continue
		}
		c.formVar(p, v, u)
	}
}

// usesOf returns the cursors of the uses of the local v in the function declaration around at.
func (c *checker) usesOf(at cursor, v types.Object) []cursor {
	scope := at
	for fd := range at.Enclosing((*ast.FuncDecl)(nil)) {
		scope = fd
		break
	}
	var out []cursor
	for id := range scope.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
			out = append(out, id)
		}
	}
	return out
}

// madeFrom reports whether e is a value made from the random result: a local that holds one,
// or one seen through conversions, parsers, changes of case and String (net.ParseIP(ip.String())).
func (c *checker) madeFrom(e ast.Expr, u *formUse) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if u.made[c.pass.TypesInfo.Uses[e]] {
			return true
		}
		// want := model.ID(id.Low), given before the walk reaches it
		init := c.onlyAssignment(c.localVar(e))
		return init != nil && c.madeFrom(init, u)
	case *ast.SelectorExpr: // id.Low: a part of the ID
		v, ok := c.pass.TypesInfo.Uses[e.Sel].(*types.Var)
		return ok && v.IsField() && c.madeFrom(e.X, u)
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "String" && len(e.Args) == 0 {
			return c.madeFrom(sel.X, u)
		}
		fn, _ := typeutil.Callee(c.pass.TypesInfo, e).(*types.Func)
		tv := c.pass.TypesInfo.Types[e.Fun]
		if tv.IsType() || fn != nil && (isCaseChange(fn) || c.isParser(fn, e, nil)) {
			for _, a := range e.Args {
				if c.madeFrom(a, u) {
					return true
				}
			}
		}
	}
	return false
}

// boolUse classifies a use of a random bool, or of a bool made from the random result, at
// cur: a condition over it that holds, or fails, whatever it is (b != true && b != false)
// checks nothing; any other use is a check of what it is.
func (c *checker) boolUse(cur cursor, u *formUse) {
	top := cur
	for {
		p := top.Parent()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			top = p
			continue
		case *ast.UnaryExpr:
			if pn.Op == token.NOT {
				top = p
				continue
			}
		case *ast.BinaryExpr:
			if pn.Op == token.LAND || pn.Op == token.LOR || (pn.Op == token.EQL || pn.Op == token.NEQ) && isBool(c.typeOf(pn.X)) {
				top = p
				continue
			}
		}
		break
	}
	whenTrue, okT := c.evalBool(top.Node().(ast.Expr), cur.Node(), true)
	whenFalse, okF := c.evalBool(top.Node().(ast.Expr), cur.Node(), false)
	if okT && okF && whenTrue == whenFalse {
		u.check(top.Node(), formNever)
		return
	}
	if call, ok := top.Parent().Node().(*ast.CallExpr); ok && c.reports(call) {
		return
	}
	u.breaks("checked: " + c.src(top.Node()))
}

// evalBool evaluates the condition e with the expression leaf, and every other use of the
// same variable, set to v; ok is false when e depends on anything else.
func (c *checker) evalBool(e ast.Expr, leaf ast.Node, v bool) (val, ok bool) {
	if tv := c.pass.TypesInfo.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.Bool {
		return constant.BoolVal(tv.Value), true
	}
	if e == leaf {
		return v, true
	}
	if id, ok := e.(*ast.Ident); ok {
		if l, lok := leaf.(*ast.Ident); lok && c.pass.TypesInfo.Uses[id] != nil && c.pass.TypesInfo.Uses[id] == c.pass.TypesInfo.Uses[l] {
			return v, true
		}
		return false, false
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.evalBool(e.X, leaf, v)
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			x, ok := c.evalBool(e.X, leaf, v)
			return !x, ok
		}
	case *ast.BinaryExpr:
		x, okX := c.evalBool(e.X, leaf, v)
		y, okY := c.evalBool(e.Y, leaf, v)
		if !okX || !okY {
			return false, false
		}
		switch e.Op {
		case token.LAND:
			return x && y, true
		case token.LOR:
			return x || y, true
		case token.EQL:
			return x == y, true
		case token.NEQ:
			return x != y, true
		}
	}
	return false, false
}

// formHelper reports whether call hands arg to one of the package's test helpers (declared
// in a _test.go file) that returns nothing or one bool and does nothing with the parameter
// arg is passed as but check its form (CheckPhoneNumber(str, t), which checks a length and a
// regexp). A function of the code under test that takes the value is tested by it.
func (c *checker) formHelper(fn *types.Func, call *ast.CallExpr, arg ast.Node, u *formUse) bool {
	decl := c.declOf(fn)
	sig := fn.Signature()
	if decl == nil || decl.Body == nil || !c.isTestFile(decl.Pos()) || u.depth > 1 || sig.Variadic() || len(call.Args) != sig.Params().Len() ||
		sig.Results().Len() > 1 || sig.Results().Len() == 1 && !isBool(sig.Results().At(0).Type()) {
		return false
	}
	if fact, _ := c.randomCallee(call); fact != nil {
		return false
	}
	for i, a := range call.Args {
		if a != arg {
			continue
		}
		at, ok := c.insp.Root().FindNode(decl)
		if !ok {
			return false
		}
		u.depth++
		c.formVar(at, sig.Params().At(i), u)
		u.depth--
		return u.breaker == ""
	}
	return false
}

// isParser reports whether fn parses a text argument (arg, or any when arg is nil) and
// tells whether it parsed: a function or method named Parse…, Atoi or DecodeString whose
// last result is an error, or net.ParseIP, nil when it fails. The module's own parsers are
// code under test: a random value handed to one is its input (uuid.Parse(uuid.New().String())
// in uuid's tests tests Parse), not a value checked for its form.
func (c *checker) isParser(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	if fn.Pkg() == nil || c.inModule(fn.Pkg()) {
		return false
	}
	name := fn.Name()
	if !strings.HasPrefix(name, "Parse") && name != "Atoi" && name != "DecodeString" {
		return false
	}
	res := fn.Signature().Results()
	if res.Len() == 0 || !isNamedError(res.At(res.Len()-1).Type()) && !(fn.Pkg().Path() == "net" && name == "ParseIP") {
		return false
	}
	if arg == nil {
		return true
	}
	for _, a := range call.Args {
		if a == arg {
			return true
		}
	}
	return false
}

// isCaseChange reports whether fn changes a text's case or trims its spaces (strings.ToLower,
// ToUpper, TrimSpace): what it makes compared with the text checks only which characters
// make it.
func isCaseChange(fn *types.Func) bool {
	return isStringsFunc(fn, "ToLower") || isStringsFunc(fn, "ToUpper") || isStringsFunc(fn, "TrimSpace")
}

// isSubstringCheck reports whether fn tells whether a text holds a substring, a character of
// a set, or starts or ends with one: strings' and bytes' Contains, ContainsAny, ContainsRune,
// HasPrefix and HasSuffix.
func isSubstringCheck(fn *types.Func) bool {
	for _, name := range []string{"Contains", "ContainsAny", "ContainsRune", "HasPrefix", "HasSuffix"} {
		if isStringsFunc(fn, name) {
			return true
		}
	}
	return false
}

// isStringsFunc reports whether fn is the function name of package strings or bytes.
func isStringsFunc(fn *types.Func, name string) bool {
	return fn.Pkg() != nil && (fn.Pkg().Path() == "strings" || fn.Pkg().Path() == "bytes") &&
		fn.Signature().Recv() == nil && fn.Name() == name
}

// isEqualCall reports whether fn compares two values exactly: bytes.Equal, slices.Equal,
// reflect.DeepEqual, strings.EqualFold.
func isEqualCall(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "bytes.Equal", "slices.Equal", "reflect.DeepEqual", "strings.EqualFold":
		return true
	}
	return false
}

// formWords says in words what a test's checks of form look at.
var formWords = []struct {
	kind formKind
	text string
}{
	{formType, "its type"},
	{formFinite, "that it is finite"},
	{formParses, "that it parses"},
	{formBounds, "the bounds of what it parses to"},
	{formLength, "its length"},
	{formChars, "its characters"},
	{formRoundTrip, "that it survives a round trip"},
	{formEmpty, "that it is not empty"},
	{formFixed, "the bits its form fixes"},
	{formOrder, "its order after the one before"},
	{formValid, "that it is valid"},
	{formMember, "that it or a part of it is in a collection"},
}

// reportBlindForm reports a test that checks a random result only for its form.
func (c *checker) reportBlindForm(fd, cur cursor, call *ast.CallExpr, u *formUse, n int, tb string) {
	name := c.testName(fd)
	times, _, _ := c.drawTimes(cur, call, n)
	what, checks := c.formSummary(u)
	if u.kinds == formNever {
		c.pass.Report(analysis.Diagnostic{
			Pos: call.Pos(), End: call.End(),
			Message: fmt.Sprintf("blind test: %s draws %s %s and checks it only by %s, which holds or fails whatever it draws, so no draw can fail the test; check what it draws: xs := spread.Draw(1000, func() int { if %s { return 1 }; return 0 }); spread.Check(%s, xs, spread.Uniform(0, 2))",
				name, c.src(call.Fun), times, checks, c.src(call), tb),
		})
		return
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: fmt.Sprintf("blind test: %s draws %s %s and checks only %s (%s), so a constant of the right form passes it; %s",
			name, c.src(call.Fun), times, what, checks, formFix),
	})
}

// formFix is what a message of a blind check of form says to do instead.
const formFix = "check what it draws: seed the source and compare the result exactly, or draw many and check the spread of what it is made from with spread.Check"

// formSummary says in words what a test's checks of form look at, and lists the checks, each
// once, in the order of the source. Bounds are those of what the value parses to when it is
// parsed, else its own (a number handed back as any, v >= lo).
func (c *checker) formSummary(u *formUse) (what, checks string) {
	var ws, cs []string
	for _, w := range formWords {
		switch {
		case u.kinds&w.kind == 0:
		case w.kind == formBounds && u.kinds&formParses == 0:
			ws = append(ws, "its bounds")
		default:
			ws = append(ws, w.text)
		}
	}
	slices.SortStableFunc(u.checks, c.sourceOrder)
	for _, n := range u.checks {
		if s := c.src(n); !strings.Contains(strings.Join(cs, "\x00"), s) {
			cs = append(cs, s)
		}
	}
	return joinWords(ws), strings.Join(cs, ", ")
}

// joinWords joins phrases as a sentence lists them: a, b and c.
func joinWords(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// inModule reports whether pkg is of the module under analysis: the pass's module, or, when
// the driver names none, the package under test and the packages below it.
func (c *checker) inModule(pkg *types.Package) bool {
	if m := c.pass.Module; m != nil && m.Path != "" {
		return pkg.Path() == m.Path || strings.HasPrefix(pkg.Path(), m.Path+"/")
	}
	own := strings.TrimSuffix(c.pass.Pkg.Path(), "_test")
	return pkg.Path() == own || strings.HasPrefix(pkg.Path(), own+"/")
}

// constantLocal reports whether e is a constant, or a local given only a constant (want in
// got, want := u.Version(), V7).
func (c *checker) constantLocal(e ast.Expr) bool {
	if c.pass.TypesInfo.Types[e].Value != nil {
		return true
	}
	init := c.onlyAssignment(c.localVar(e))
	return init != nil && c.pass.TypesInfo.Types[init].Value != nil
}
