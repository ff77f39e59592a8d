package audit

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/token"
	"go/types"
	"math/bits"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
	"github.com/spreadcheck/spreadcheck/spread"
)

// A collapsed range of a draw whose values are every pattern of k bits (a full-range draw
// such as Uint32, k = 32, or Int63, k = 63; a bounded draw of a constant n = 2^k) is x/2,
// which is x >> 1: bit i of the mutant is bit i+1 of the draw for i < k-1, and its top bit,
// k-1, is always 0. The draw's bits are independent and uniform, so the mutant's bits below
// k-1 are too: the two differ in the top bit alone.
//
// Code that reduces the draw often keeps only some of its bits:
//
//   - x & m keeps the bits set in m (x &^ m those clear in m);
//   - x % n, for a constant n = 2^j and x >= 0, is x & (n-1);
//   - a conversion to an integer type of w bits keeps bits 0 to w-1 (Go converts modulo 2^w).
//
// Through such steps the value is x & B for the set B of bits that every step kept (a
// conversion that widens a signed value copies its sign bit into the new bits, and % is
// followed only while the sign bit is 0: see dropped). Then:
//
//   - if B holds no bit k-1, the value is a function of bits the mutant and the draw give
//     the same joint distribution: the collapsed range is equivalent;
//   - if B holds bit k-1, the value has that bit set with probability 1/2 under the draw and
//     never under the mutant: the distributions differ, and the mutant is a real one.
//
// Any other step (x % n for an n that is not a constant power of two, a shift, arithmetic)
// ends the chain: what is known so far still holds for a function of it, so an equivalence
// found before it stands, and nothing else is claimed. For x % n with n not a power of two
// there is indeed nothing to claim: with 2^(k-1) = qn + s, 0 < s < n, the halved draw gives
// the residues below s a probability of (q+1)/2^(k-1), the draw gives them (2q+1)/2^k or
// less, which differs (TestReductionsEnumerated checks all of this on 8-bit draws). The
// difference is small, a total variation of at most 3n/2^(k+2) (each of the two is within
// n/(4N) of uniform over N values), but it holds for no n in general, and such a survivor
// stays survived.

// A reduction is one step of what the code does to a draw's value.
type reduction struct {
	op     token.Token // token.AND (keep mask), token.AND_NOT (clear mask), token.REM, or token.ILLEGAL: a conversion
	n      uint64      // the mask or the modulus, as two's complement bits
	width  int         // a conversion's bits
	signed bool        // a conversion to a signed type
	text   string      // the step as the reason names it: "% 16", "& mask", "the conversion to uint16"
}

// mask returns the bits below bit w.
func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// dropped follows the reductions of a draw's value, of a type of width bits, and returns the
// step after which it depends on none of the bits whose distribution a mutant changes
// (differ), or -1 when no step gets there. kept holds the bits that may be 1 under the draw or
// the mutant, the others 0 under both. Masks and % 2^j act on the bits, % only while the
// value cannot be negative (an unsigned type, or its sign bit 0); a conversion keeps the bits
// below its width, and one that widens a signed type copies the sign bit into the new bits,
// which then differ if it did.
func dropped(kept, differ uint64, width int, signed bool, steps []reduction) int {
	for i, r := range steps {
		if width < 1 || width > 64 || r.op == token.ILLEGAL && (r.width < 1 || r.width > 64) {
			return -1 // no integer type: nothing to follow
		}
		sign := uint64(1) << (width - 1)
		switch r.op {
		case token.AND:
			kept &= r.n
		case token.AND_NOT:
			kept &^= r.n
		case token.REM:
			if r.n == 0 || r.n&(r.n-1) != 0 || signed && kept&sign != 0 {
				return -1
			}
			kept &= r.n - 1
		default:
			if ext := mask(r.width) &^ mask(width); signed && kept&sign != 0 {
				kept |= ext
				if differ&sign != 0 {
					differ |= ext
				}
			}
			kept &= mask(r.width)
			width, signed = r.width, r.signed
		}
		if kept&differ == 0 {
			return i
		}
	}
	return -1
}

// halvedDropped is dropped for the collapsed range of a k-bit draw: only bit k-1 differs.
func halvedDropped(k, width int, signed bool, steps []reduction) int {
	return dropped(mask(k), 1<<(k-1), width, signed, steps)
}

// negatedDropped is dropped for the sign-flip of a k-bit draw. The negated draw -x, modulo
// 2^width, has for low k bits (2^k - x) mod 2^k, a bijection of the k-bit patterns:
// independent and uniform, as the draw's are. Above them its bits are all 1 (0 when x is 0),
// where the draw's are 0: they differ.
func negatedDropped(k, width int, signed bool, steps []reduction) int {
	return dropped(mask(width), mask(width)&^mask(k), width, signed, steps)
}

// drawBits returns k when every pattern of k bits is a value of the site's draw, equally
// likely: a full-range draw, or a bounded draw of a constant power of two.
func (f *finder) drawBits(s *Site, call *ast.CallExpr, name string) int {
	switch s.Draw.Kind {
	case rewrite.FullDraw:
		intBits := f.width(types.Typ[types.Int])
		switch name {
		case "Int31", "Int32":
			return 31
		case "Int63", "Int64":
			return 63
		case "Uint32":
			return 32
		case "Uint64":
			return 64
		case "Int":
			return intBits - 1
		case "Uint":
			return intBits
		}
	case rewrite.BoundedDraw:
		if n, ok := f.constInt(call.Args[0]); ok && n >= 2 && n&(n-1) == 0 {
			return bits.TrailingZeros64(uint64(n))
		}
	}
	return 0
}

// reduced records the collapsed range of a site at the top of the stack as equivalent when
// the expression around the draw keeps none of the bit that halving changes.
func (f *finder) reduced(s *Site, stack []ast.Node) {
	if s.bits == 0 {
		return
	}
	steps := f.reductions(stack)
	typ := f.pkg.TypesInfo.TypeOf(stack[len(stack)-1].(ast.Expr))
	if typ == nil || s.Draw.Generic {
		return // a type parameter's width is not known
	}
	t, _ := typ.Underlying().(*types.Basic)
	if t == nil {
		return // a type parameter's width is not known
	}
	width, signed := f.width(t), t.Info()&types.IsUnsigned == 0
	if i := halvedDropped(s.bits, width, signed, steps); i >= 0 && s.Equivalent[string(spread.SuspectCollapsedRange)] == "" {
		s.Equivalent[string(spread.SuspectCollapsedRange)] = fmt.Sprintf("halving a draw of %d uniform bits changes its top bit only, "+
			"and %s drops that bit: the value has the same distribution", s.bits, steps[i].text)
	}
	if i := negatedDropped(s.bits, width, signed, steps); i >= 0 && s.Equivalent[string(spread.SuspectSignFlip)] == "" {
		s.Equivalent[string(spread.SuspectSignFlip)] = fmt.Sprintf("negating a draw of %d uniform bits maps its low %d bits onto uniform bits "+
			"and changes only the bits above them, which %s drops: the value has the same distribution", s.bits, s.bits, steps[i].text)
	}
}

// The sign-flip of an integer draw x is -x in the draw's type, and negation modulo 2^w is
// its own inverse, so -x == c exactly when x == -c. Code that only compares the draw for
// equality (== or !=) with a constant c computes under the mutant what it would compute
// comparing the draw with -c:
//
//   - when -c is c (c = 0, or c = 2^(w-1), whose negation wraps round to itself), the
//     comparison has the same outcome for every value of the draw: the mutant is equivalent,
//     whatever the draw's distribution;
//   - otherwise, for a draw uniform over [0, n) (a bounded draw of a constant n, or a
//     full-range draw of k bits, n = 2^k), x == v has probability 1/n for v in [0, n) and 0
//     elsewhere: the comparison has the same distribution exactly when c and -c both lie in
//     [0, n) or both outside it (for a signed type, where -c < 0 for c > 0, only when c lies
//     outside too: the comparison never holds). When one lies in it and the other not, the
//     comparison holds with probability 1/n under one and never under the other: a real
//     mutant (groupcache's rand.Intn(10) == 0 is the first case; rand.Intn(10) == 3 the last).
//
// TestComparisonsEnumerated checks both ways on 8-bit types, every n and every c.

// negatedEqual reports whether comparing a draw for equality with c, as bits of a type of
// width bits, has the same distribution as comparing its negation: always when -c is c
// (pointwise), and for a draw uniform over [0, n) (n > 0) when c and -c both lie in it or
// both outside it. n = 0 stands for a draw whose distribution is not known.
func negatedEqual(c, n uint64, width int, signed bool) (same, pointwise bool) {
	if width < 1 || width > 64 {
		return false, false
	}
	c &= mask(width)
	neg := -c & mask(width)
	if neg == c {
		return true, true
	}
	in := func(v uint64) bool { return n > 0 && !(signed && v>>(width-1) != 0) && v < n }
	return n > 0 && in(c) == in(neg), false
}

// compared records the sign-flip of a site at the top of the stack as equivalent when the
// draw's value is only compared for equality with a constant that negatedEqual allows.
func (f *finder) compared(s *Site, stack []ast.Node) {
	k := s.Draw.Kind
	if k != rewrite.BoundedDraw && k != rewrite.FullDraw && k != rewrite.ClockModDraw || s.Draw.FuncValue ||
		s.Equivalent[string(spread.SuspectSignFlip)] != "" {
		return
	}
	bin, other := f.equality(stack)
	if bin == nil {
		return
	}
	c, ok := f.constBits(other)
	if !ok {
		return
	}
	width, signed := 0, true
	if typ := f.pkg.TypesInfo.TypeOf(stack[len(stack)-1].(ast.Expr)); typ != nil && !s.Draw.Generic {
		if t, _ := typ.Underlying().(*types.Basic); t != nil {
			width, signed = f.width(t), t.Info()&types.IsUnsigned == 0
		}
	}
	var n uint64
	call, _ := stack[len(stack)-1].(*ast.CallExpr)
	switch {
	case k == rewrite.BoundedDraw && call != nil && len(call.Args) == 1:
		if b, ok := f.constInt(call.Args[0]); ok && b > 0 {
			n = uint64(b)
		}
	case k == rewrite.FullDraw && s.bits > 0 && s.bits < 64:
		n = 1 << s.bits
	}
	op, ctext := bin.Op, f.text(other)
	if width == 0 { // a type parameter: only 0 is its own negation in every integer type
		if c != 0 {
			return
		}
		width, n = 64, 0
	}
	same, pointwise := negatedEqual(c, n, width, signed)
	switch {
	case pointwise:
		s.Equivalent[string(spread.SuspectSignFlip)] = fmt.Sprintf("the draw is only compared with %s, which negating leaves as it is: "+
			"-x %s %s exactly when x %s %s, for every value", ctext, op, ctext, op, ctext)
	case same:
		s.Equivalent[string(spread.SuspectSignFlip)] = fmt.Sprintf("the draw is only compared with %s, and -x %s %s exactly when x %s -%s, "+
			"which a uniform draw over [0, %d) yields as often as %s: the comparison has the same distribution", ctext, op, ctext, op, ctext, n, ctext)
	}
}

// equality returns the comparison (== or !=) whose one operand is the draw at the top of the
// stack, through parentheses, and its other operand, when that is a constant; nil otherwise.
func (f *finder) equality(stack []ast.Node) (*ast.BinaryExpr, ast.Expr) {
	n, _, child := around(stack)
	p, ok := n.(*ast.BinaryExpr)
	if !ok || p.Op != token.EQL && p.Op != token.NEQ {
		return nil, nil
	}
	other := p.Y
	if p.Y == child {
		other = p.X
	}
	if tv, ok := f.pkg.TypesInfo.Types[other]; !ok || tv.Value == nil {
		return nil, nil
	}
	return p, other
}

// reductions returns the steps that the expressions around the draw at the top of the stack
// take, innermost first, up to the first that is no reduction.
func (f *finder) reductions(stack []ast.Node) []reduction {
	info := f.pkg.TypesInfo
	var steps []reduction
	child := stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
		case *ast.CallExpr:
			tv, ok := info.Types[p.Fun]
			if !ok || !tv.IsType() || len(p.Args) != 1 || !isInteger(tv.Type) || hasTypeParam(tv.Type) {
				return steps
			}
			b := tv.Type.Underlying().(*types.Basic)
			steps = append(steps, reduction{width: f.width(b), signed: b.Info()&types.IsUnsigned == 0,
				text: "the conversion to " + types.TypeString(tv.Type, f.imports.userQualifier)})
		case *ast.BinaryExpr:
			other := p.Y
			if p.Y == child {
				other = p.X
			}
			n, ok := f.constBits(other)
			if !ok || p.Op == token.REM && p.X != child || p.Op != token.AND && p.Op != token.AND_NOT && p.Op != token.REM {
				return steps
			}
			steps = append(steps, reduction{op: p.Op, n: n, text: fmt.Sprintf("%s %s", p.Op, f.text(other))})
		default:
			return steps
		}
		child = stack[i]
	}
	return steps
}

// width returns the bits of an integer type: the package's sizes when go/packages loaded
// them, those of the go command's target otherwise (GOARCH, as go/build reads it).
func (f *finder) width(t types.Type) int {
	sizes := f.pkg.TypesSizes
	if sizes == nil {
		sizes = types.SizesFor("gc", build.Default.GOARCH)
	}
	if sizes == nil {
		return 64
	}
	return int(sizes.Sizeof(t)) * 8
}

// constBits returns a constant integer expression's value as two's complement bits.
func (f *finder) constBits(e ast.Expr) (uint64, bool) {
	tv, ok := f.pkg.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	if i, exact := constant.Int64Val(tv.Value); exact {
		return uint64(i), true
	}
	u, exact := constant.Uint64Val(tv.Value)
	return u, exact
}
