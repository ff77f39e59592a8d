// Package closures holds 40 func variables whose literals each call the next two, and none
// draws: deciding that none is random took a search of every path through them, one literal
// asking the next (about 1.6^n steps), before the literals were decided in passes over them;
// it did not end on k8s.io/kube-openapi's JSON package, whose closures hand each other around.
// One more chain ends in a draw.
package closures

import "math/rand/v2"

var g0 = func() int { return g1() + g2() }
var g1 = func() int { return g2() + g3() }
var g2 = func() int { return g3() + g4() }
var g3 = func() int { return g4() + g5() }
var g4 = func() int { return g5() + g6() }
var g5 = func() int { return g6() + g7() }
var g6 = func() int { return g7() + g8() }
var g7 = func() int { return g8() + g9() }
var g8 = func() int { return g9() + g10() }
var g9 = func() int { return g10() + g11() }
var g10 = func() int { return g11() + g12() }
var g11 = func() int { return g12() + g13() }
var g12 = func() int { return g13() + g14() }
var g13 = func() int { return g14() + g15() }
var g14 = func() int { return g15() + g16() }
var g15 = func() int { return g16() + g17() }
var g16 = func() int { return g17() + g18() }
var g17 = func() int { return g18() + g19() }
var g18 = func() int { return g19() + g20() }
var g19 = func() int { return g20() + g21() }
var g20 = func() int { return g21() + g22() }
var g21 = func() int { return g22() + g23() }
var g22 = func() int { return g23() + g24() }
var g23 = func() int { return g24() + g25() }
var g24 = func() int { return g25() + g26() }
var g25 = func() int { return g26() + g27() }
var g26 = func() int { return g27() + g28() }
var g27 = func() int { return g28() + g29() }
var g28 = func() int { return g29() + g30() }
var g29 = func() int { return g30() + g31() }
var g30 = func() int { return g31() + g32() }
var g31 = func() int { return g32() + g33() }
var g32 = func() int { return g33() + g34() }
var g33 = func() int { return g34() + g35() }
var g34 = func() int { return g35() + g36() }
var g35 = func() int { return g36() + g37() }
var g36 = func() int { return g37() + g38() }
var g37 = func() int { return g38() + g39() }
var g38 = func() int { return g39() }
var g39 = func() int { return 1 }

var h0 = func() int { return h1() + g0() }
var h1 = func() int { return rand.IntN(10) }

// Sum calls the first of the chain that draws nothing: no random function.
func Sum() int { return g0() }

// Pick calls the chain that draws.
func Pick() int { return h0() } // want Pick:"random\\(calls h0\\)"
