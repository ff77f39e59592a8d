package laterruns

import "testing"

// TestPeers registers its group, as groupcache's TestPeers does, so that it panics when it
// runs a second time in one process; then it sees shard 0 between 800 and 1,200 times in
// 10,000 picks (its mean is 1,000, its standard deviation 30) and every shard in range.
func TestPeers(t *testing.T) {
	Register("TestPeers-group")
	zeros := 0
	for range 10000 {
		v := Pick()
		if v < 0 || v >= 10 {
			t.Fatalf("Pick() = %d", v)
		}
		if v == 0 {
			zeros++
		}
	}
	if zeros < 800 || zeros > 1200 {
		t.Errorf("shard 0 picked %d times in 10,000", zeros)
	}
}

// TestPickOnce and TestPickTwice only call Pick.
func TestPickOnce(t *testing.T) { _ = Pick() }

func TestPickTwice(t *testing.T) { _, _ = Pick(), Pick() }
