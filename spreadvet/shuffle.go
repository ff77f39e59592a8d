package spreadvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"math"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/types/typeutil"
)

// shuffler is the fact that a function shuffles a slice in place: it calls a Shuffle of
// math/rand, swaps two elements of a slice at a drawn index (Fisher-Yates written out), or
// calls a function that shuffles. A test that requires the shuffled order to differ from
// the input fails on a correct shuffle with a chance it can be told.
type shuffler struct {
	Via  string // "rand.Shuffle", "a swap at a drawn index", "calls shufflePool"
	Hops int    // the calls between it and the shuffle: 0 when it shuffles itself
}

func (*shuffler) AFact() {}

func (s *shuffler) String() string { return "shuffles(" + s.Via + ")" }

// maxShuffleHops bounds the calls between a test's call and the shuffle: further away, what
// the test compares is less likely to be the shuffled slice itself.
const maxShuffleHops = 2

// findShufflers marks the package's functions that shuffle, after findRandomFuncs: those
// that shuffle themselves, then, until nothing changes, those that call one. Functions of
// non-test files get a shuffler fact.
func (c *checker) findShufflers() {
	c.shufflers = map[*types.Func]*shuffler{}
	var fns []*types.Func // in the order of declaration: a map's order would make Hops and Via vary
	callees := map[*types.Func][]shuffleCall{}
	for _, test := range []bool{false, true} {
		for _, cur := range c.funcDecls(test) {
			fd := cur.Node().(*ast.FuncDecl)
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			via, calls := c.directShuffle(cur)
			fns = append(fns, fn)
			callees[fn] = calls
			if via != "" {
				c.shufflers[fn] = &shuffler{Via: via}
			}
		}
	}
	// Each round adds the callers of the last round's shufflers, so a function's Hops is its
	// fewest calls to a shuffle, whatever the order of the functions.
	for {
		found := map[*types.Func]*shuffler{}
		for _, fn := range fns {
			if c.shufflers[fn] != nil {
				continue
			}
			for _, sc := range callees[fn] {
				s := sc.fact
				if sc.local {
					s = funcFact(c, c.shufflers, sc.fn)
				}
				if s != nil && s.Hops < maxShuffleHops {
					found[fn] = &shuffler{Via: "calls " + calleeName(sc.call), Hops: s.Hops + 1}
					break
				}
			}
		}
		if len(found) == 0 {
			break
		}
		maps.Copy(c.shufflers, found)
	}
	for fn, s := range c.shufflers {
		if !c.isTestFile(fn.Pos()) {
			c.pass.ExportObjectFact(fn, s)
		}
	}
}

// A shuffleCall is a call with a static callee, as findShufflers's loop asks it again on every
// round: the fact of an imported callee cannot change, and is read once (StaticCallee and
// ImportObjectFact on every round were a third of findShufflers on memberlist's package).
type shuffleCall struct {
	call  *ast.CallExpr
	fn    *types.Func
	local bool      // fn is declared in this package: its fact is c.shufflers's, which grows
	fact  *shuffler // the fact of an imported fn, fixed
}

// directShuffle returns what makes the function at fd shuffle by itself, or "", and the
// calls with a static callee that it makes. It walks the body with the inspector, which
// skips the subtrees with no call or assignment (ast.Inspect visited every node).
func (c *checker) directShuffle(fd cursor) (via string, calls []shuffleCall) {
	swaps := false
	for cur := range fd.ChildAt(edge.FuncDecl_Body, -1).Preorder((*ast.CallExpr)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if d, ok := c.drawOf(n); ok && d.name == "Shuffle" && via == "" {
				via = "rand.Shuffle"
			}
			if fn := typeutil.StaticCallee(c.pass.TypesInfo, n); fn != nil {
				sc := shuffleCall{call: n, fn: fn, local: fn.Origin().Pkg() == c.pass.Pkg}
				if !sc.local {
					sc.fact = funcFact(c, c.shufflers, fn)
				}
				calls = append(calls, sc)
			}
		case *ast.AssignStmt:
			swaps = swaps || isSwap(n) && c.drawnIndex(n)
		}
	}
	if via == "" && swaps {
		via = "a swap at a drawn index"
	}
	return via, calls
}

// isSwap reports whether s is "x[i], x[j] = x[j], x[i]".
func isSwap(s *ast.AssignStmt) bool {
	if s.Tok != token.ASSIGN || len(s.Lhs) != 2 || len(s.Rhs) != 2 {
		return false
	}
	_, indexed := ast.Unparen(s.Lhs[0]).(*ast.IndexExpr)
	_, indexed2 := ast.Unparen(s.Lhs[1]).(*ast.IndexExpr)
	return indexed && indexed2 && text(s.Lhs[0]) == text(s.Rhs[1]) && text(s.Lhs[1]) == text(s.Rhs[0]) && text(s.Lhs[0]) != text(s.Lhs[1])
}

// drawnIndex reports whether an index of the swap s is drawn: a draw, or a local variable
// given one value that holds a draw (j := offset + r.Intn(i+1-offset)).
func (c *checker) drawnIndex(s *ast.AssignStmt) bool {
	for _, l := range s.Lhs {
		idx := ast.Unparen(l).(*ast.IndexExpr).Index
		if v := c.localVar(idx); v != nil {
			if init := c.onlyAssignment(v); init != nil {
				idx = init
			}
		}
		drawn := false
		ast.Inspect(idx, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				_, drawn = c.drawOf(call)
			}
			return !drawn
		})
		if drawn {
			return true
		}
	}
	return false
}

// shufflerOf returns the shuffler fact of the function call calls, from this package or an
// imported one, or nil.
func (c *checker) shufflerOf(call *ast.CallExpr) *shuffler {
	fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
	if fn == nil {
		return nil
	}
	return funcFact(c, c.shufflers, fn)
}

// shuffleDiffers reports a test that fails when a shuffled slice equals its input (at is
// the comparison, x and y what it compares): a correct shuffle of n distinct items keeps
// their order once in n! runs, more often when items are alike.
func (c *checker) shuffleDiffers(fd cursor, at ast.Node, x, y ast.Expr, tb string) {
	for _, pair := range [][2]ast.Expr{{x, y}, {y, x}} {
		shuffled, input := pair[0], pair[1]
		if !isSequence(c.typeOf(shuffled)) || !isSequence(c.typeOf(input)) {
			return
		}
		call := c.shuffleBefore(fd, at, shuffled)
		if call == nil || c.builtFrom(fd, input, c.callRoots(call), 0) {
			continue
		}
		lit := c.literalOf(input)
		if lit == nil {
			return // the number of items is unknown: the chance may be negligible
		}
		// One finding per test and input: a later comparison with the same input makes the
		// same claim, and what changed between may make it wrong (nats.go's second pool
		// holds Opts.Url too, so its comparison with the 7 servers can never hold).
		key := shuffleKey{fd.Node(), text(input)}
		if c.shuffleSeen[key] {
			return
		}
		if c.shuffleSeen == nil {
			c.shuffleSeen = map[shuffleKey]bool{}
		}
		c.shuffleSeen[key] = true
		p, method, ok := c.sameOrderChance(lit, at)
		if !ok || p < minReportedChance {
			return
		}
		name := c.testName(fd)
		n := len(lit.Elts)
		c.pass.Report(analysis.Diagnostic{
			Pos: at.Pos(), End: at.End(),
			Message: fmt.Sprintf("chance verdict: %s fails when %s leaves %s in the order of %s (%s), which a correct uniform shuffle of its %d items does with probability %.3g (%s); check instead that the shuffle keeps every item (sorted copies equal), and its randomness by where one item lands over many shuffles: xs := spread.Draw(1000, func() int { shuffle a fresh copy; return the index its first item went to }); spread.Check(%s, xs, spread.Uniform(0, %d))",
				name, c.src(call), c.src(shuffled), c.src(input), c.src(at), n, p, method, tb, n),
		})
		return
	}
}

// A shuffleKey is a test and the input its shuffle is compared with.
type shuffleKey struct {
	test  ast.Node
	input string
}

// isSequence reports whether t is a slice or an array.
func isSequence(t types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	}
	return false
}

// shuffleBefore returns the call of a shuffling function of the code under test, made in
// the test before at, that the expression e is built from (its argument or receiver, or a
// slice filled from them), or nil.
func (c *checker) shuffleBefore(fd cursor, at ast.Node, e ast.Expr) *ast.CallExpr {
	var found *ast.CallExpr
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if call.Pos() >= at.Pos() {
			break
		}
		fn := typeutil.StaticCallee(c.pass.TypesInfo, call)
		if fn == nil || fn.Pkg() == c.pass.Pkg && c.isTestFile(fn.Pos()) || c.shufflerOf(call) == nil {
			continue
		}
		if c.builtFrom(fd, e, c.callRoots(call), 0) {
			found = call
		}
	}
	return found
}

// callRoots returns the variables at the root of a call's arguments and receiver.
func (c *checker) callRoots(call *ast.CallExpr) map[types.Object]bool {
	roots := map[types.Object]bool{}
	args := slices.Clone(call.Args)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			args = append(args, sel.X)
		}
	}
	for _, a := range args {
		if o := c.rootObj(a); o != nil {
			roots[o] = true
		}
	}
	return roots
}

// rootObj returns the variable an expression reads at its root: x of x, x.f, x[i], x[:n],
// *x, &x, x.m() and conversions of these; nil for other calls and literals.
func (c *checker) rootObj(e ast.Expr) types.Object {
	for {
		switch n := ast.Unparen(e).(type) {
		case *ast.Ident:
			if v, ok := c.pass.TypesInfo.ObjectOf(n).(*types.Var); ok {
				return v
			}
			return nil
		case *ast.SelectorExpr:
			if _, isPkg := c.pass.TypesInfo.ObjectOf(asIdent(n.X)).(*types.PkgName); isPkg {
				return c.pass.TypesInfo.ObjectOf(n.Sel) // a package's variable
			}
			e = n.X
		case *ast.IndexExpr:
			e = n.X
		case *ast.SliceExpr:
			e = n.X
		case *ast.StarExpr:
			e = n.X
		case *ast.UnaryExpr:
			if n.Op != token.AND {
				return nil
			}
			e = n.X
		case *ast.CallExpr:
			if tv, ok := c.pass.TypesInfo.Types[n.Fun]; ok && tv.IsType() && len(n.Args) == 1 {
				e = n.Args[0] // a conversion
				continue
			}
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if s := c.pass.TypesInfo.Selections[sel]; !ok || s == nil || s.Kind() != types.MethodVal {
				return nil
			}
			e = sel.X // u.URL.String()
		default:
			return nil
		}
	}
}

// asIdent returns e as an identifier, or nil.
func asIdent(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// builtFrom reports whether the value of e comes from one of the roots within the test:
// it reads one, or it is a local variable given (or appended) a value that does, or a range
// variable over one.
func (c *checker) builtFrom(fd cursor, e ast.Expr, roots map[types.Object]bool, depth int) bool {
	o := c.rootObj(e)
	if o == nil || depth > 3 {
		return false
	}
	if roots[o] {
		return true
	}
	v, ok := o.(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	for cur := range fd.Preorder((*ast.RangeStmt)(nil), (*ast.AssignStmt)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.RangeStmt:
			if c.objOf(n.Key) == v || n.Value != nil && c.objOf(n.Value) == v {
				if c.builtFrom(fd, n.X, roots, depth+1) {
					return true
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if c.objOf(l) != v || len(n.Lhs) != len(n.Rhs) {
					continue
				}
				for _, src := range c.appended(n.Rhs[i]) {
					if c.builtFrom(fd, src, roots, depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// appended returns what an assigned value is made of: the elements of append(s, xs...),
// or the value itself.
func (c *checker) appended(e ast.Expr) []ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return []ast.Expr{e}
	}
	if b, ok := c.pass.TypesInfo.Uses[asIdent(call.Fun)].(*types.Builtin); ok && b.Name() == "append" {
		return call.Args[1:]
	}
	return []ast.Expr{e}
}

// literalOf returns the composite literal a slice or array expression holds: directly, or
// as the one value of a local or package variable.
func (c *checker) literalOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.CompositeLit); ok {
		return lit
	}
	v, ok := c.objOf(e).(*types.Var)
	if !ok {
		return nil
	}
	if init := c.onlyAssignment(v); init != nil {
		lit, _ := ast.Unparen(init).(*ast.CompositeLit)
		return lit
	}
	if v.Parent() != v.Pkg().Scope() || v.Pkg() != c.pass.Pkg || c.packageVarWritten(v) {
		return nil
	}
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if c.pass.TypesInfo.Defs[id] == v && len(vs.Values) == len(vs.Names) {
						lit, _ := ast.Unparen(vs.Values[i]).(*ast.CompositeLit)
						return lit
					}
				}
			}
		}
	}
	return nil
}

// packageVarWritten reports whether any function of the package assigns the package
// variable v, so that its declared value may not be the one a test reads.
func (c *checker) packageVarWritten(v *types.Var) bool {
	written := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if c.objOf(l) == v {
						written = true
					}
				}
			}
			return !written
		})
	}
	return written
}

// sameOrderChance returns the probability that a uniform shuffle of the literal's items
// leaves them in their order as the comparison at sees it: prod(k_i!)/n! for groups of k_i
// items alike. Items are alike when they are the same constant, or the same literal of
// constants compared by value (reflect.DeepEqual and testify look through pointers); items
// that hold calls or variables are taken as distinct, so the chance is then a lower bound.
func (c *checker) sameOrderChance(lit *ast.CompositeLit, at ast.Node) (float64, string, bool) {
	n := len(lit.Elts)
	if n < 2 || n > 170 {
		return 0, "", false
	}
	deep := !isSlicesEqual(c, at)
	groups := map[string]int{}
	atLeast := false
	for i, elt := range lit.Elts {
		if _, ok := elt.(*ast.KeyValueExpr); ok {
			return 0, "", false // an indexed array literal: its length is not its elements' count
		}
		key, ok := c.itemKey(elt, deep)
		if !ok {
			key, atLeast = fmt.Sprintf("#%d", i), true
		}
		groups[key]++
	}
	lp, _ := math.Lgamma(float64(n + 1))
	var alike []string
	for _, k := range groups {
		lk, _ := math.Lgamma(float64(k + 1))
		lp -= lk
		if k > 1 {
			alike = append(alike, fmt.Sprintf("%d!", k))
		}
	}
	slices.Sort(alike)
	method := fmt.Sprintf("1/%d!, exact", n)
	if len(alike) > 0 {
		method = fmt.Sprintf("%s/%d!, exact, with %s items alike", strings.Join(alike, ""), n, strings.Join(alikeCounts(groups), " and "))
	}
	if atLeast {
		method = strings.Replace(method, "exact", "at least: items not known to differ are taken as distinct", 1)
	}
	return math.Exp(-lp), method, true
}

// alikeCounts returns the sizes of the groups of more than one item, largest first.
func alikeCounts(groups map[string]int) []string {
	var ks []int
	for _, k := range groups {
		if k > 1 {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	slices.Reverse(ks)
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = fmt.Sprint(k)
	}
	return out
}

// isSlicesEqual reports whether the comparison at is slices.Equal, which compares items
// with == (a pointer by its address).
func isSlicesEqual(c *checker, at ast.Node) bool {
	call, ok := at.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "slices" && fn.Name() == "Equal"
}

// itemKey returns what identifies an item of a literal for equality: its constant value,
// or the text of a literal made of constants only (deep: compared by value through
// pointers). It returns false when the item holds a call or a variable.
func (c *checker) itemKey(e ast.Expr, deep bool) (string, bool) {
	if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		return tv.Value.ExactString(), true
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND && !deep {
		return fmt.Sprintf("%p", e), true // &T{...} compared by its address: distinct from every other
	}
	pure := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			pure = false
		case *ast.Ident:
			switch c.pass.TypesInfo.ObjectOf(n).(type) {
			case *types.Const, *types.TypeName, nil:
			case *types.Var:
				pure = c.pass.TypesInfo.ObjectOf(n).(*types.Var).IsField() // a key of a struct literal
			default:
				pure = false
			}
		}
		return pure
	})
	return c.src(e), pure // text would abbreviate a literal's elements
}
