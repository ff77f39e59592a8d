// Package broken does not compile: an audit reports the compiler's message.
package broken

import "math/rand/v2"

// Draw returns a string where it promises an int.
func Draw() int {
	return rand.IntN(10) + "x"
}
