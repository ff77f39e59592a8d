// Package reader reads crypto/rand's Reader as an io.Reader: straight into a nonce, with the
// Reader's own method, copied into a buffer, through a field that tests may replace, and
// through the parameters of two helpers. The reader it hands to rand.Prime is read by
// crypto/rand, not by the package: no site.
package reader

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"io"
	"math/big"
)

// Nonce fills a 12-byte nonce.
func Nonce() ([]byte, error) {
	n := make([]byte, 12)
	_, err := io.ReadFull(rand.Reader, n)
	return n, err
}

// Token reads 16 bytes with the Reader's method.
func Token() string {
	b := make([]byte, 16)
	rand.Reader.Read(b)
	return hex.EncodeToString(b)
}

// Seal writes a nonce into a buffer.
func Seal(dst *bytes.Buffer) error {
	_, err := io.CopyN(dst, rand.Reader, 12)
	return err
}

// Shuffler draws its swaps from a reader, crypto/rand's unless a test gives another.
type Shuffler struct {
	rand io.Reader
}

// NewShuffler returns a Shuffler that reads crypto/rand.
func NewShuffler() *Shuffler {
	return &Shuffler{rand: rand.Reader}
}

// Shuffle shuffles xs, Fisher-Yates.
func (s *Shuffler) Shuffle(xs []int) {
	for i := len(xs) - 1; i > 0; i-- {
		j := int(s.uint64() % uint64(i+1))
		xs[i], xs[j] = xs[j], xs[i]
	}
}

func (s *Shuffler) uint64() uint64 {
	var b [8]byte
	io.ReadFull(s.rand, b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// ID is a random 64-bit identifier.
func ID() uint64 {
	return readUint64(rand.Reader)
}

func readUint64(r io.Reader) uint64 {
	var b [8]byte
	fill(r, b[:])
	return binary.BigEndian.Uint64(b[:])
}

func fill(r io.Reader, b []byte) {
	io.ReadFull(r, b)
}

// Key is a random prime.
func Key() (*big.Int, error) {
	return rand.Prime(rand.Reader, 64)
}
