package vetfail

import "testing"

func TestJitter(t *testing.T) {
	if x := Jitter(10); x < 0 {
		t.Logf("%d", "negative") // vet: wrong verb for a string
		t.Fail()
	}
}
