package clockrand

import (
	"math/rand"
	"testing"
	"time"
)

// A test that seeds its own source from the clock, and logs the seed to replay it: test
// code, not randomness in the code under test: the seeding is not flagged (its one draw of
// Jitter, checked only against 0, is blind).
func TestClockSeeded(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	c := &Client{rng: rand.New(rand.NewSource(time.Now().UnixNano()))}
	if d := time.Duration(r.Int63n(10)); d < 0 || c.Jitter(time.Second) < 0 { // want `blind test: TestClockSeeded draws c.Jitter once and checks only its bounds`
		t.Fatal(d)
	}
}
