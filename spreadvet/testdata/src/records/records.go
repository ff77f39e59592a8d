// Package records makes random records, as fake-data generators do: a struct some of whose
// fields are drawn and some fixed.
package records

import (
	crand "crypto/rand"
	"errors"
	"math/rand/v2"
	"sync"
)

var names = []string{"ann", "bob", "cid"}

// Name picks one of names.
func Name() string { return names[rand.IntN(len(names))] } // want Name:"random\\(rand.IntN, pick\\)"

// A Person is a fake person.
type Person struct {
	Kind    string
	Name    string
	Country string
	Address struct {
		Street string
		Number int
	}
}

// NewPerson makes a person of the kind given, with a random name and street.
func NewPerson(kind string) *Person { // want NewPerson:"random\\(calls Name\\)"
	p := &Person{Kind: kind}
	p.Name = Name()
	p.Address.Street = Name() + " street"
	p.Country = "NZ"
	return p
}

// Deep makes a person four calls from its draw.
func Deep() *Person { return deep1() } // want Deep:"random\\(calls deep1\\)"

func deep1() *Person { return deep2() } // want deep1:"random\\(calls deep2\\)"

func deep2() *Person { return NewPerson("deep") } // want deep2:"random\\(calls NewPerson\\)"

const digits = "0123456789ABCDEF"

// A Token has a prefix of random digits, filled from crypto/rand bytes, and a random start.
type Token struct {
	pre []byte
	seq int64 // want seq:"stored\\(Token.seq\\)"
}

// NewToken makes a token, as nats-io/nuid's New does.
func NewToken() *Token { // want NewToken:"random\\(.*\\)"
	t := &Token{pre: make([]byte, 8), seq: rand.Int64N(1000)}
	var cb [8]byte
	cbs := cb[:]
	crand.Read(cbs)
	for i := range 8 {
		t.pre[i] = digits[int(cbs[i])%len(digits)]
	}
	return t
}

// Fill gives p a random name, and an error when p has no kind, as fake-data fillers do.
func Fill(p *Person) error { // want Fill:"random\\(calls Name\\)"
	p.Name = Name()
	if p.Kind == "" {
		return errors.New("records: a person needs a kind")
	}
	return nil
}

// lockedToken is nats-io/nuid's lockedNUID: a token behind a lock.
type lockedToken struct {
	sync.Mutex
	*Token
}

// global is nats-io/nuid's globalNUID: a token drawn when the package starts.
var global *lockedToken

func init() { global = &lockedToken{Token: NewToken()} } // want init:"random\\(calls NewToken\\)"

// fixedToken is drawn, then given a fixed prefix: no draw kept.
var fixedToken = NewToken()

// ResetFixed gives fixedToken a fixed prefix.
func ResetFixed() { fixedToken = &Token{pre: []byte("00000000")} }
