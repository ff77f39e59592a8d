package reduced

import (
	"math/rand"
	"testing"
)

// TestBucketCovers sees every bucket in 1,000 draws.
func TestBucketCovers(t *testing.T) {
	seen := map[uint32]bool{}
	for range 1000 {
		seen[Bucket()] = true
	}
	if len(seen) != 16 {
		t.Errorf("%d of 16 buckets seen", len(seen))
	}
}

// TestShardCovers sees every shard in 1,000 draws.
func TestShardCovers(t *testing.T) {
	seen := map[int]bool{}
	for range 1000 {
		seen[Shard()] = true
	}
	if len(seen) != 16 {
		t.Errorf("%d of 16 shards seen", len(seen))
	}
}

// TestMaskedRange checks the range of Masked and Widened.
func TestMaskedRange(t *testing.T) {
	for range 100 {
		if m, w := Masked(), Widened(); m < 0 || m > 0xff || w < 0 || w >= 1024 {
			t.Fatalf("Masked() = %d, Widened() = %d", m, w)
		}
	}
	_ = Low16()
}

// TestCoinFair sees heads between 400 and 600 times in 1,000 tosses.
func TestCoinFair(t *testing.T) {
	heads := 0
	for range 1000 {
		if Coin() {
			heads++
		}
	}
	if heads < 400 || heads > 600 {
		t.Errorf("%d heads in 1,000", heads)
	}
}

// TestOffsetRange checks the range only.
func TestOffsetRange(t *testing.T) {
	if o := Offset(10); o < 0 || o >= 10 {
		t.Errorf("Offset(10) = %d", o)
	}
}

// TestSampledRate sees Sampled true between 800 and 1,200 times in 10,000 calls (its mean is
// 1,000, its standard deviation 30).
func TestSampledRate(t *testing.T) {
	c := &cache{rand: rand.New(rand.NewSource(rand.Int63()))}
	n := 0
	for range 10000 {
		if c.Sampled() {
			n++
		}
	}
	if n < 800 || n > 1200 {
		t.Errorf("Sampled true %d times in 10,000", n)
	}
}

// TestPicked only calls Picked.
func TestPicked(t *testing.T) {
	_ = Picked()
}
