// Package chance picks peers and waits jittered times; its tests' verdicts depend on chance
// and on the real clock.
package chance

import (
	"math/rand/v2"
	"time"
)

// Pick is the index of a random peer among 10.
func Pick() int { // want Pick:"random\\(rand.IntN, Uniform\\[0, 10\\)\\)"
	return rand.IntN(10)
}

// Peer is a random one of peers.
func Peer(peers []string) string { // want Peer:"random\\(rand.IntN, pick\\)"
	return peers[rand.IntN(len(peers))]
}

// ID is a random 63-bit identifier.
func ID() int64 { // want ID:"random\\(rand.Int64\\)"
	return rand.Int64()
}

// Fraction is in [0, 1).
func Fraction() float64 { // want Fraction:"random\\(rand.Float64, Uniform\\[0, 1\\)\\)"
	return rand.Float64()
}

// Wait is a jittered wait in [10ms, 20ms).
func Wait() time.Duration { // want Wait:"random\\(rand.N, Uniform\\[10000000, 20000000\\)\\)"
	return 10*time.Millisecond + rand.N(10*time.Millisecond)
}

// After fires after a jittered wait.
func After() <-chan time.Time { // want After:"random\\(calls Wait\\)"
	return time.After(Wait())
}

// Offset is in [0, n).
func Offset(n int) int { // want Offset:"random\\(rand.Uint32, Uniform\\[0, 1\\*\\$0\\)\\)"
	return int(rand.Uint32() % uint32(n))
}

// RandomWait is a delay function handed to Retry as a value.
func RandomWait(attempt int) time.Duration { // want RandomWait:"random\\(rand.N, Uniform\\[0, 10000000\\+10000000\\*\\$0\\)\\)"
	return rand.N(time.Duration(attempt+1) * 10 * time.Millisecond)
}

// Retry runs f up to n times, waiting delay(i) between attempts.
func Retry(n int, delay func(int) time.Duration, f func() error) error {
	var err error
	for i := range n {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(delay(i))
	}
	return err
}

// Sample picks k of peers, in a random order.
func Sample(k int, peers []string) []string { // want Sample:"random\\(rand.Perm\\)"
	out := []string{}
	for _, i := range rand.Perm(len(peers))[:k] {
		out = append(out, peers[i])
	}
	return out
}

// letters are 62 letters and digits.
const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Token returns n characters of letters.
func Token(n int) string { // want Token:"random\\(rand.IntN, text\\[\\$0 of 62\\]\\)"
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rand.IntN(len(letters))]
	}
	return string(b)
}

// Bits returns n binary digits.
func Bits(n int) []rune { // want Bits:"random\\(rand.IntN, text\\[\\$0 of 2\\]\\)"
	b := make([]rune, n)
	for i := range b {
		b[i] = rune("01"[rand.IntN(2)])
	}
	return b
}

// Node is a member of a cluster.
type Node struct{ Name string }

// Nodes are the cluster's members.
var Nodes = []*Node{{"a"}, {"b"}, {"c"}}

// RandomNode is a random member: the same pointer twice by chance.
func RandomNode() *Node { // want RandomNode:"random\\(rand.IntN, pick\\)"
	i := rand.IntN(len(Nodes))
	return Nodes[i]
}

// Gossip is a wrapper of RandomNode, a pick as well.
func Gossip() *Node { return RandomNode() } // want Gossip:"random\\(calls RandomNode, pick\\)"

// Conn is a pooled connection whose lifetime is jittered.
type Conn struct{ Lifetime time.Duration } // want Lifetime:"stored\\(Conn.Lifetime\\)"

// Pool keeps idle connections.
type Pool struct{ idle []*Conn }

// Get returns an idle connection, or a new one with a jittered lifetime: which one it
// returns depends on the pool, not on the draw.
func (p *Pool) Get() *Conn { // want Get:"random\\(calls newConn\\)"
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return c
	}
	return newConn()
}

func newConn() *Conn { // want newConn:"random\\(rand.Int64N\\)"
	return &Conn{Lifetime: time.Minute + time.Duration(rand.Int64N(int64(time.Minute)))}
}

// Dial is Get, or its error: a connection and an error, the pair a real pool's Get returns.
func (p *Pool) Dial() (*Conn, error) { return p.Get(), nil } // want Dial:"random\\(calls Get\\)"

// PickFrom is the index of a random peer among 10, drawn from r.
func PickFrom(r *rand.Rand) int { // want PickFrom:"random\\(rand.IntN, Uniform\\[0, 10\\)\\)"
	return r.IntN(10)
}
