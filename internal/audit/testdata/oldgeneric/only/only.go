// Package only has one draw, math/rand/v2's generic N called in a generic function: before
// the rewrite instantiated N, every mutant of the package failed to compile at go 1.18 and
// the audit stopped.
package only

import "math/rand/v2"

// Slot is a slot in [0, n).
func Slot[N ~int | ~int32](n N) N {
	return rand.N(n)
}
