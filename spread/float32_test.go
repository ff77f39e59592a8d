package spread

import "testing"

// TestFloat32JitterReachesHi pins what docs/checks.md says of a jitter computed in float32: of the
// 2^24 values r.Float32() draws, k/2^24, this many make lo + w*u round up to hi, outside
// [lo, hi) (none for a range from 0). It counts them all. The product is converted to float32
// so that no architecture fuses the multiply and the add (arm64 may, which rounds once and can
// change the count), as amd64 never does.
func TestFloat32JitterReachesHi(t *testing.T) {
	for _, c := range []struct {
		lo, w float32
		want  int
	}{
		{0, 1, 0},
		{1, 1, 1},
		{1.5, 0.5, 2},
		{100, 50, 3},
	} {
		hi, n := c.lo+c.w, 0
		for k := range 1 << 24 {
			if c.lo+float32(c.w*(float32(k)/(1<<24))) >= hi {
				n++
			}
		}
		if n != c.want {
			t.Errorf("[%v, %v): %d of the 2^24 values of Float32 give hi, want %d", c.lo, hi, n, c.want)
		}
	}
}
