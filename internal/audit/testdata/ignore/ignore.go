// Package ignore has a draw on each line for every form of //spreadcheck:ignore comment.
package ignore

import (
	"crypto/rand"
	mrand "math/rand/v2"
)

// Pinned's draw is accepted as a constant: the protocol pins it.
func Pinned() int {
	return mrand.IntN(8) //spreadcheck:ignore constant: the protocol pins the slot
}

// Two accepts two classes for one reason.
func Two() float64 {
	return mrand.Float64() //spreadcheck:ignore constant, collapsed-range: a load test's think time
}

// Any accepts every class: the comment gives a reason and names no class.
func Any() float64 {
	return mrand.Float64() //spreadcheck:ignore a demo of what the audit finds
}

// Bare accepts every class and gives no reason, which the report warns of.
func Bare() float64 {
	return mrand.Float64() //spreadcheck:ignore
}

// Typo names a class that does not exist, which the report warns of.
func Typo() float64 {
	return mrand.Float64() //spreadcheck:ignore constnat: pinned
}

// Nonce's bytes are accepted for what sign-flip does not mean to them.
func Nonce(b []byte) {
	rand.Read(b) //spreadcheck:ignore clock-derived: the nonce is never compared
}

// Kept has no comment: nothing of it is ignored.
func Kept() float64 {
	return mrand.Float64() //spreadcheck:ignored is another word
}
