package spreadvet

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Random text. A random string (an ID, a name suffix) is tested as often by its shape alone:
// its length and that each character is in the alphabet. A constant string of the right
// length passes such a test, as a collapsed range passes a bounds check.

// A textUse is what a test does with one random string: the checks of its shape it makes, or
// the first use that tests more than the shape.
type textUse struct {
	shape    []ast.Node // len(s) compared, each character checked against an alphabet
	alphabet ast.Expr   // the alphabet the characters are checked against, when it is one
	length   bool       // the shape checked includes the length
	chars    bool       // the shape checked includes the characters
	breaker  string
}

// blindTexts reports the draws of random strings in a test that a loop repeats, or one or
// two with no loop, when the test checks only their length and their alphabet.
func (c *checker) blindTexts(fd cursor, tb string) {
	for cur := range fd.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if !isText(firstResult(c.typeOf(call))) {
			continue
		}
		fact, inTest := c.randomCallee(call)
		if fact == nil || inTest || fact.textHops() > 1 {
			continue
		}
		v := c.definedBy(cur)
		if v == nil {
			continue
		}
		u := &textUse{}
		for id := range fd.Preorder((*ast.Ident)(nil)) {
			if c.pass.TypesInfo.Uses[id.Node().(*ast.Ident)] == v {
				c.textUseAt(id, u)
			}
		}
		if u.breaker == "" && len(u.shape) > 0 {
			c.reportBlindText(fd, cur, call, u, tb)
		}
	}
}

// isText reports whether t is a string, a []byte or a []rune. A []int32 is no text: rune is
// an alias of int32, but a slice declared of int32 holds numbers (sarama's Partitions returns
// partition IDs), and go/types keeps the name rune where the source says it.
func isText(t types.Type) bool {
	switch t := t.Underlying().(type) {
	case *types.Basic:
		return t.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && (b.Kind() == types.Byte || b.Kind() == types.Rune && b.Name() == "rune")
	}
	return false
}

// firstResult returns the value of t that a caller tests: t, or the first of a tuple whose
// last is an error (id, err := Generate(...)) or tells whether there is a value (value, ok :=
// timeGen.Sample()).
func firstResult(t types.Type) types.Type {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() == 2 && (isNamedError(tuple.At(1).Type()) || isBool(tuple.At(1).Type())) {
		return tuple.At(0).Type()
	}
	return t
}

// isNamedError reports whether t is the predeclared error.
func isNamedError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// definedBy returns the local variable that the call at cur is the one value of (s :=
// String(n), var s = String(n), s, err := Generate(n)), or nil.
func (c *checker) definedBy(cur cursor) *types.Var {
	var lhs ast.Expr
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 && p.Tok == token.DEFINE {
			lhs = p.Lhs[0]
		}
		if len(p.Lhs) == 2 && len(p.Rhs) == 1 && p.Tok == token.DEFINE && firstResult(c.typeOf(p.Rhs[0])) != c.typeOf(p.Rhs[0]) {
			// The value and its error (or its ok): the value's one assignment is this one,
			// which onlyAssignment cannot name (it holds no single expression).
			v := c.localVar(p.Lhs[0])
			if v == nil || c.assignCount(v) != 1 {
				return nil
			}
			return v
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 {
			lhs = p.Names[0]
		}
	}
	v := c.localVar(lhs)
	if v == nil || c.onlyAssignment(v) != cur.Node() {
		return nil
	}
	return v
}

// textUseAt classifies one use of a random string: its length, its characters ranged over,
// or reported; anything else tests more than its shape.
func (c *checker) textUseAt(id cursor, u *textUse) {
	switch p := id.Parent().Node().(type) {
	case *ast.CallExpr:
		if b, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Builtin); ok && b.Name() == "len" {
			if call, ok := id.Parent().Parent().Node().(*ast.CallExpr); ok && c.reports(call) {
				return
			}
			u.shape, u.length = append(u.shape, id.Parent().Parent().Node()), true
			return
		}
		if fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func); ok && isLenHelper(fn) {
			u.shape, u.length = append(u.shape, p), true // assert.Len(t, id, 10)
			return
		}
		if fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func); ok && isPatternMatch(fn, p, id.Node()) {
			// A regexp match tells only which characters make the string, and in what
			// pattern: a constant that fits the pattern passes it, as it passes an alphabet.
			u.shape, u.chars = append(u.shape, p), true
			return
		}
		if fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func); ok && (isReporting(fn) || isMessageArg(fn, p, id.Node())) {
			return
		}
		u.breaker = "passed to " + c.src(p.Fun)
	case *ast.RangeStmt:
		if p.X != id.Node() {
			u.breaker = "used in " + c.src(p.X)
			return
		}
		if ch := c.localVar(p.Value); ch != nil && p.Value != nil {
			for cid := range id.Parent().Preorder((*ast.Ident)(nil)) {
				if c.pass.TypesInfo.Uses[cid.Node().(*ast.Ident)] == ch {
					c.charUse(cid, u)
				}
			}
		}
	default:
		u.breaker = "used in " + strings.TrimPrefix(c.src(p), "*ast.")
	}
}

// charUse classifies one use of a character of a random string: checked against an alphabet
// (strings.ContainsRune(valid, c), unicode.IsLetter(c)), compared with a bound or with a
// constant character, or reported.
func (c *checker) charUse(id cursor, u *textUse) {
	for {
		call, ok := id.Parent().Node().(*ast.CallExpr)
		if _, paren := id.Parent().Node().(*ast.ParenExpr); !paren && !(ok && c.isConversion(call)) {
			break
		}
		id = id.Parent() // rune(c), (c)
	}
	switch p := id.Parent().Node().(type) {
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(c.pass.TypesInfo, p).(*types.Func)
		switch {
		case !ok:
		case isReporting(fn) || isMessageArg(fn, p, id.Node()):
			return
		case isAlphabetCheck(fn):
			u.shape, u.chars = append(u.shape, p), true
			if fn.Pkg().Path() != "unicode" && len(p.Args) == 2 && p.Args[1] == id.Node() {
				u.alphabet = p.Args[0]
			}
			return
		}
		u.breaker = "its characters passed to " + c.src(p.Fun)
	case *ast.BinaryExpr:
		other := p.X
		if other == id.Node() {
			other = p.Y
		}
		// c > 'z', or c != 'a' && c != 'b': each a check of the alphabet.
		if isOrder(p.Op) || (p.Op == token.EQL || p.Op == token.NEQ) && c.pass.TypesInfo.Types[other].Value != nil {
			u.shape, u.chars = append(u.shape, p), true
			return
		}
		u.breaker = "its characters used in " + c.src(p)
	default:
		u.breaker = "its characters used in " + strings.TrimPrefix(c.src(p), "*ast.")
	}
}

// isLenHelper reports whether fn is testify's Len (assert or require, a function or a method
// of Assertions), which checks a length.
func isLenHelper(fn *types.Func) bool {
	return fn.Pkg() != nil && strings.HasPrefix(fn.Pkg().Path(), "github.com/stretchr/testify/") &&
		strings.TrimSuffix(fn.Name(), "f") == "Len"
}

// isPatternMatch reports whether call matches arg, as the text and not the pattern, against
// a regular expression: regexp's MatchString and Match, as functions (pattern first) or
// methods of a *regexp.Regexp, and testify's Regexp (assert or require, a function or a
// method of Assertions).
func isPatternMatch(fn *types.Func, call *ast.CallExpr, arg ast.Node) bool {
	if fn.Pkg() == nil {
		return false
	}
	text := -1 // the index of the argument matched
	switch path := fn.Pkg().Path(); {
	case path == "regexp" && (fn.Name() == "MatchString" || fn.Name() == "Match"):
		text = 1
		if fn.Signature().Recv() != nil {
			text = 0
		}
	case strings.HasPrefix(path, "github.com/stretchr/testify/") && strings.TrimSuffix(fn.Name(), "f") == "Regexp":
		text = 2
		if fn.Signature().Recv() != nil {
			text = 1
		}
	}
	return text >= 0 && text < len(call.Args) && call.Args[text] == arg
}

// shapedOnly reports whether the string that the expression at cur makes (a draw formatted
// by strconv) goes nowhere, or only to checks of its form (its length, its characters, a
// regexp, its parts split and checked so) and to reports: such a string tests nothing of the
// value it was made from that a constant would not pass.
func (c *checker) shapedOnly(cur cursor) bool {
	u := &formUse{made: map[types.Object]bool{}}
	c.formValue(cur, u)
	return u.breaker == ""
}

// isFormat reports whether fn writes a number as a string: strconv's FormatFloat,
// FormatInt, FormatUint and Itoa, each taking the number first (fmt's, which report too,
// are isReporting's).
func isFormat(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Pkg().Path() != "strconv" {
		return false
	}
	switch fn.Name() {
	case "FormatFloat", "FormatInt", "FormatUint", "Itoa":
		return true
	}
	return false
}

// reports reports whether call only reports or formats.
func (c *checker) reports(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && isReporting(fn)
}

// isAlphabetCheck reports whether fn tells whether a character belongs to a set: strings'
// and bytes' ContainsRune, IndexRune, IndexByte and ContainsAny, or a class of package unicode.
func isAlphabetCheck(fn *types.Func) bool {
	if fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "strings", "bytes":
		switch fn.Name() {
		case "ContainsRune", "IndexRune", "IndexByte", "ContainsAny":
			return true
		}
	case "unicode":
		return strings.HasPrefix(fn.Name(), "Is")
	}
	return false
}

// reportBlindText reports a test that checks only the shape of a random string.
func (c *checker) reportBlindText(fd, cur cursor, call *ast.CallExpr, u *textUse, tb string) {
	times, _, repeated := c.drawTimes(cur, call, 1)
	strs := "string"
	if repeated {
		strs = "strings"
	}
	var checks []string
	for _, n := range u.shape {
		checks = append(checks, c.src(n))
	}
	// Say only what the test checks: a length alone, characters alone, or both.
	checked := "the length and the characters"
	switch {
	case !u.chars:
		checked = "the length"
	case !u.length:
		checked = "the characters"
	}
	body, size := c.firstCharIndex(call, u.alphabet, tb)
	if c.blindReported == nil {
		c.blindReported = map[*ast.CallExpr]bool{}
	}
	c.blindReported[call] = true
	c.pass.Report(analysis.Diagnostic{
		Pos: call.Pos(), End: call.End(),
		Message: fmt.Sprintf("blind test: %s draws %s %s and checks only %s of the %s (%s), so a constant string of the right length passes it; check the spread of the characters: xs := spread.Draw(1000, func() int { %s }) at a length of 1 or more; spread.Check(%s, xs, spread.Uniform(0, %s))",
			c.testName(fd), c.src(call.Fun), times, checked, strs, strings.Join(checks, ", "), body, tb, size),
	})
}

// firstCharIndex returns the body of a func that draws the random text call makes once and
// returns its first character's index in the alphabet, and the alphabet's size: the draws a
// check of the characters' spread takes. The alphabet is the test's (nil: the placeholder
// <alphabet>, which must not read as code); for a (string, error) the closure fails the test
// on the error; a []byte converts to []rune only through a string.
func (c *checker) firstCharIndex(call *ast.CallExpr, alpha ast.Expr, tb string) (body, size string) {
	alphabet, size := "<alphabet>", "len(<alphabet>)"
	if alpha != nil {
		alphabet, size = c.src(alpha), "len("+c.src(alpha)+")"
	}
	runes := func(e string) string {
		if b, ok := firstResult(c.typeOf(call)).Underlying().(*types.Slice); ok && b.Elem().Underlying().(*types.Basic).Kind() == types.Byte {
			return "[]rune(string(" + e + "))"
		}
		return "[]rune(" + e + ")"
	}
	body = fmt.Sprintf("return strings.IndexRune(%s, %s[0])", alphabet, runes(c.src(call)))
	if _, tuple := c.typeOf(call).(*types.Tuple); tuple {
		s, err := freshName(call, "s", "id"), freshName(call, "err", "drawErr")
		body = fmt.Sprintf("%s, %s := %s; if %s != nil { %s.Fatal(%s) }; return strings.IndexRune(%s, %s[0])", s, err, c.src(call), err, tb, err, alphabet, runes(s))
	}
	return body, size
}

// charSpread is the check of the spread of random text's characters (of the first one of
// many draws), for a chance verdict's fix: IDs required to differ say nothing of the spread,
// which spread.Check sizes.
func (c *checker) charSpread(call *ast.CallExpr, tb string) string {
	body, size := c.firstCharIndex(call, nil, tb)
	return fmt.Sprintf("xs := spread.Draw(1000, func() int { %s }); spread.Check(%s, xs, spread.Uniform(0, %s))", body, tb, size)
}

// drawTimes says how often a test draws call, at cur: once, n times with no loop, or as often
// as the loop that repeats it, with the argument that changes on each pass (varies) when one
// does.
func (c *checker) drawTimes(cur cursor, call *ast.CallExpr, n int) (times, varies string, repeated bool) {
	times = "once"
	if n > 1 {
		times = fmt.Sprintf("%d times", n)
	}
	loop, varies, repeated := c.repeatingLoop(cur, call)
	if !repeated {
		return times, "", false
	}
	times = "repeatedly"
	if k := c.loopCount(loop); k > 0 {
		times = fmt.Sprintf("%d times", k)
	} else if r, ok := loop.Node().(*ast.RangeStmt); ok {
		if lit, ok := ast.Unparen(r.X).(*ast.CompositeLit); ok {
			times = fmt.Sprintf("%d times", len(lit.Elts))
		}
	}
	if varies != "" {
		times += ", with an argument that changes on each pass (" + varies + "),"
	}
	return times, varies, true
}
