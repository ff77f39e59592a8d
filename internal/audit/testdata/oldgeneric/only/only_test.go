package only

import "testing"

func TestSlot(t *testing.T) {
	for i := 0; i < 100; i++ {
		if s := Slot(int32(10)); s < 0 || s >= 10 {
			t.Fatalf("Slot(10) = %d", s)
		}
	}
}
