package spreadvet

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Draws kept in package variables. A package often draws its state once, when it starts
// (nats-io/nuid's init: globalNUID = &lockedNUID{NUID: New()}, a crypto/rand prefix and a
// math/rand sequence), and a test reads the variable rather than calling anything. Checked
// only for its form (not nil, the prefix's length, the sequence not zero), it passes a
// constant draw as a call checked so does.

// drawnVars returns the package-level variables of the package's non-test code whose every
// value it gives calls a draw, or a random function one call from its draw (an ID or a
// record made farther away is more often tested for something else, as blindForms says),
// with the first such value, for messages. They are found in one walk of the package.
func (c *checker) drawnVars() map[*types.Var]ast.Expr {
	if c.drawnVar != nil {
		return c.drawnVar
	}
	c.drawnVar = map[*types.Var]ast.Expr{}
	bad := map[*types.Var]bool{}
	give := func(v *types.Var, value ast.Expr, _ *types.Tuple) {
		if v == nil || v.Pkg() != c.pass.Pkg || v.IsField() || v.Parent() != v.Pkg().Scope() {
			return
		}
		switch {
		case value == nil || !c.drawsNear(value):
			bad[v] = true
		case c.drawnVar[v] == nil:
			c.drawnVar[v] = value
		}
	}
	for _, file := range c.pass.Files {
		if !c.isTestFile(file.Pos()) {
			c.giveVars(file, give)
		}
	}
	for v := range bad {
		delete(c.drawnVar, v)
	}
	return c.drawnVar
}

// drawsNear reports whether e calls a draw, or a random function of the code one call from
// its draw.
func (c *checker) drawsNear(e ast.Expr) bool {
	return anyNode(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		if _, draw := c.drawOf(call); draw || c.byteDraw(call) != "" {
			return true
		}
		f, inTest := c.randomCallee(call)
		return f != nil && !inTest && f.Hops <= 1
	})
}

// blindVars reports the drawn package variables (see drawnVars) of a text, a bool, a list
// of texts, an ID or a record that the test fd reads and checks only for their form, every
// read of each followed as blindForms follows a random call's result. A test that hands
// anything to package spread is not blind.
func (c *checker) blindVars(fd cursor, tb string) {
	drawn := c.drawnVars()
	if len(drawn) == 0 {
		return
	}
	var order []*types.Var
	reads := map[*types.Var][]cursor{}
	for cur := range fd.Preorder((*ast.Ident)(nil), (*ast.CallExpr)(nil)) {
		if call, ok := cur.Node().(*ast.CallExpr); ok {
			if c.isSpreadCheck(call) {
				return
			}
			continue
		}
		v, ok := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)].(*types.Var)
		if !ok || drawn[v] == nil {
			continue
		}
		if reads[v] == nil {
			order = append(order, v)
		}
		reads[v] = append(reads[v], cur)
	}
	for _, v := range order {
		if t := v.Type(); !isText(t) && !isBool(t) && !isTextList(t) && !isID(t) && !c.isRecord(t) {
			continue
		}
		u := &formUse{made: map[types.Object]bool{v: true}}
		for _, id := range reads[v] {
			c.formUseAt(id, u)
		}
		if u.breaker == "" && len(u.checks) > 0 {
			c.reportBlindVar(fd, reads[v][0], v, u)
		}
	}
}

// reportBlindVar reports a test that checks a drawn package variable only for its form.
func (c *checker) reportBlindVar(fd, at cursor, v *types.Var, u *formUse) {
	var what, checks []string
	for _, w := range formWords {
		if u.kinds&w.kind != 0 {
			what = append(what, w.text)
		}
	}
	slices.SortStableFunc(u.checks, c.sourceOrder)
	for _, n := range u.checks {
		if s := c.src(n); !slices.Contains(checks, s) {
			checks = append(checks, s)
		}
	}
	c.pass.Report(analysis.Diagnostic{
		Pos: at.Node().Pos(), End: at.Node().End(),
		Message: fmt.Sprintf("blind test: %s reads %s, which the package's code draws (%s), and checks only %s (%s), so a constant of the right form passes it; "+formFix,
			c.testName(fd), v.Name(), c.src(c.drawnVars()[v]), joinWords(what), strings.Join(checks, ", ")),
	})
}
