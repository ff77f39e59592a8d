// Package tallies draws random strings and random picks; its tests count each outcome in a
// map, an array or a slice and compare each count with a typed band around its expectation.
package tallies

import (
	"crypto/rand"
	"math/big"
	mrand "math/rand/v2"
)

// NewLenChars returns a random string of length characters, each one of chars (the shape of
// github.com/dchest/uniuri).
func NewLenChars(length int, chars []byte) string { // want NewLenChars:"random\\(rand.IntN, text\\[\\$0 of \\$1\\]\\)"
	b := make([]byte, length)
	for i := range b {
		b[i] = chars[mrand.IntN(len(chars))]
	}
	return string(b)
}

// MustGenerate returns an ID of size characters of alphabet read from crypto/rand (the shape
// of github.com/matoous/go-nanoid).
func MustGenerate(alphabet string, size int) string { // want MustGenerate:"random\\(crypto/rand.Int, text\\[\\$1 of \\$0\\]\\)"
	out := make([]byte, size)
	for i := range out {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			panic(err)
		}
		out[i] = alphabet[n.Int64()]
	}
	return string(out)
}

// Pick is one of 10 servers, each as likely.
func Pick() int { // want Pick:"random\\(rand.IntN, Uniform\\[0, 10\\)\\)"
	return mrand.IntN(10)
}

// Next is the server after i, in turn: no draw.
func Next(i int) int { return (i + 1) % 10 }

// PickFrom is one of 10 servers, drawn from r.
func PickFrom(r *mrand.Rand) int { // want PickFrom:"random\\(rand.IntN, Uniform\\[0, 10\\)\\)"
	return r.IntN(10)
}
