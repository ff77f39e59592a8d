package generators

import (
	"testing"
	"time"
)

// rehttp's TestExpJitterDelay: the delays of the func Delay returns, checked against bounds.
func TestDelay(t *testing.T) {
	fn := Delay(time.Second)
	for i := 0; i < 5; i++ {
		d := fn(i) // want `blind test: TestDelay draws fn 5 times, with an argument that changes on each pass \(i\), and checks only their bounds`
		if d < 0 || d >= time.Second<<i {
			t.Fatal(d)
		}
	}
}

// rehttp's TestExpJitterDelayWithRand: the same with a fixed generator, which draws nothing:
// not flagged.
func TestDelayWith(t *testing.T) {
	fn := DelayWith(time.Second, func(n int64) int64 { return n / 2 })
	for i := 0; i < 5; i++ {
		d := fn(i)
		if d < 0 || d >= time.Second<<i {
			t.Fatal(d)
		}
	}
}
