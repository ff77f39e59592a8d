package spreadvet

import (
	"bytes"
	"encoding/gob"
	"testing"
)

// TestPolyEncodingDeterministic: a fact's encoding must not change from one encoding to the
// next (the analysis driver checks it and panics), and a poly of several monomials is a map.
func TestPolyEncodingDeterministic(t *testing.T) {
	f := &randomFunc{Via: "rand.Float64", Dist: &uniform{Lo: poly{"$0": 1}, Hi: poly{"$0": 1, "$0*$1": 1, "$2": 3, "": 0.5}}}
	var first []byte
	for i := range 50 {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(f); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = buf.Bytes()
		} else if !bytes.Equal(buf.Bytes(), first) {
			t.Fatalf("encoding %d differs from the first", i)
		}
	}
	var back randomFunc
	if err := gob.NewDecoder(bytes.NewReader(first)).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if back.String() != f.String() {
		t.Errorf("decoded %v, want %v", &back, f)
	}
}
