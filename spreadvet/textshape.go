package spreadvet

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"slices"

	"golang.org/x/tools/go/types/typeutil"
)

// The shape of random text: how many characters a random string has and how many letters
// they are drawn from, read from the function's body. Two such strings are equal with
// chance k^-n, which for a 32-character token over 62 letters is far below any chance worth
// a verdict; a collision check is only a chance verdict when k^-n is not.

// textShape is the length and the alphabet of a random function's text result, each a
// constant or one of its parameters.
type textShape struct {
	Len        int // the number of characters, when LenParam < 0
	LenParam   int // the parameter that is the number of characters, or -1
	Alpha      int // the size of the alphabet, when AlphaParam < 0
	AlphaParam int // the string parameter that is the alphabet, or -1
}

func (t *textShape) String() string {
	if t.Len == 0 && t.LenParam < 0 {
		return "text[?]"
	}
	part := func(n, param int) string {
		if param >= 0 {
			return fmt.Sprintf("$%d", param)
		}
		return fmt.Sprint(n)
	}
	return "text[" + part(t.Len, t.LenParam) + " of " + part(t.Alpha, t.AlphaParam) + "]"
}

// cryptoTextLen and cryptoTextAlpha are the shape of crypto/rand.Text: 26 characters of the
// base32 alphabet (128 bits and more).
const cryptoTextLen, cryptoTextAlpha = 26, 32

// inferText reads the shape of a function's random text from its body: every return of
// text (a value, or the value of a (value, error) that is not a constant) returns one
// buffer, made with make(T, n) or sliced to [:n], whose elements are assigned from one
// alphabet indexed (a string constant or parameter, or a []rune or []byte of one); or
// returns crypto/rand.Text().
func (c *checker) inferText(fd *ast.FuncDecl) *textShape {
	fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	sig := fn.Signature()
	res := sig.Results()
	if res.Len() == 0 || res.Len() > 2 || !isText(res.At(0).Type()) || res.Len() == 2 && !isNamedError(res.At(1).Type()) {
		return nil
	}
	return c.textOf(fd.Body, res.Len(), c.paramOf(sig))
}

// paramOf returns a func that tells which of sig's parameters an expression is, or -1.
func (c *checker) paramOf(sig *types.Signature) func(ast.Expr) int {
	return func(e ast.Expr) int {
		for i := range sig.Params().Len() {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == sig.Params().At(i) {
				return i
			}
		}
		return -1
	}
}

// inferGenText reads the shape of the text made by the generator a function returns: its
// first result a func() of text, returned as a func literal (return func() string { ... },
// nil) whose text inferText's rules read, the length and the alphabet in terms of the
// function's parameters, as the literal captures them.
func (c *checker) inferGenText(fd *ast.FuncDecl) *textShape {
	fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	res := fn.Signature().Results()
	if res.Len() == 0 || res.Len() > 2 || res.Len() == 2 && !isNamedError(res.At(1).Type()) {
		return nil
	}
	gen, ok := res.At(0).Type().Underlying().(*types.Signature)
	if !ok || gen.Params().Len() != 0 || gen.Results().Len() != 1 || !isText(gen.Results().At(0).Type()) {
		return nil
	}
	var lit *ast.FuncLit
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == res.Len() {
			if l, ok := ast.Unparen(r.Results[0]).(*ast.FuncLit); ok {
				lit = l
			}
		}
		_, isLit := n.(*ast.FuncLit)
		return !isLit
	})
	if lit == nil {
		return nil
	}
	return c.textOf(lit.Body, 1, c.paramOf(fn.Signature()))
}

// bindShape returns the shape of a generator's text with the parameters of the call that
// made it (nanoid.Standard(8)) put in: constants, or an unknown shape (text[?]) when an
// argument is none.
func bindShape(c *checker, s *textShape, call *ast.CallExpr) *textShape {
	if s == nil {
		return nil
	}
	out := &textShape{Len: s.Len, LenParam: -1, Alpha: s.Alpha, AlphaParam: -1}
	if s.LenParam >= 0 {
		out.Len = 0
		if s.LenParam < len(call.Args) {
			if v := c.pass.TypesInfo.Types[call.Args[s.LenParam]].Value; v != nil {
				if n, exact := constant.Int64Val(constant.ToInt(v)); exact && n > 0 {
					out.Len = int(n)
				}
			}
		}
	}
	if s.AlphaParam >= 0 {
		out.Alpha = 0
		if s.AlphaParam < len(call.Args) {
			if v := c.pass.TypesInfo.Types[call.Args[s.AlphaParam]].Value; v != nil && v.Kind() == constant.String {
				out.Alpha = distinctRunes(constant.StringVal(v))
			}
		}
	}
	return out
}

// textOf reads the shape of the text that the returns of body make, each with n results.
func (c *checker) textOf(body *ast.BlockStmt, results int, param func(ast.Expr) int) *textShape {
	var shape *textShape
	var buf types.Object
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		r, isReturn := n.(*ast.ReturnStmt)
		if _, lit := n.(*ast.FuncLit); lit || !ok {
			return false
		}
		if !isReturn {
			return true
		}
		if len(r.Results) != results {
			ok = false
			return false
		}
		e := c.stripTextConversions(r.Results[0])
		if tv := c.pass.TypesInfo.Types[e]; tv.Value != nil || isNil(c, e) {
			return false // "", nil: an error's return
		}
		if call, isCall := e.(*ast.CallExpr); isCall {
			if f, isFn := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); isFn && f.Pkg() != nil && f.Pkg().Path() == "crypto/rand" && f.Name() == "Text" {
				shape = &textShape{Len: cryptoTextLen, LenParam: -1, Alpha: cryptoTextAlpha, AlphaParam: -1}
				return false
			}
		}
		var length ast.Expr
		if s, isSlice := e.(*ast.SliceExpr); isSlice && s.Low == nil && s.High != nil && !s.Slice3 {
			e, length = ast.Unparen(s.X), s.High
		}
		v := c.localVar(e)
		if v == nil || buf != nil && buf != v {
			ok = false
			return false
		}
		buf = v
		if length == nil {
			mk, isCall := ast.Unparen(c.onlyAssignment(v)).(*ast.CallExpr)
			if !isCall || !c.isMake(mk) {
				ok = false // var b []byte, b := []byte(prefix): no length to read
				return false
			}
			length = mk.Args[1]
		}
		s := &textShape{LenParam: param(length), AlphaParam: -1}
		if s.LenParam < 0 {
			tv := c.pass.TypesInfo.Types[length]
			n, exact := constant.Int64Val(constant.ToInt(tv.Value))
			if tv.Value == nil || !exact || n <= 0 {
				ok = false
				return false
			}
			s.Len = int(n)
		}
		if shape != nil && *shape != *s {
			ok = false
			return false
		}
		shape = s
		return false
	})
	if !ok || shape == nil || buf == nil {
		return shape // crypto/rand.Text, or nothing
	}
	alpha, found := c.textAlphabet(body, buf, param)
	if !found {
		return nil
	}
	shape.Alpha, shape.AlphaParam = alpha.size, alpha.param
	return shape
}

// isMake reports whether call is make(T, n) with no capacity.
func (c *checker) isMake(call *ast.CallExpr) bool {
	b, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Builtin)
	return ok && b.Name() == "make" && len(call.Args) == 2
}

// wrappedText returns the shape of the text a wrapper returns (a function that only returns
// a random text function's result, NewLen(n) returning NewLenChars(n, StdChars)): the
// callee's shape with its parameters replaced by the wrapper's or by constants, or an
// unknown shape (Len 0) when an argument is neither, so that the wrapper's text is still
// random text, whose chance is not guessed.
func (c *checker) wrappedText(fd *ast.FuncDecl) *textShape {
	fn := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	r := soleReturn(fd)
	if r == nil || !isText(firstResult(tupleOf(fn.Signature().Results()))) {
		return nil
	}
	call, ok := c.stripTextConversions(r).(*ast.CallExpr)
	if !ok {
		return nil
	}
	f := c.randomCall(call)
	if f == nil || f.Text == nil {
		return nil
	}
	unknown := &textShape{LenParam: -1, AlphaParam: -1}
	s := *f.Text
	params := fn.Signature().Params()
	param := func(e ast.Expr) int {
		for i := range params.Len() {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == params.At(i) {
				return i
			}
		}
		return -1
	}
	if s.LenParam >= 0 {
		if s.LenParam >= len(call.Args) {
			return unknown
		}
		a := call.Args[s.LenParam]
		if s.LenParam = param(a); s.LenParam < 0 {
			n, exact := constant.Int64Val(constant.ToInt(c.pass.TypesInfo.Types[a].Value))
			if !exact || n <= 0 {
				return unknown
			}
			s.Len = int(n)
		}
	}
	if s.AlphaParam >= 0 {
		if s.AlphaParam >= len(call.Args) {
			return unknown
		}
		a := c.stripTextConversions(call.Args[s.AlphaParam]) // []byte(StdChars)
		if s.AlphaParam = param(a); s.AlphaParam < 0 {
			v := c.pass.TypesInfo.Types[a].Value
			if v == nil || v.Kind() != constant.String {
				return unknown
			}
			s.Alpha = distinctRunes(constant.StringVal(v))
		}
	}
	return &s
}

// tupleOf returns the type a call of a function with results res has: its one result, or
// the tuple.
func tupleOf(res *types.Tuple) types.Type {
	if res.Len() == 1 {
		return res.At(0).Type()
	}
	return res
}

// An alphabet is a constant's distinct characters or a string parameter.
type alphabet struct {
	size  int
	param int
}

// textAlphabet returns the one alphabet the elements of buf are assigned from in body
// (buf[i] = alphabet[j]), or false when there is none or more than one.
func (c *checker) textAlphabet(body *ast.BlockStmt, buf types.Object, param func(ast.Expr) int) (alphabet, bool) {
	var found *alphabet
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		a, isAssign := n.(*ast.AssignStmt)
		if !isAssign || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
			return true
		}
		lhs, isIndex := ast.Unparen(a.Lhs[0]).(*ast.IndexExpr)
		if !isIndex || c.objOf(lhs.X) != buf {
			return true
		}
		rhs, isIndex := c.stripConversions(a.Rhs[0]).(*ast.IndexExpr)
		if !isIndex {
			ok = false
			return false
		}
		src := c.stripTextConversions(rhs.X)
		if v := c.localVar(src); v != nil { // alphabet := []rune(rawAlphabet)
			if init := c.onlyAssignment(v); init != nil {
				src = c.stripTextConversions(init)
			}
		}
		al := alphabet{param: param(src)}
		if al.param < 0 {
			tv := c.pass.TypesInfo.Types[src]
			switch {
			case tv.Value != nil && tv.Value.Kind() == constant.String:
				al.size = distinctRunes(constant.StringVal(tv.Value))
			default:
				n, isArray := c.constantElems(src, rhs.Index)
				if !isArray {
					ok = false
					return false
				}
				al.size = n
			}
		}
		if found != nil && *found != al {
			ok = false
			return false
		}
		found = &al
		return true
	})
	if !ok || found == nil {
		return alphabet{}, false
	}
	return *found, true
}

// constantElems returns the number of distinct elements that index can pick from src, a
// package variable of array type given a composite literal of constants (go-nanoid's
// standardAlphabet [64]byte{'A', ...}) and assigned nowhere else: all of them, or the first
// m+1 when the index is masked (b & m, m+1 below the array's length).
func (c *checker) constantElems(src, index ast.Expr) (int, bool) {
	v, ok := c.objOf(src).(*types.Var)
	if !ok || v.IsField() || v.Parent() != v.Pkg().Scope() || v.Pkg() != c.pass.Pkg {
		return 0, false
	}
	if _, isArray := v.Type().Underlying().(*types.Array); !isArray {
		return 0, false
	}
	var lit *ast.CompositeLit
	stored := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if c.pass.TypesInfo.Defs[name] == v && i < len(n.Values) {
						lit, _ = ast.Unparen(n.Values[i]).(*ast.CompositeLit)
					}
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && c.objOf(ix.X) == types.Object(v) || c.objOf(l) == types.Object(v) {
						stored = true
					}
				}
			}
			return !stored
		})
	}
	if lit == nil || stored {
		return 0, false
	}
	var elems []string
	for _, e := range lit.Elts {
		if _, keyed := e.(*ast.KeyValueExpr); keyed {
			return 0, false
		}
		tv := c.pass.TypesInfo.Types[e]
		if tv.Value == nil {
			return 0, false
		}
		elems = append(elems, tv.Value.ExactString())
	}
	if b, ok := ast.Unparen(index).(*ast.BinaryExpr); ok && b.Op == token.AND {
		if m, exact := constant.Int64Val(constant.ToInt(c.pass.TypesInfo.Types[b.Y].Value)); c.pass.TypesInfo.Types[b.Y].Value != nil && exact && m >= 0 && int(m)+1 < len(elems) {
			elems = elems[:m+1]
		}
	}
	slices.Sort(elems)
	return len(slices.Compact(elems)), len(elems) > 0
}

// distinctRunes returns the number of distinct characters of s.
func distinctRunes(s string) int {
	seen := map[rune]bool{}
	for _, r := range s {
		seen[r] = true
	}
	return len(seen)
}

// stripTextConversions removes parentheses and conversions between text types (string(b),
// []rune(s), []byte(s)).
func (c *checker) stripTextConversions(e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return e
		}
		tv, ok := c.pass.TypesInfo.Types[call.Fun]
		if !ok || !tv.IsType() || !isText(tv.Type) {
			return e
		}
		e = call.Args[0]
	}
}

// isNil reports whether e is the predeclared nil.
func isNil(c *checker, e ast.Expr) bool { return c.pass.TypesInfo.Types[e].IsNil() }

// textValues returns the number of equally likely values a call of a random text function
// can return, k^n for n characters over k letters, when both are constants of the shape or
// of the call's arguments (a string constant's distinct characters). text says whether the
// call is random text (it has a shape, or its draw is of bytes): a collision of random text
// whose chance cannot be computed is not reported, since most such strings are long.
func (c *checker) textValues(call *ast.CallExpr, fact *randomFunc) (w float64, text, ok bool) {
	if !isText(firstResult(c.typeOf(call))) || fact.Text == nil && !fact.Bytes {
		return 0, false, false
	}
	s := fact.Text
	if s == nil {
		return 0, true, false
	}
	arg := func(i int) constant.Value {
		if i >= len(call.Args) {
			return nil
		}
		return c.pass.TypesInfo.Types[call.Args[i]].Value
	}
	n, k := s.Len, s.Alpha
	if s.LenParam >= 0 {
		v := arg(s.LenParam)
		if v == nil {
			return 0, true, false
		}
		l, exact := constant.Int64Val(constant.ToInt(v))
		if !exact || l <= 0 {
			return 0, true, false
		}
		n = int(l)
	}
	if s.AlphaParam >= 0 {
		v := arg(s.AlphaParam)
		if v == nil || v.Kind() != constant.String {
			return 0, true, false
		}
		k = distinctRunes(constant.StringVal(v))
	}
	if k < 1 || n < 1 { // n = 0: a wrapper's shape that could not be mapped
		return 0, true, false
	}
	return math.Pow(float64(k), float64(n)), true, true
}
