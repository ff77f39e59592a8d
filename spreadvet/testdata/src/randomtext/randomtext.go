// Package randomtext draws random strings: names and IDs from an alphabet.
package randomtext

import (
	"math/rand/v2"
	"strings"
)

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

// Hop1, Hop2 and Hop3 reach ID through a chain of calls; Either calls the chain's far end
// first and ID too, so its shortest chain is ID, one call away, in whatever order the
// functions are visited.
func Hop1(n int) string { s := ID(n); return s } // want Hop1:"random\\(calls ID.*"

func Hop2(n int) string { s := Hop1(n); return s } // want Hop2:"random\\(calls Hop1.*"

func Hop3(n int) string { s := Hop2(n); return s } // want Hop3:"random\\(calls Hop2.*"

func Either(n int, deep bool) string { // want Either:"random\\(calls ID.*"
	if deep {
		return Hop3(n)
	}
	return ID(n)
}

// Either2 to Either4 are Either again. With the first chain found in a map's order, the
// fixture failed in 7 and 6 of 12 runs.
func Either2(n int, deep bool) string { // want Either2:"random\\(calls ID.*"
	if deep {
		return Hop3(n)
	}
	return ID(n)
}

func Either3(n int, deep bool) string { // want Either3:"random\\(calls ID.*"
	if deep {
		return Hop3(n)
	}
	return ID(n)
}

func Either4(n int, deep bool) string { // want Either4:"random\\(calls ID.*"
	if deep {
		return Hop3(n)
	}
	return ID(n)
}

// Shout is code under test that takes a string: a random ID handed to it is its input.
func Shout(s string) string { return strings.ToUpper(s) }

// Partitions returns the partitions 0 to n-1 in a random order: numbers, not text, though
// rune is another name of int32.
func Partitions(n int) []int32 { // want Partitions:"random\\(rand.Perm\\)"
	var out []int32
	for _, p := range rand.Perm(n) {
		out = append(out, int32(p))
	}
	return out
}
