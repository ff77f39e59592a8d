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

// Each Mix function calls a function that shuffles by a call (Viaf), then shuffles itself
// by a call. Its fact names the nearer shuffle whatever order the analysis visits the
// functions in: visited in a map's order, a Mix seen after its Via took the longer chain.
func Mix1(xs []int) { Via1(xs); ShuffleNodesInts(xs) } // want Mix1:"random\\(calls ShuffleNodesInts\\)" Mix1:"shuffles\\(calls ShuffleNodesInts\\)"
func Via1(xs []int) { ShuffleNodesInts(xs) }           // want Via1:"random\\(calls ShuffleNodesInts\\)" Via1:"shuffles\\(calls ShuffleNodesInts\\)"
func Mix2(xs []int) { Via2(xs); ShuffleNodesInts(xs) } // want Mix2:"random\\(calls ShuffleNodesInts\\)" Mix2:"shuffles\\(calls ShuffleNodesInts\\)"
func Via2(xs []int) { ShuffleNodesInts(xs) }           // want Via2:"random\\(calls ShuffleNodesInts\\)" Via2:"shuffles\\(calls ShuffleNodesInts\\)"
func Mix3(xs []int) { Via3(xs); ShuffleNodesInts(xs) } // want Mix3:"random\\(calls ShuffleNodesInts\\)" Mix3:"shuffles\\(calls ShuffleNodesInts\\)"
func Via3(xs []int) { ShuffleNodesInts(xs) }           // want Via3:"random\\(calls ShuffleNodesInts\\)" Via3:"shuffles\\(calls ShuffleNodesInts\\)"
