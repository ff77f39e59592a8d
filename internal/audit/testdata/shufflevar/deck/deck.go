// Package deck shuffles through variables and fields whose default is a shuffle: the
// variable shuffle defaults to rand.Shuffle, Deck's field to randutil.Shuffle (the module's
// own), Hand's permutation field to randutil.Perm, and the variable order to a function of
// its own package whose rand.Perm is the site.
package deck

import (
	"math/rand"

	"example.com/shufflevar/randutil"
)

var shuffle = rand.Shuffle

// Cut shuffles xs with the package's shuffle.
func Cut(xs []int) {
	shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
}

// A Deck shuffles its cards with its shuffle.
type Deck struct {
	Cards   []int
	shuffle func(int, func(int, int))
}

// New returns a deck of n cards that shuffles with randutil.
func New(n int) *Deck {
	d := &Deck{shuffle: randutil.Shuffle}
	for i := 0; i < n; i++ {
		d.Cards = append(d.Cards, i)
	}
	return d
}

// Shuffle shuffles the deck.
func (d *Deck) Shuffle() {
	d.shuffle(len(d.Cards), func(i, j int) { d.Cards[i], d.Cards[j] = d.Cards[j], d.Cards[i] })
}

// A Hand deals in the order of its perm.
type Hand struct{ perm func(int) []int }

// NewHand returns a Hand that deals in randutil's order.
func NewHand() *Hand { return &Hand{perm: randutil.Perm} }

// Deal returns the cards in the hand's order.
func (h *Hand) Deal(cards []int) []int {
	out := make([]int, 0, len(cards))
	for _, i := range h.perm(len(cards)) {
		out = append(out, cards[i])
	}
	return out
}

func permute(n int) []int { return rand.Perm(n) }

var order = permute

// Order is a random order of [0, n).
func Order(n int) []int { return order(n) }

// Mix shuffles xs with randutil's RandShuffle, a variable of another package.
func Mix(xs []int) {
	randutil.RandShuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
}
