package hang

import "testing"

func TestAttempts(t *testing.T) {
	if k := Attempts(4); k < 1 {
		t.Errorf("Attempts(4) = %d", k)
	}
}
