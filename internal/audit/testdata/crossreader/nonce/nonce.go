// Package nonce reads whatever io.Reader its callers give it, and names no random package:
// its parameters and fields are read, so crypto/rand's Reader given to them in another
// package of the module is a site there, where it is named.
package nonce

import (
	"crypto/rand"
	"io"
)

// Fill fills b from r.
func Fill(r io.Reader, b []byte) error {
	_, err := io.ReadFull(r, b)
	return err
}

// A Sealer makes 12-byte nonces from its Rand.
type Sealer struct {
	Rand io.Reader
}

// NewSealer returns a Sealer that reads r.
func NewSealer(r io.Reader) *Sealer {
	return &Sealer{Rand: r}
}

// An Option configures a Sealer.
type Option func(*Sealer)

// WithRand makes a Sealer read r.
func WithRand(r io.Reader) Option {
	return func(s *Sealer) { s.Rand = r }
}

// Build returns a Sealer with the options applied.
func Build(opts ...Option) *Sealer {
	s := &Sealer{}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Nonce returns 12 bytes of the Sealer's Rand.
func (s *Sealer) Nonce() []byte {
	b := make([]byte, 12)
	io.ReadFull(s.Rand, b)
	return b
}

// Prime returns a prime from r, which crypto/rand reads, not this package.
func Prime(r io.Reader) (uint64, error) {
	p, err := rand.Prime(r, 32)
	if err != nil {
		return 0, err
	}
	return p.Uint64(), nil
}
