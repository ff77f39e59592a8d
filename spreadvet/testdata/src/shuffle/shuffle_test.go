package shuffle

import (
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShuffleNodes(t *testing.T) {
	orig := []*Node{{State: Alive}, {State: Dead}, {State: Alive}, {State: Alive}, {State: Dead}, {State: Alive}, {State: Dead}, {State: Alive}}
	nodes := make([]*Node, len(orig))
	copy(nodes, orig)
	if !reflect.DeepEqual(nodes, orig) { // the copy must match: no chance verdict
		t.Fatal("should match")
	}
	ShuffleNodes(nodes)
	if reflect.DeepEqual(nodes, orig) { // want `chance verdict: TestShuffleNodes fails when ShuffleNodes\(nodes\) leaves nodes in the order of orig \(reflect.DeepEqual\(nodes, orig\)\), which a correct uniform shuffle of its 8 items does with probability 0.0179 \(3!5!/8!, exact, with 5 and 3 items alike\); check instead that the shuffle keeps every item .*spread.Check\(t, xs, spread.Uniform\(0, 8\)\)`
		t.Fatal("should not match")
	}
}

var servers = []string{"a", "b", "c", "d", "e", "f", "g"}

func TestPoolRandomized(t *testing.T) {
	p := &Pool{Servers: servers}
	p.Setup()
	var got []string
	for _, s := range p.List() {
		got = append(got, s)
	}
	if reflect.DeepEqual(servers, got) { // want `chance verdict: TestPoolRandomized fails when p.Setup\(\) leaves got in the order of servers .* with probability 0.000198 \(1/7!, exact\)`
		t.Fatal("not randomized")
	}
	// A second pool compared with the same input: no second finding (this one holds one
	// server more, so its comparison can never hold).
	p = &Pool{Servers: append([]string{"first"}, servers...)}
	p.Setup()
	got = nil
	for _, s := range p.List() {
		got = append(got, s)
	}
	if reflect.DeepEqual(servers, got) {
		t.Fatal("not randomized")
	}
}

func TestShuffleAssert(t *testing.T) {
	want := []int{1, 2, 3}
	got := []int{1, 2, 3}
	ShuffleNodesInts(got)
	assert.NotEqual(t, want, got) // want `chance verdict: TestShuffleAssert fails when ShuffleNodesInts\(got\) leaves got in the order of want .* probability 0.167 \(1/3!, exact\)`
}

// shuffleOwn is the test's own shuffle, not the code under test's: no finding.
func shuffleOwn(xs []int) {
	for i := len(xs) - 1; i > 0; i-- {
		j := i - 1
		xs[i], xs[j] = xs[j], xs[i]
	}
	ShuffleNodesInts(xs)
}

func TestOwnShuffle(t *testing.T) {
	xs := []int{1, 2, 3}
	ys := slices.Clone(xs)
	shuffleOwn(ys)
	if reflect.DeepEqual(xs, ys) {
		t.Fatal("not shuffled")
	}
}

func TestPointersByAddress(t *testing.T) {
	orig := []*Node{&Node{State: Alive}, &Node{State: Alive}, &Node{State: Alive}}
	nodes := slices.Clone(orig)
	ShuffleNodes(nodes)
	if slices.Equal(nodes, orig) { // want `chance verdict: TestPointersByAddress fails when ShuffleNodes\(nodes\) leaves nodes .* probability 0.167 \(1/3!, exact\)`
		t.Fatal("same order")
	}
}

// Not flagged: 20 distinct items (1/20! is far below 1e-9), a shuffle compared with itself,
// an input of unknown length, an order required to be equal, a swap at no drawn index, an
// element compared rather than the order, and a comparison before the shuffle.
func TestNotFlagged(t *testing.T) {
	big := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	xs := slices.Clone(big)
	ShuffleNodesInts(xs)
	if reflect.DeepEqual(xs, big) {
		t.Fatal("not shuffled")
	}
	ShuffleNodesInts(xs)
	if !reflect.DeepEqual(xs, xs) {
		t.Fatal("a shuffle equals itself")
	}
	unknown := make([]int, 10)
	ys := slices.Clone(unknown)
	ShuffleNodesInts(ys)
	if reflect.DeepEqual(ys, unknown) {
		t.Fatal("unknown length")
	}
	small := []int{3, 1, 2}
	zs := slices.Clone(small)
	if reflect.DeepEqual(zs, small) == false {
		t.Fatal("before the shuffle")
	}
	ShuffleNodesInts(zs)
	if !reflect.DeepEqual(zs, small) {
		t.Log("shuffled, as it should") // only logs
	}
	if zs[0] == small[0] {
		t.Fatal("one element: not the order")
	}
	ws := []int{1, 2, 3}
	Swap(ws, 0, 1)
	Rotate(ws)
	if reflect.DeepEqual(ws, []int{1, 2, 3}) {
		t.Fatal("swap")
	}
}
