package spreadvet

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// symmetricWords say that an offset goes both ways; oneSidedWords that it goes one way. A
// bare "symmetric" is not among them: in numeric code it is mostly about matrices.
var (
	symmetricWords = []string{"±", "+/-", "+-", "plus or minus", "symmetric jitter", "symmetrical jitter",
		"jitter symmetrically", "symmetric offset", "symmetric around", "either direction", "up or down"}
	oneSidedWords = []string{"one-sided", "only up", "only adds", "only ever adds", "never shorter", "never earlier"}
)

// oneSidedOffsets reports an offset added to an anchor whose sign contradicts what the
// comments above it (or the function's doc) say: one-sided where they say ±, or either way
// where they say one-sided.
func (c *checker) oneSidedOffsets() {
	for _, fd := range c.funcDecls(false) {
		doc := fd.Node().(*ast.FuncDecl).Doc
		if !c.draws[fd.Node()] || !c.claimsIn(fd.Node().(*ast.FuncDecl)) {
			continue // no offset to check, or no claim to check it against
		}
		for cur := range fd.Preorder((*ast.AssignStmt)(nil), (*ast.BinaryExpr)(nil)) {
			offset, mul, ok := c.offsetOf(cur.Node())
			if !ok || !c.maximal(cur) {
				continue
			}
			claim := c.claimNear(cur, doc, offset)
			if claim == "" {
				continue
			}
			c.checkOffset(cur.Node(), offset, mul, claim)
		}
	}
}

// maximal reports whether the expression at cur is not itself part of a larger random
// arithmetic expression (seen through parentheses and conversions).
func (c *checker) maximal(cur cursor) bool {
	for p := cur.Parent(); ; p = p.Parent() {
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			continue
		case *ast.CallExpr:
			if c.isConversion(pn) {
				continue
			}
		case *ast.BinaryExpr:
			switch pn.Op {
			case token.ADD, token.SUB, token.MUL, token.QUO:
				return !c.isRandomExpr(pn)
			}
		}
		return true
	}
}

// offsetOf returns the random offset in "anchor + R", "anchor - R", "anchor += R" and
// "anchor * M" (mul) with M a positive scale factor whose range has no symbols, where the anchor is
// neither random nor constant.
func (c *checker) offsetOf(n ast.Node) (ast.Expr, bool, bool) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) == 1 && len(n.Rhs) == 1 && (n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN) && c.isRandomExpr(n.Rhs[0]) {
			return n.Rhs[0], false, true
		}
	case *ast.BinaryExpr:
		x, y := c.isRandomExpr(n.X), c.isRandomExpr(n.Y)
		if x == y || (n.Op != token.ADD && n.Op != token.SUB && n.Op != token.MUL) {
			return nil, false, false
		}
		offset, anchor := n.X, n.Y
		if y {
			offset, anchor = n.Y, n.X
		}
		if (n.Op == token.SUB && x) || c.pass.TypesInfo.Types[anchor].Value != nil {
			return nil, false, false
		}
		if n.Op == token.MUL {
			l, _ := c.linearOf(offset, testSym)
			a, ok1 := l.a.constant()
			b, ok2 := l.b.constant()
			if !ok1 || !ok2 || b <= 0 || a+b <= 0 {
				return nil, false, false // not a scale factor: a signed term, or full jitter
			}
		}
		return offset, n.Op == token.MUL, true
	}
	return nil, false, false
}

// isRandomExpr reports whether e is a linear form in a uniform draw (read through locals).
func (c *checker) isRandomExpr(e ast.Expr) bool {
	l, ok := c.linearOf(e, testSym)
	return ok && l.random()
}

// claimNear returns "symmetric" or "one-sided" when a comment on or just above the statement
// holding n, or above the statement that gives a local offset its value, or the function's
// doc, says so.
func (c *checker) claimNear(cur cursor, doc *ast.CommentGroup, offset ast.Expr) string {
	texts := []string{c.commentsAbove(cur)}
	if v := c.localVar(offset); v != nil {
		if init := c.onlyAssignment(v); init != nil {
			if icur, ok := c.insp.Root().FindNode(init); ok {
				texts = append(texts, c.commentsAbove(icur))
			}
		}
	}
	if doc != nil {
		texts = append(texts, doc.Text())
	}
	return claim(strings.Join(texts, "\n"))
}

// claimsIn reports whether the doc or a comment inside fd says symmetric or one-sided: a
// cheap filter before the offsets of fd are read.
func (c *checker) claimsIn(fd *ast.FuncDecl) bool {
	var texts []string
	if fd.Doc != nil {
		texts = append(texts, fd.Doc.Text())
	}
	for _, g := range c.fileOf(fd.Pos()).Comments {
		if fd.Pos() <= g.Pos() && g.End() <= fd.End() {
			texts = append(texts, g.Text())
		}
	}
	return claim(strings.Join(texts, "\n")) != ""
}

// claim returns "symmetric" or "one-sided" when text says so, or "".
func claim(text string) string {
	text = strings.ToLower(text)
	for _, w := range symmetricWords {
		if strings.Contains(text, w) {
			return "symmetric"
		}
	}
	for _, w := range oneSidedWords {
		if strings.Contains(text, w) {
			return "one-sided"
		}
	}
	return ""
}

// commentsAbove returns the comments on the line of the statement around cur and on the
// lines just above it.
func (c *checker) commentsAbove(cur cursor) string {
	stmt := cur
	for s := range cur.Enclosing((*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil), (*ast.ExprStmt)(nil), (*ast.DeclStmt)(nil)) {
		stmt = s
		break
	}
	file := c.fileOf(stmt.Node().Pos())
	line := c.pass.Fset.Position(stmt.Node().Pos()).Line
	var out []string
	for _, g := range file.Comments {
		end := c.pass.Fset.Position(g.End()).Line
		if end == line || end == line-1 {
			out = append(out, g.Text())
		}
	}
	return strings.Join(out, "\n")
}

// checkOffset compares the sign of a random offset with the claim.
func (c *checker) checkOffset(n ast.Node, offset ast.Expr, mul bool, claim string) {
	l, _ := c.linearOf(offset, testSym)
	b := l.b
	if mul {
		b = b.add(constPoly(1), -1) // anchor * (1 + R): the offset is anchor * R
	}
	lo, hi := b, b.add(l.a, 1) // the offset ranges over [b, a + b)
	oneSided := (lo.sign() >= 0 && lo.sign() != 2 && hi.sign() >= 0 && hi.sign() != 2) ||
		(lo.sign() <= 0 && hi.sign() <= 0)
	either := lo.sign() == -1 && hi.sign() == 1
	switch {
	case claim == "symmetric" && oneSided:
		d := analysis.Diagnostic{
			Pos: n.Pos(), End: n.End(),
			Message: "one-sided offset: the comment says ± but " + c.src(offset) + " never changes sign, so every value lands on one side of the anchor; " +
				"draw it symmetric: (2*rand.Float64() - 1) scales to [-1, 1)",
		}
		if l.draw != nil && len(b) == 0 {
			if dr, ok := c.drawOf(l.draw); ok && dr.unit {
				d.SuggestedFixes = replace("draw the offset over [-1, 1)", l.draw, "(2*"+c.src(l.draw)+" - 1)")
			}
		}
		c.pass.Report(d)
	case claim == "one-sided" && either:
		c.pass.Report(analysis.Diagnostic{
			Pos: n.Pos(), End: n.End(),
			Message: "two-sided offset: the comment says one-sided but " + c.src(offset) + " takes both signs, so values land below the anchor too; " +
				"draw it over [0, x): rand.Float64() * x",
		})
	}
}
