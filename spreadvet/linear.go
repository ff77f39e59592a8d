package spreadvet

import (
	"bytes"
	"encoding/gob"
	"go/ast"
	"go/constant"
	"go/token"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A poly is a sum of monomials: coefficient by the product of symbols it multiplies, the
// symbols sorted and joined by "*" ("" for the constant term). Symbols stand for values that
// are not random (a delay, a factor), each taken to be positive.
type poly map[string]float64

func constPoly(v float64) poly {
	if v == 0 {
		return poly{}
	}
	return poly{"": v}
}

func (p poly) add(q poly, k float64) poly {
	out := poly{}
	for m, v := range p {
		out[m] += v
	}
	for m, v := range q {
		out[m] += k * v
	}
	for m, v := range out {
		if math.Abs(v) < 1e-12 {
			delete(out, m)
		}
	}
	return out
}

func (p poly) scale(k float64) poly { return poly{}.add(p, k) }

func (p poly) mul(q poly) poly {
	out := poly{}
	for m1, v1 := range p {
		for m2, v2 := range q {
			out = out.add(poly{monomial(m1, m2): v1 * v2}, 1)
		}
	}
	return out
}

// monomial returns the product of two monomials, its symbols sorted.
func monomial(a, b string) string {
	var syms []string
	for _, m := range []string{a, b} {
		if m != "" {
			syms = append(syms, strings.Split(m, "*")...)
		}
	}
	slices.Sort(syms)
	return strings.Join(syms, "*")
}

// constant returns the value of a poly with no symbols.
func (p poly) constant() (float64, bool) {
	for m := range p {
		if m != "" {
			return 0, false
		}
	}
	return p[""], true
}

// sign returns +1 when every coefficient is positive, -1 when every one is negative, 0 for
// the zero poly and 2 when the signs are mixed (unknown).
func (p poly) sign() int {
	s := 0
	for _, v := range p {
		switch {
		case v > 0 && s <= 0 && s != -1:
			s = 1
		case v < 0 && s >= 0 && s != 1:
			s = -1
		case v > 0 && s == -1, v < 0 && s == 1:
			return 2
		}
	}
	return s
}

// ratio returns k with p = k q, when there is one.
func (p poly) ratio(q poly) (float64, bool) {
	if len(q) == 0 || len(p) != len(q) {
		return 0, false
	}
	k, first := 0.0, true
	for m, v := range q {
		pv, ok := p[m]
		if !ok {
			return 0, false
		}
		if first {
			k, first = pv/v, false
		} else if math.Abs(pv/v-k) > 1e-9*math.Abs(k) {
			return 0, false
		}
	}
	return k, true
}

func (p poly) equal(q poly) bool { return len(p.add(q, -1)) == 0 }

// A linear form a*u + b in one random draw u, uniform over [0, 1): a is zero when the
// expression is not random.
type linear struct {
	a, b poly
	draw *ast.CallExpr // the draw, when a is not zero
}

func (l linear) random() bool { return len(l.a) > 0 }

// symbolizer names the non-random leaves of an expression, or refuses (false).
type symbolizer func(e ast.Expr) (string, bool)

// linearOf returns e as a linear form in at most one uniform draw: a draw from math/rand
// (Float64 as u, IntN(x) as x*u), or the parity or remainder of a clock reading. Local
// variables given one value are read through to it, so that "jitter := ...; d += jitter"
// is seen whole.
func (c *checker) linearOf(e ast.Expr, sym symbolizer) (linear, bool) {
	return c.linearDepth(e, sym, 0)
}

func (c *checker) linearDepth(e ast.Expr, sym symbolizer, depth int) (linear, bool) {
	if depth > 8 {
		return linear{}, false
	}
	e = c.stripConversions(e)
	if tv, ok := c.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		v, ok := constant.Float64Val(constant.ToFloat(tv.Value))
		return linear{b: constPoly(v)}, ok
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		return c.linearCall(e, sym, depth)
	case *ast.UnaryExpr:
		if e.Op == token.SUB {
			l, ok := c.linearDepth(e.X, sym, depth+1)
			return linear{l.a.scale(-1), l.b.scale(-1), l.draw}, ok
		}
	case *ast.BinaryExpr:
		return c.linearBinary(e, sym, depth)
	case *ast.Ident:
		if l, ok := c.linearVar(e, sym, depth); ok {
			return l, true
		}
	}
	s, ok := sym(e)
	return linear{b: poly{s: 1}}, ok
}

// linearVar reads a local variable through to its one value.
func (c *checker) linearVar(id *ast.Ident, sym symbolizer, depth int) (linear, bool) {
	v := c.localVar(id)
	if v == nil {
		return linear{}, false
	}
	init := c.onlyAssignment(v)
	if init == nil {
		return linear{}, false
	}
	return c.linearDepth(init, sym, depth+1)
}

func (c *checker) linearCall(call *ast.CallExpr, sym symbolizer, depth int) (linear, bool) {
	d, ok := c.drawOf(call)
	if !ok {
		s, ok := sym(call)
		return linear{b: poly{s: 1}}, ok
	}
	switch {
	case d.unit:
		return linear{a: constPoly(1), b: poly{}, draw: call}, true
	case d.bound != nil:
		l, ok := c.linearDepth(d.bound, sym, depth+1)
		if !ok || l.random() {
			return linear{}, false
		}
		return linear{a: l.b, b: poly{}, draw: call}, true
	}
	return linear{}, false // a draw over the whole range of its type, or not uniform
}

func (c *checker) linearBinary(e *ast.BinaryExpr, sym symbolizer, depth int) (linear, bool) {
	if e.Op == token.REM {
		if l, ok := c.linearFullRemainder(e, sym, depth); ok {
			return l, true
		}
	}
	if e.Op == token.REM || e.Op == token.AND {
		return c.linearClockRemainder(e, sym)
	}
	x, ok1 := c.linearDepth(e.X, sym, depth+1)
	y, ok2 := c.linearDepth(e.Y, sym, depth+1)
	if !ok1 || !ok2 || (x.random() && y.random()) {
		return linear{}, false
	}
	draw := x.draw
	if y.random() {
		draw = y.draw
	}
	switch e.Op {
	case token.ADD:
		return linear{x.a.add(y.a, 1), x.b.add(y.b, 1), draw}, true
	case token.SUB:
		return linear{x.a.add(y.a, -1), x.b.add(y.b, -1), draw}, true
	case token.MUL:
		return linear{x.a.mul(y.b).add(x.b.mul(y.a), 1), x.b.mul(y.b), draw}, true
	case token.QUO:
		k, ok := y.b.constant()
		if !ok || k == 0 || y.random() {
			return linear{}, false
		}
		return linear{x.a.scale(1 / k), x.b.scale(1 / k), draw}, true
	}
	return linear{}, false
}

// linearFullRemainder reads "draw % n" of a draw over the whole range of an unsigned or
// non-negative integer type (rand.Uint32() % uint32(n)) as a draw over {0, ..., n-1}: exact
// when n divides the range, and off by at most n/2^32 of a value's weight otherwise.
func (c *checker) linearFullRemainder(e *ast.BinaryExpr, sym symbolizer, depth int) (linear, bool) {
	call, ok := c.stripConversions(e.X).(*ast.CallExpr)
	if !ok {
		return linear{}, false
	}
	d, ok := c.drawOf(call)
	if !ok || d.bound != nil || d.unit || !fullRangeDraws[d.name] {
		return linear{}, false
	}
	n, ok := c.linearDepth(e.Y, sym, depth+1)
	if !ok || n.random() {
		return linear{}, false
	}
	return linear{a: n.b, b: poly{}, draw: call}, true
}

// fullRangeDraws are the draws of math/rand over every value of a non-negative type.
var fullRangeDraws = map[string]bool{"Uint32": true, "Uint64": true, "Int63": true, "Int31": true, "Uint": true}

// linearClockRemainder reads "reading % n" and "reading & (n-1)" on a clock reading as a
// draw over {0, ..., n-1}: what the author meant it to be.
func (c *checker) linearClockRemainder(e *ast.BinaryExpr, sym symbolizer) (linear, bool) {
	if _, ok := c.fineReading(e.X); !ok {
		return linear{}, false
	}
	tv, ok := c.pass.TypesInfo.Types[e.Y]
	if !ok || tv.Value == nil {
		return linear{}, false
	}
	n, ok := constant.Float64Val(constant.ToFloat(tv.Value))
	if !ok || n < 1 {
		return linear{}, false
	}
	if e.Op == token.REM {
		n--
	}
	return linear{a: constPoly(n), b: poly{}, draw: nil}, true
}

// render writes a poly as Go source, with symbols as they are named (and "$i" replaced by
// args[i] when args is given), or refuses.
func (p poly) render(args []string) (string, bool) {
	if len(p) == 0 {
		return "0", true
	}
	if len(p) != 1 {
		return "", false
	}
	for m, v := range p {
		name := m
		if strings.HasPrefix(m, "$") {
			i, err := strconv.Atoi(m[1:])
			if err != nil || i >= len(args) {
				return "", false
			}
			name = args[i]
			if strings.ContainsAny(name, " +-*/") {
				name = "(" + name + ")"
			}
		}
		switch {
		case m == "":
			return strconv.FormatFloat(v, 'g', 10, 64), true
		case v == 1:
			return name, true
		case v == math.Trunc(v) && v > 0:
			return strconv.FormatFloat(v, 'f', -1, 64) + "*" + name, true
		case 1/v == math.Trunc(1/v) && v > 0:
			return name + "/" + strconv.FormatFloat(1/v, 'f', -1, 64), true
		}
	}
	return "", false
}

// A term is one monomial of a poly, for its encoding.
type term struct {
	Monomial string
	Coef     float64
}

// GobEncode writes the poly's monomials in sorted order: a fact's encoding must be the same
// every time, and a map's order is not.
func (p poly) GobEncode() ([]byte, error) {
	terms := make([]term, 0, len(p))
	for m, v := range p {
		terms = append(terms, term{m, v})
	}
	slices.SortFunc(terms, func(a, b term) int { return strings.Compare(a.Monomial, b.Monomial) })
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(terms)
	return buf.Bytes(), err
}

// GobDecode reads what GobEncode wrote.
func (p *poly) GobDecode(data []byte) error {
	var terms []term
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&terms); err != nil {
		return err
	}
	*p = poly{}
	for _, t := range terms {
		(*p)[t.Monomial] = t.Coef
	}
	return nil
}
