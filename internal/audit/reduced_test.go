package audit

import (
	"fmt"
	"go/token"
	"maps"
	"testing"
)

// analogue is a draw of k uniform bits in a type of 8 bits: k = 8 in an unsigned type stands
// for Uint32 or Uint64, k = 7 in a signed one for Int31 or Int63.
type analogue struct {
	k      int
	signed bool
}

// apply evaluates the steps on v, a value of a type of width bits, as Go does: a conversion
// keeps v modulo 2^w, read as two's complement in a signed type; & and &^ are bitwise on two's
// complement; % truncates.
func apply(v int64, width int, signed bool, steps []reduction) int64 {
	for _, r := range steps {
		switch r.op {
		case token.AND:
			v &= asType(r.n, width, signed)
		case token.AND_NOT:
			v &^= asType(r.n, width, signed)
		case token.REM:
			v %= int64(r.n)
		default:
			width, signed = r.width, r.signed
			v = asType(uint64(v), width, signed)
		}
	}
	return v
}

// asType reads the low width bits of b as a value of a type of that width.
func asType(b uint64, width int, signed bool) int64 {
	b &= 1<<width - 1
	if signed && b >= 1<<(width-1) {
		return int64(b) - 1<<width
	}
	return int64(b)
}

// sameUnder reports whether the steps give the draw and a mutant of it the same
// distribution, counted over every value of the draw.
func sameUnder(a analogue, steps []reduction, mutant func(int64) int64) bool {
	orig, mut := map[int64]int{}, map[int64]int{}
	for x := range int64(1) << a.k {
		orig[apply(x, 8, a.signed, steps)]++
		mut[apply(mutant(x), 8, a.signed, steps)]++
	}
	return maps.Equal(orig, mut)
}

// analogueSteps are the steps tried on the 8-bit analogue: every conversion (to 12 and 16
// bits too), and every mask and modulus of the type (all, or a spread of them for chains of
// two), and masks of the bits that widening adds.
func analogueSteps(a analogue, all bool) []reduction {
	var steps []reduction
	for _, w := range []int{1, 2, 3, 4, 5, 6, 7, 8, 12, 16} { // 12 and 16 widen
		for _, signed := range []bool{false, true} {
			steps = append(steps, reduction{width: w, signed: signed, text: fmt.Sprintf("conversion to %d bits signed=%v", w, signed)})
		}
	}
	wide := []uint64{0x100, 0x1ff, 0xf00, 0xff00} // bits a widening conversion adds
	masks := append([]uint64{0, 1, 0x0f, 0x3f, 0x40, 0x55, 0x7f, 0x80, 0xaa, 0xc0, 0xfe, 0xff}, wide...)
	mods := []uint64{1, 2, 3, 4, 5, 7, 8, 16, 64, 100, 127, 128, 129, 200, 255}
	if all {
		masks, mods = wide, nil
		for m := range uint64(256) {
			masks = append(masks, m)
			if m > 0 {
				mods = append(mods, m)
			}
		}
	}
	for _, m := range masks {
		steps = append(steps, reduction{op: token.AND, n: m, text: fmt.Sprintf("& %#x", m)},
			reduction{op: token.AND_NOT, n: m, text: fmt.Sprintf("&^ %#x", m)})
	}
	for _, n := range mods {
		if !a.signed || n < 128 { // a constant the signed type holds
			steps = append(steps, reduction{op: token.REM, n: n, text: fmt.Sprintf("%% %d", n)})
		}
	}
	return steps
}

// modelled reports whether dropped follows every step of the halved draw exactly: no
// modulus but by a power of two, no conversion to a signed type but as the last step.
func modelled(steps []reduction) bool {
	for i, r := range steps {
		if r.op == token.REM && r.n&(r.n-1) != 0 || r.op == token.ILLEGAL && r.signed && i < len(steps)-1 {
			return false
		}
	}
	return true
}

// bitwise reports whether every step is a mask or a narrowing conversion, which dropped
// follows exactly for the negated draw.
func bitwise(steps []reduction) bool {
	for _, r := range steps {
		if r.op == token.REM || r.op == token.ILLEGAL && r.width > 8 {
			return false
		}
	}
	return true
}

// enumerate checks a rule of dropped against exact counts on an analogue: every single step
// (all 256 masks, every modulus, every conversion) and chains of two from a spread of them.
// Where the rule calls the mutant equivalent, the steps give the draw and the mutant the same
// distribution; where the rule follows every step (exact) and does not, they differ.
func enumerate(t *testing.T, a analogue, rule func(k, width int, signed bool, steps []reduction) int,
	mutant func(int64) int64, exact func([]reduction) bool) {
	t.Helper()
	check := func(steps []reduction) {
		proved, same := rule(a.k, 8, a.signed, steps) >= 0, sameUnder(a, steps, mutant)
		if proved && !same {
			t.Errorf("k=%d signed=%v %v: called equivalent, but the distributions differ", a.k, a.signed, texts(steps))
		}
		if !proved && same && exact(steps) {
			t.Errorf("k=%d signed=%v %v: the same distribution, not found", a.k, a.signed, texts(steps))
		}
	}
	for _, s := range analogueSteps(a, true) {
		check([]reduction{s})
	}
	spread := analogueSteps(a, false)
	for _, s := range spread {
		for _, u := range spread {
			check([]reduction{s, u})
		}
	}
}

// TestReductionsEnumerated checks halvedDropped, the proof in reduced.go, on 8-bit
// analogues: k = 8 unsigned (Uint32, Uint64) and k = 7 signed (Int31, Int63), the mutant x >>
// 1 (each halved value twice, the same weight as the draw's).
func TestReductionsEnumerated(t *testing.T) {
	for _, a := range []analogue{{k: 8}, {k: 7, signed: true}} {
		enumerate(t, a, halvedDropped, func(x int64) int64 { return x >> 1 }, modelled)
	}
}

// TestNegationsEnumerated checks negatedDropped on 8-bit analogues: a 7-bit draw in a signed
// type (Int31, Int63), and 5-bit draws in a signed and an unsigned type (IntN(32),
// Uint32N(32)), the mutant -x in the draw's type.
func TestNegationsEnumerated(t *testing.T) {
	for _, a := range []analogue{{k: 7, signed: true}, {k: 5, signed: true}, {k: 5}} {
		enumerate(t, a, negatedDropped, func(x int64) int64 { return asType(uint64(-x), 8, a.signed) }, bitwise)
	}
}

// TestReductionsFound: the cases the enumeration stands for, counted by hand. % 2^j and
// & (2^j - 1) drop the top bit of 8 bits for j <= 7 only; a mask with bit 7 set keeps it; %
// by a number that is no power of two is never followed.
func TestReductionsFound(t *testing.T) {
	for _, c := range []struct {
		step reduction
		want bool
	}{
		{reduction{op: token.REM, n: 128}, true},
		{reduction{op: token.REM, n: 64}, true},
		{reduction{op: token.REM, n: 100}, false},
		{reduction{op: token.REM, n: 3}, false},
		{reduction{op: token.AND, n: 0x7f}, true},
		{reduction{op: token.AND, n: 0x80}, false},
		{reduction{op: token.AND, n: 0x3c}, true},
		{reduction{op: token.AND_NOT, n: 0x80}, true},
		{reduction{width: 7}, true},
		{reduction{width: 8, signed: true}, false},
	} {
		if got := halvedDropped(8, 8, false, []reduction{c.step}) >= 0; got != c.want {
			t.Errorf("%+v on 8 bits: equivalent %v, want %v", c.step, got, c.want)
		}
		if same := sameUnder(analogue{k: 8}, []reduction{c.step}, func(x int64) int64 { return x >> 1 }); same != c.want {
			t.Errorf("%+v on 8 bits: enumerated, the same distribution is %v, want %v", c.step, same, c.want)
		}
	}
}

// TestDroppedWidths: widths no integer type has are followed nowhere, without a panic.
func TestDroppedWidths(t *testing.T) {
	for _, c := range []struct {
		width int
		steps []reduction
	}{
		{0, []reduction{{op: token.AND, n: 1}}},
		{65, []reduction{{op: token.AND, n: 1}}},
		{8, []reduction{{width: 0}}},
		{8, []reduction{{width: -3}}},
	} {
		if got := dropped(mask(8), 1<<7, c.width, true, c.steps); got != -1 {
			t.Errorf("width %d, steps %+v: %d, want -1", c.width, c.steps, got)
		}
	}
}

func texts(steps []reduction) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.text)
	}
	return out
}

// TestComparisonsEnumerated checks negatedEqual, the proof for a draw only compared for
// equality with a constant, on 8-bit types, signed and unsigned: for every bound n (a draw
// uniform over [0, n), which stands for a bounded draw and, at n = 128 or 256, a full-range
// one) and every constant c, it counts the draws x for which x == c and those for which
// -x == c (-x in the type, as the sign-flip mutant computes it). The rule must call the two
// the same distribution exactly when the counts are equal; when it says so for a draw of
// unknown distribution (n = 0), or says pointwise, the two comparisons must agree on every x.
func TestComparisonsEnumerated(t *testing.T) {
	proved := 0
	for _, signed := range []bool{false, true} {
		top := uint64(256)
		if signed {
			top = 128
		}
		for c := range uint64(256) {
			cv := asType(c, 8, signed)
			anyN, pointwise := negatedEqual(c, 0, 8, signed)
			agree := true
			for x := range int64(top) {
				if (x == cv) != (asType(uint64(-x), 8, signed) == cv) {
					agree = false
				}
			}
			if (anyN || pointwise) && !agree {
				t.Errorf("signed=%v c=%d: called equivalent for any draw, but x == c and -x == c differ", signed, cv)
			}
			for n := uint64(1); n <= top; n++ {
				orig, mut := 0, 0
				for x := range int64(n) {
					if x == cv {
						orig++
					}
					if asType(uint64(-x), 8, signed) == cv {
						mut++
					}
				}
				same, _ := negatedEqual(c, n, 8, signed)
				if same != (orig == mut) {
					t.Errorf("signed=%v n=%d c=%d: negatedEqual says %v, but x == c holds for %d of the draws and -x == c for %d", signed, n, cv, same, orig, mut)
				}
				if same {
					proved++
				}
			}
		}
	}
	if proved == 0 {
		t.Fatal("no case proved: the enumeration tested nothing")
	}
}

// TestComparisonsFound: the cases the enumeration stands for, by hand. groupcache's
// rand.Intn(10) == 0 is equivalent for every value; == 3 is not (-x is never 3); a constant
// outside the range and its negation outside it too never compare equal either way; MinInt8
// is its own negation.
func TestComparisonsFound(t *testing.T) {
	for _, c := range []struct {
		c, n            uint64
		signed          bool
		same, pointwise bool
	}{
		{0, 10, true, true, true},
		{0, 0, true, true, true},
		{3, 10, true, false, false},
		{3, 0, true, false, false},
		{20, 10, true, true, false},
		{0x80, 100, true, true, true},  // -128 == -(-128) in int8
		{0xf7, 10, true, false, false}, // -9: the mutant yields it, the draw never
		{250, 10, false, false, false}, // -x mod 256 is 250 for x = 6
		{250, 251, false, true, false}, // both 250 and 6 lie in [0, 251)
	} {
		same, pointwise := negatedEqual(c.c, c.n, 8, c.signed)
		if same != c.same || pointwise != c.pointwise {
			t.Errorf("negatedEqual(%d, %d, 8, %v) = %v, %v; want %v, %v", c.c, c.n, c.signed, same, pointwise, c.same, c.pointwise)
		}
	}
	for _, w := range []int{0, -1, 65} {
		if same, _ := negatedEqual(0, 10, w, true); same {
			t.Errorf("width %d: called equivalent", w)
		}
	}
}
