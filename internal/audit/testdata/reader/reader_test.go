package reader

import (
	"bytes"
	"slices"
	"testing"
)

// TestNoncesDiffer: 100 nonces, all different.
func TestNoncesDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		n, err := Nonce()
		if err != nil {
			t.Fatal(err)
		}
		seen[string(n)] = true
	}
	if len(seen) != 100 {
		t.Errorf("%d distinct nonces of 100", len(seen))
	}
}

// TestTokenLength checks the length only.
func TestTokenLength(t *testing.T) {
	if tok := Token(); len(tok) != 32 {
		t.Errorf("Token() = %q", tok)
	}
}

// TestSealLength checks the length only.
func TestSealLength(t *testing.T) {
	var b bytes.Buffer
	if err := Seal(&b); err != nil || b.Len() != 12 {
		t.Errorf("Seal: %d bytes, %v", b.Len(), err)
	}
}

// TestShuffleFake shuffles with a reader of zeros: a fixed order, whatever crypto/rand does.
func TestShuffleFake(t *testing.T) {
	s := &Shuffler{rand: bytes.NewReader(make([]byte, 1000))}
	xs := []int{0, 1, 2, 3}
	s.Shuffle(xs)
	if want := []int{1, 2, 3, 0}; !slices.Equal(xs, want) {
		t.Errorf("Shuffle with zeros = %v, want %v", xs, want)
	}
}

// TestShuffleVaries: 50 shuffles of ten values put at least 5 values first.
func TestShuffleVaries(t *testing.T) {
	s := NewShuffler()
	first := map[int]bool{}
	for range 50 {
		xs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
		s.Shuffle(xs)
		first[xs[0]] = true
	}
	if len(first) < 5 {
		t.Errorf("%d values came first in 50 shuffles", len(first))
	}
}

// TestIDTopBit: some of 100 IDs have the top bit set.
func TestIDTopBit(t *testing.T) {
	for range 100 {
		if ID() >= 1<<63 {
			return
		}
	}
	t.Error("no ID of 100 had its top bit set")
}

func TestKey(t *testing.T) {
	if k, err := Key(); err != nil || k.BitLen() != 64 {
		t.Errorf("Key() = %v, %v", k, err)
	}
}
