package deck

import (
	"slices"
	"testing"

	"example.com/shufflevar/randutil"
)

// moved fails unless 20 shuffles of [0, 8) give at least 10 orders.
func moved(t *testing.T, order func() []int) {
	t.Helper()
	seen := map[string]bool{}
	for range 20 {
		o := order()
		seen[string(rune(len(o)))+fmtInts(o)] = true
	}
	if len(seen) < 10 {
		t.Errorf("%d distinct orders of 20", len(seen))
	}
}

func fmtInts(xs []int) string {
	b := make([]byte, len(xs))
	for i, x := range xs {
		b[i] = byte('a' + x)
	}
	return string(b)
}

func TestCut(t *testing.T) {
	moved(t, func() []int {
		xs := []int{0, 1, 2, 3, 4, 5, 6, 7}
		Cut(xs)
		return xs
	})
}

// TestDeckFake puts a reverse in the deck's field and checks the result exactly: it says
// nothing of any randomness, and kills no mutant of the field's default.
func TestDeckFake(t *testing.T) {
	d := New(4)
	d.shuffle = randutil.Reverse
	d.Shuffle()
	if !slices.Equal(d.Cards, []int{3, 2, 1, 0}) {
		t.Errorf("reversed deck %v", d.Cards)
	}
}

func TestDeckShuffles(t *testing.T) {
	moved(t, func() []int { d := New(8); d.Shuffle(); return d.Cards })
}

func TestHand(t *testing.T) {
	h := NewHand()
	moved(t, func() []int { return h.Deal([]int{0, 1, 2, 3, 4, 5, 6, 7}) })
}

func TestOrder(t *testing.T) {
	moved(t, func() []int { return Order(8) })
}

func TestMix(t *testing.T) {
	moved(t, func() []int {
		xs := []int{0, 1, 2, 3, 4, 5, 6, 7}
		Mix(xs)
		return xs
	})
}
