// Package hang draws until it draws a zero: a constant draw never ends the loop, and the
// audit must count that hang as a kill by timeout.
package hang

import "math/rand/v2"

// Attempts draws from [0, n) until it draws 0 and returns how many draws that took.
func Attempts(n int) int {
	k := 1
	for rand.IntN(n) != 0 {
		k++
	}
	return k
}
