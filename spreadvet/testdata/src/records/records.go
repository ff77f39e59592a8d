// Package records makes random records, as fake-data generators do: a struct some of whose
// fields are drawn and some fixed.
package records

import "math/rand/v2"

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
