// Package token hands crypto/rand's Reader to package nonce in each way a module does: as
// an argument that nonce reads, into nonce's field, through nonce's constructor and its
// option; and to nonce.Prime, which does not read it: no site.
package token

import (
	"crypto/rand"
	"encoding/hex"

	"example.com/crossreader/nonce"
)

// ID is 8 random bytes, in hex.
func ID() string {
	b := make([]byte, 8)
	nonce.Fill(rand.Reader, b)
	return hex.EncodeToString(b)
}

// Literal returns a Sealer whose field is set in a literal.
func Literal() *nonce.Sealer {
	return &nonce.Sealer{Rand: rand.Reader}
}

// Assigned returns a Sealer whose field is assigned.
func Assigned() *nonce.Sealer {
	s := &nonce.Sealer{}
	s.Rand = rand.Reader
	return s
}

// Constructed returns a Sealer made by nonce's constructor.
func Constructed() *nonce.Sealer {
	return nonce.NewSealer(rand.Reader)
}

// Optioned returns a Sealer made with nonce's option.
func Optioned() *nonce.Sealer {
	return nonce.Build(nonce.WithRand(rand.Reader))
}

// Prime is a random 32-bit prime.
func Prime() uint64 {
	p, _ := nonce.Prime(rand.Reader)
	return p
}
