// Package cryptorand draws IDs and waits from crypto/rand and from math/rand's byte reader:
// the shapes of go-nanoid's Generate and uniuri's NewLen.
package cryptorand

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"math/big"
	mrand "math/rand"
	"time"
)

// Generate is go-nanoid's Generate: masked bytes of crypto/rand.Read index the alphabet.
func Generate(rawAlphabet string, size int) (string, error) { // want Generate:"random\\(crypto/rand.Read, text\\[\\$1 of \\$0\\]\\)"
	alphabet := []rune(rawAlphabet)
	mask := byte(63)
	step := size * 2
	id := make([]rune, size)
	for j := 0; ; {
		bytes := make([]byte, step)
		if _, err := rand.Read(bytes); err != nil {
			return "", err
		}
		for i := 0; i < step; i++ {
			currentIndex := bytes[i] & mask
			if currentIndex < byte(len(alphabet)) {
				id[j] = alphabet[currentIndex]
				j++
				if j == size {
					return string(id[:size]), nil
				}
			}
		}
	}
}

// StdChars is uniuri's alphabet.
const StdChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// NewLen is uniuri's NewLen: crypto/rand bytes mapped to StdChars.
func NewLen(n int) string { // want NewLen:"random\\(crypto/rand.Read, text\\[\\$0 of 62\\]\\)"
	b := make([]byte, n)
	r := make([]byte, n)
	if _, err := rand.Read(r); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = StdChars[int(r[i])%len(StdChars)]
	}
	return string(b)
}

// FullID fills its bytes with io.ReadFull from crypto/rand.Reader.
func FullID() (string, error) { // want FullID:"random\\(io.ReadFull\\(crypto/rand.Reader\\)\\)"
	b := make([]byte, 16)
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// ReaderID reads crypto/rand.Reader directly.
func ReaderID() string { // want ReaderID:"random\\(crypto/rand.Reader.Read\\)"
	b := make([]byte, 8)
	rand.Reader.Read(b)
	return hex.EncodeToString(b)
}

// MathID fills its bytes from math/rand's global Read.
func MathID() string { // want MathID:"random\\(rand.Read\\)"
	b := make([]byte, 8)
	mrand.Read(b)
	return hex.EncodeToString(b)
}

// SourceID fills its bytes from an injected *rand.Rand.
func SourceID(r *mrand.Rand) string { // want SourceID:"random\\(rand.Read\\)"
	b := make([]byte, 8)
	r.Read(b)
	return hex.EncodeToString(b)
}

// Token is crypto/rand.Text: 26 characters of base32.
func Token() string { return rand.Text() } // want Token:"random\\(crypto/rand.Text, text\\[26 of 32\\]\\)"

// JitterErr is a wait of up to d drawn by crypto/rand.Int.
func JitterErr(d time.Duration) (time.Duration, error) { // want JitterErr:"random\\(crypto/rand.Int\\)"
	n, err := rand.Int(rand.Reader, big.NewInt(int64(d)))
	if err != nil {
		return 0, err
	}
	return time.Duration(n.Int64()), nil
}

// Hex encodes its input: no draw.
func Hex(b []byte) string { return hex.EncodeToString(b) }

// RawKey is NewLen as bytes.
func RawKey(n int) []byte { return []byte(NewLen(n)) } // want RawKey:"random\\(calls NewLen, text\\[\\$0 of 62\\]\\)"

// Prefixed appends drawn characters to a prefix: a buffer made by no make, whose length
// the body does not give, so it has no text shape.
func Prefixed(prefix string, n int) string { // want Prefixed:"random\\(crypto/rand.Read\\)"
	b := []byte(prefix)
	r := make([]byte, n)
	rand.Read(r)
	for _, x := range r {
		b = append(b, StdChars[int(x)%len(StdChars)])
	}
	return string(b)
}

// Appended builds its buffer by appends to a declared slice.
func Appended(n int) string { // want Appended:"random\\(crypto/rand.Read\\)"
	var b []byte
	r := make([]byte, n)
	rand.Read(r)
	for _, x := range r {
		b = append(b, StdChars[int(x)%len(StdChars)])
	}
	return string(b)
}

// NewSeed is hashicorp/raft's newSeed: a 63-bit number from crypto/rand.Int.
func NewSeed() int64 { // want NewSeed:"random\\(crypto/rand.Int\\)"
	r, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		panic(err)
	}
	return r.Int64()
}

// Seed calls NewSeed.
func Seed() int64 { return NewSeed() } // want Seed:"random\\(calls NewSeed\\)"

// UniNewLen is uniuri v1.2.0's NewLen: two wrappers above the function that reads
// crypto/rand.
func UniNewLen(length int) string { return UniNewLenChars(length, []byte(StdChars)) } // want UniNewLen:"random\\(calls UniNewLenChars, text\\[\\$0 of 62\\]\\)"

// UniNewLenChars is uniuri's NewLenChars.
func UniNewLenChars(length int, chars []byte) string { // want UniNewLenChars:"random\\(calls UniNewLenCharsBytes, text\\[\\$0 of \\$1\\]\\)"
	return string(UniNewLenCharsBytes(length, chars))
}

// UniNewLenCharsBytes is uniuri's NewLenCharsBytes, its rejection of biased bytes left out.
func UniNewLenCharsBytes(length int, chars []byte) []byte { // want UniNewLenCharsBytes:"random\\(crypto/rand.Read, text\\[\\$0 of \\$1\\]\\)"
	buf := make([]byte, length)
	out := make([]byte, length)
	if _, err := rand.Read(buf); err != nil {
		panic(err)
	}
	for i, rb := range buf {
		out[i] = chars[int(rb)%len(chars)]
	}
	return out
}

// generator is go-nanoid v1.4.0's generator: a func that makes one ID.
type generator = func() string

// Standard is go-nanoid v1.4.0's Standard: a constructor that can fail returns the
// generator, which reads crypto/rand on each call, as the first of (generator, error).
func Standard(length int) (generator, error) { // want Standard:"random\\(crypto/rand.Read, text\\[\\$0 of 62\\] from the func it returns, quiet when \\$0 < 1\\)"
	if length < 1 {
		return nil, io.ErrShortBuffer
	}
	return func() string {
		b := make([]byte, length)
		rand.Read(b)
		id := make([]byte, length)
		for i := range b {
			id[i] = StdChars[int(b[i])%len(StdChars)]
		}
		return string(id)
	}, nil
}

// Waits returns a func that draws a wait of up to d from crypto/rand, and an error.
func Waits(d time.Duration) (func() time.Duration, error) { // want Waits:"random\\(crypto/rand.Int\\)"
	return func() time.Duration {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(d)))
		return time.Duration(n.Int64())
	}, nil
}

// Fixed returns a func that always returns s, and an error: no draw.
func Fixed(s string) (func() string, error) {
	return func() string { return s }, nil
}

// standardAlphabet is go-nanoid v1.4.0's: 64 letters, indexed by a byte masked with 63.
var standardAlphabet = [64]byte{
	'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P',
	'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'a', 'b', 'c', 'd', 'e', 'f',
	'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v',
	'w', 'x', 'y', 'z', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '_', '-',
}

// Buffered is go-nanoid v1.4.0's Standard as it is: the bytes are read ahead into a buffer
// the generator keeps, and the ID is built in another it keeps, from the array alphabet.
func Buffered(length int) (generator, error) { // want Buffered:"random\\(crypto/rand.Read, text\\[\\$0 of 64\\] from the func it returns, quiet when \\$0 < 2\\)"
	if length < 2 {
		return nil, io.ErrShortBuffer
	}
	size := length * length * 7
	b := make([]byte, size)
	rand.Read(b)
	offset := 0
	id := make([]byte, length)
	return func() string {
		if offset == size {
			rand.Read(b)
			offset = 0
		}
		for i := 0; i < length; i++ {
			id[i] = standardAlphabet[b[i+offset]&63]
		}
		offset += length
		return string(id)
	}, nil
}

// source is go-faker's crypto: crypto/rand.Reader by default, or the reader a caller sets.
var source io.Reader

func init() { source = rand.Reader }

// SetSource sets the reader the IDs are read from.
func SetSource(r io.Reader) { source = r }

// SourceHex is go-faker's createUUID: its bytes come from source.
func SourceHex() string { // want SourceHex:"random\\(io.ReadFull\\(crypto/rand.Reader\\)\\)"
	b := make([]byte, 16)
	io.ReadFull(source, b)
	return hex.EncodeToString(b)
}

// pinned holds crypto/rand.Reader, then fixed bytes: no source of draws.
var pinned io.Reader = rand.Reader

func init() { pinned = bytes.NewReader(make([]byte, 64)) }

// PinnedHex reads pinned: no draw.
func PinnedHex() string {
	b := make([]byte, 16)
	io.ReadFull(pinned, b)
	return hex.EncodeToString(b)
}

// Gen is gofrs/uuid's generator: its reader is crypto/rand.Reader unless an option sets
// another.
type Gen struct{ rand io.Reader }

// GenOption sets an option of a Gen.
type GenOption func(*Gen)

// WithReader is gofrs's WithRandomReader: nil keeps crypto/rand.Reader.
func WithReader(r io.Reader) GenOption {
	return func(g *Gen) {
		if r == nil {
			r = rand.Reader
		}
		g.rand = r
	}
}

// NewGen returns a Gen that reads crypto/rand.Reader, or what its options give.
func NewGen(opts ...GenOption) *Gen {
	g := &Gen{rand: rand.Reader}
	for _, o := range opts {
		o(g)
	}
	return g
}

// NewV4 reads 16 bytes from the generator's reader.
func (g *Gen) NewV4() [16]byte { // want NewV4:"random\\(io.ReadFull\\(crypto/rand.Reader\\)\\)"
	var u [16]byte
	io.ReadFull(g.rand, u[:])
	return u
}

// Unkeyed reads a reader that a literal sets without its key: no draw is known.
type Unkeyed struct{ r io.Reader }

// NewUnkeyed returns an Unkeyed that reads zeros, then crypto/rand.Reader by its key.
func NewUnkeyed() *Unkeyed {
	u := &Unkeyed{bytes.NewReader(make([]byte, 64))}
	if u.r == nil {
		u = &Unkeyed{r: rand.Reader}
	}
	return u
}

// Read16 reads 16 bytes.
func (f *Unkeyed) Read16() [16]byte {
	var u [16]byte
	io.ReadFull(f.r, u[:])
	return u
}

// Generator is gofrs's interface of generators.
type Generator interface{ NewV4() [16]byte }

// Default is the package's generator, reached through the interface.
var Default Generator = NewGen()

// DefaultV4 is gofrs's NewV4: the default generator's, through the interface.
func DefaultV4() [16]byte { return Default.NewV4() } // want DefaultV4:"random\\(calls NewV4\\)"

// Alt is another generator of crypto/rand bytes.
type Alt struct{}

// NewV4 reads 16 bytes of crypto/rand.
func (Alt) NewV4() [16]byte { // want NewV4:"random\\(io.ReadFull\\(crypto/rand.Reader\\)\\)"
	var u [16]byte
	io.ReadFull(rand.Reader, u[:])
	return u
}

// NewDrawn returns one of two generators as the interface, chosen by a draw: a random
// function whose value is random too, and of no one concrete type.
func NewDrawn() Generator { // want NewDrawn:"random\\(crypto/rand.Read\\)"
	var pick [1]byte
	rand.Read(pick[:])
	if pick[0]&1 == 0 {
		return Alt{}
	}
	return NewGen()
}
