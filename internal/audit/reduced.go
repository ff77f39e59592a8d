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
// Through such steps the value is x & B for the set B of bits that every step kept, and it
// is non-negative while no conversion to a signed type keeps that type's sign bit. Then:
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

// keptBits follows the reductions of the value of a k-bit draw and returns the step after
// which the value no longer depends on bit k-1 of the draw, or -1 when no step drops it.
func keptBits(k int, steps []reduction) int {
	top := uint64(1) << (k - 1)
	kept := top | (top - 1)
	for i, r := range steps {
		switch r.op {
		case token.AND:
			kept &= r.n
		case token.AND_NOT:
			kept &^= r.n
		case token.REM:
			if r.n == 0 || r.n&(r.n-1) != 0 {
				return -1
			}
			kept &= r.n - 1
		default:
			if r.width < 64 {
				kept &= 1<<r.width - 1
			}
		}
		if kept&top == 0 {
			return i
		}
		if r.op == token.ILLEGAL && r.signed && kept&(1<<(r.width-1)) != 0 {
			return -1 // the value may be negative from here on: % and sign extension are no masks
		}
	}
	return -1
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
	if s.bits == 0 || s.Equivalent[string(spread.SuspectCollapsedRange)] != "" {
		return
	}
	steps := f.reductions(stack)
	if i := keptBits(s.bits, steps); i >= 0 {
		s.Equivalent[string(spread.SuspectCollapsedRange)] = fmt.Sprintf("halving a draw of %d uniform bits changes its top bit only, "+
			"and %s drops that bit: the value has the same distribution", s.bits, steps[i].text)
	}
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
