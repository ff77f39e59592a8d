package nonce

import (
	"bytes"
	"testing"
)

// TestFillFake checks Fill with a fake reader of fixed bytes: it says nothing of any
// randomness, and kills no mutant of token's sites.
func TestFillFake(t *testing.T) {
	b := make([]byte, 4)
	if err := Fill(bytes.NewReader([]byte{1, 2, 3, 4}), b); err != nil || !bytes.Equal(b, []byte{1, 2, 3, 4}) {
		t.Errorf("Fill = %v, %v", b, err)
	}
}

// TestSealerFake checks Nonce with a fake reader.
func TestSealerFake(t *testing.T) {
	s := NewSealer(bytes.NewReader(make([]byte, 12)))
	if got := s.Nonce(); !bytes.Equal(got, make([]byte, 12)) {
		t.Errorf("Nonce() = %x", got)
	}
}
