// Package reduced reduces draws of uniform bits: to bits that halving the draw leaves alone
// (a modulus that is a power of two, a mask below the top bit, a narrowing conversion), where
// a collapsed range is equivalent; and to the top bit, or by a modulus that is no constant
// power of two, where it is not.
package reduced

import (
	"math/rand"
	randv2 "math/rand/v2"
)

// Bucket is one of 16 buckets.
func Bucket() uint32 {
	return rand.Uint32() % 16
}

// Masked keeps the low byte of a 63-bit draw.
func Masked() int64 {
	return rand.Int63() & 0xff
}

// Low16 narrows a 32-bit draw to 16 bits.
func Low16() uint16 {
	return uint16(rand.Uint32())
}

// Shard keeps 4 bits of a draw of 8 bits.
func Shard() int {
	return randv2.IntN(256) & 15
}

// Widened converts a 31-bit draw to 64 bits and keeps 10 of them.
func Widened() int64 {
	return int64(rand.Int31()) % 1024
}

// Coin keeps the top bit of the draw, which halving clears.
func Coin() bool {
	return rand.Uint32()&(1<<31) != 0
}

// Offset is an offset in [0, n) for any n: a modulus no constant power of two.
func Offset(n int) int {
	if n == 0 {
		return 0
	}
	return int(rand.Uint32() % uint32(n))
}

// A cache keeps one of its draws to itself, as groupcache's does.
type cache struct{ rand *rand.Rand }

// Sampled is true one call in ten: the draw is only compared with 0, which its negation
// is exactly when the draw is.
func (c *cache) Sampled() bool {
	return c.rand.Intn(10) == 0
}

// Picked is true one call in ten too, but compared with 3, which the negated draw never is.
func Picked() bool {
	return rand.Intn(10) == 3
}
