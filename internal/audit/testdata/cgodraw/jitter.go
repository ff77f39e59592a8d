// Package cgodraw draws in a file that uses cgo and in one that does not.
package cgodraw

/*
static int base(void) { return 100; }
*/
import "C"

import "math/rand/v2"

// Jitter returns the base delay, in milliseconds, plus up to half of it again.
func Jitter() int {
	b := int(C.base())
	return b + rand.IntN(b/2)
}

// Wait returns a delay below the base one, in milliseconds, plus one.
func Wait() int {
	return int(C.base())/int(C.base()) + rand.IntN(int(C.base()))
}

// Coin is true half the time.
func Coin() bool {
	return rand.Float64() < 0.5
}
