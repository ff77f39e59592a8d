// Package picks picks names from lists.
package picks

import (
	"errors"
	"math/rand/v2"
)

// Names are what Name picks from.
var Names = []string{"ann", "bob", "cid"}

// Name picks one of Names.
func Name() string { return Names[rand.IntN(len(Names))] } // want Name:"random\\(rand.IntN, pick\\)"

// NameFrom picks one of Names with r.
func NameFrom(r *rand.Rand) string { return Names[r.IntN(len(Names))] } // want NameFrom:"random\\(rand.IntN, pick\\)"

// First is no pick.
func First() string { return Names[0] }

// Send sends to a server picked at random, which may be busy.
func Send() error { // want Send:"random\\(rand.IntN\\)"
	if rand.IntN(10) == 0 {
		return errors.New("busy")
	}
	return nil
}
