// Package randomtext draws random strings: names and IDs from an alphabet.
package randomtext

import "math/rand/v2"

// Alphabet is what IDs are made of.
const Alphabet = "bcdfghjklmnpqrstvwxz2456789"

// ID returns n characters drawn from Alphabet.
func ID(n int) string { // want ID:"random\\(rand.IntN, text\\[\\$0 of 27\\]\\)"
	b := make([]byte, n)
	for i := range b {
		b[i] = Alphabet[rand.IntN(len(Alphabet))]
	}
	return string(b)
}

// Key returns an ID as bytes.
func Key(n int) []byte { return []byte(ID(n)) } // want Key:"random\\(calls ID, text\\[\\$0 of 27\\]\\)"

// Label is a fixed name: no draw.
func Label(n int) string { return Alphabet[:n] }

// Twice is an ID of twice n characters: a wrapper whose length is no parameter or constant
// of its call, so its shape is unknown.
func Twice(n int) string { return ID(2 * n) } // want Twice:"random\\(calls ID, text\\[\\?\\]\\)"
