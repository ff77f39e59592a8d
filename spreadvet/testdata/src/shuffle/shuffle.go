// Package shuffle shuffles nodes and a pool of servers; its tests require the shuffled order
// to differ from the input, which a correct shuffle keeps by chance.
package shuffle

import (
	"math/rand"
	"time"
)

// State is a node's state.
type State int

// The states of a node.
const (
	Alive State = iota
	Dead
)

// Node is one member.
type Node struct{ State State }

// ShuffleNodes shuffles nodes in place.
func ShuffleNodes(nodes []*Node) { // want ShuffleNodes:"random\\(rand.Shuffle\\)" ShuffleNodes:"shuffles\\(rand.Shuffle\\)"
	rand.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
}

// Pool is a list of servers, shuffled when it is set up.
type Pool struct {
	Servers []string
	list    []string
}

// shuffle is Fisher-Yates written out, from a source made on every call.
func (p *Pool) shuffle() { // want shuffle:"random\\(rand.Intn\\)" shuffle:"shuffles\\(a swap at a drawn index\\)"
	r := rand.New(rand.NewSource(42))
	for i := range p.list {
		j := r.Intn(i + 1)
		p.list[i], p.list[j] = p.list[j], p.list[i]
	}
}

// Setup copies the servers into the pool's list and shuffles it.
func (p *Pool) Setup() { // want Setup:"random\\(calls shuffle\\)" Setup:"shuffles\\(calls shuffle\\)"
	p.list = append([]string(nil), p.Servers...)
	p.shuffle()
}

// List is the pool's list, in its order.
func (p *Pool) List() []string { return p.list }

// Swap swaps two items: a swap at no drawn index is no shuffle.
func Swap(xs []int, i, j int) {
	xs[i], xs[j] = xs[j], xs[i]
}

// Rotate moves every item one place on, after a random wait: it draws and swaps, but at no
// drawn index, so it is no shuffle.
func Rotate(xs []int) { // want Rotate:"random\\(rand.Intn\\)"
	time.Sleep(time.Duration(rand.Intn(10)))
	for i := 1; i < len(xs); i++ {
		xs[i-1], xs[i] = xs[i], xs[i-1]
	}
}

// ShuffleNodesInts shuffles ints in place.
func ShuffleNodesInts(xs []int) { // want ShuffleNodesInts:"random\\(rand.Shuffle\\)" ShuffleNodesInts:"shuffles\\(rand.Shuffle\\)"
	rand.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
}
