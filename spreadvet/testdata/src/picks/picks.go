// Package picks picks names from lists.
package picks

import (
	"errors"
	"math/rand/v2"
	"time"
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

// A Response is what Do returns.
type Response struct{ Status int }

// Do sends a request and retries it after a random backoff sleep, as an HTTP client does: the
// draw only waits, and the response is not chosen by it.
func Do() *Response { // want Do:"random\\(calls Send\\)"
	for range 3 {
		if Send() == nil {
			return &Response{Status: 200}
		}
		time.Sleep(backoff())
	}
	return nil
}

func backoff() time.Duration { return time.Duration(rand.IntN(10)) * time.Millisecond } // want backoff:"random\\(rand.IntN, Uniform\\[0, 10000000\\)\\)"

// Server is one of the servers a client picks from.
type Server struct{ Name string }

// Servers are what PickServer picks from.
var Servers = []*Server{{"a"}, {"b"}, {"c"}}

// PickServer picks one of Servers.
func PickServer() *Server { return Servers[rand.IntN(len(Servers))] } // want PickServer:"random\\(rand.IntN, pick\\)"
