package spreadvet

import (
	"go/ast"
	"go/token"
	"regexp"
)

// followSites follows each draw site of the flow to its uses, then reads what its bounds
// say together.
func (f *testFlow) followSites() {
	for _, s := range f.sites {
		f.use(f.siteCursor(s), s)
	}
	if f.breaker == "" && f.clockPinned() {
		f.breaks("pinned to the clock's readings")
	}
}

// clockPinned reports whether a test's bounds are one value up to the clock's reading: each
// limit is the same expression of a local read from the clock (before.Add(lifetime) and
// after.Add(lifetime), with before and after read around the call). Such bounds pin the value
// to the clock: an exact check of code that draws nothing on this path (go-redis's spec
// "returns exact lifetime when jitter is zero"), no bounds that a constant would pass.
func (f *testFlow) clockPinned() bool {
	var limits []string
	for _, b := range f.bounds {
		limits = append(limits, f.clockLimits(b)...)
	}
	if len(limits) < 2 {
		return false
	}
	for _, l := range limits[1:] {
		if l != limits[0] {
			return false
		}
	}
	return true
}

// clockLimits returns the limits in a bound that read a local taken from the clock, each
// written with that local as "now": before.Add(lifetime) is now.Add(lifetime).
func (f *testFlow) clockLimits(bound ast.Node) []string {
	var out []string
	ast.Inspect(bound, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok || !f.c.isNowLimit(e) || f.readsDraws(e) {
			return true
		}
		out = append(out, f.c.withNow(e))
		return false
	})
	return out
}

// isNowLimit reports whether e is a local read from the clock, or an offset of one: the
// local, its methods' results (before.Add(x)), sums and differences with it, in parentheses.
func (c *checker) isNowLimit(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.localVar(e) != nil && c.isNow(e)
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		return ok && c.isNowLimit(sel.X)
	case *ast.BinaryExpr:
		return (e.Op == token.ADD || e.Op == token.SUB) && (c.isNowLimit(e.X) || c.isNowLimit(e.Y))
	}
	return false
}

// withNow writes e with each local read from the clock named now.
func (c *checker) withNow(e ast.Expr) string {
	s := c.src(e)
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.localVar(id) != nil && c.isNow(id) {
			s = regexp.MustCompile(`\b`+id.Name+`\b`).ReplaceAllString(s, "now")
		}
		return true
	})
	return s
}
