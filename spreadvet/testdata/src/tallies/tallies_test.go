package tallies

import (
	"math"
	mrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBias is github.com/dchest/uniuri v1.2.0's TestBias: 100,000 letters of 26, each count
// within 5% of the average (measured: 113 failures in 3000 runs, 3.8%).
func TestBias(t *testing.T) {
	chars := []byte("abcdefghijklmnopqrstuvwxyz")
	slen := 100000
	s := NewLenChars(slen, chars)
	counts := make(map[rune]int)
	for _, b := range s {
		counts[b]++
	}
	avg := float64(slen) / float64(len(chars))
	for k, n := range counts {
		diff := float64(n) / avg
		if diff < 0.95 || diff > 1.05 { // want `hand-sized tolerance: TestBias counts in counts how often each of 26 outcomes happens in 100000 trials and fails when a count is at most 3653 or at least 4039 \(diff < 0.95\): each count is binomial \(n = 100000, p = 1/26\) and leaves that band with probability 0.00155 \(sizing.BinomialTail, both tails\), so correct code fails the test with probability at most 0.0403 \(the union bound over the 26 counts, an upper bound\); .*spread.Check\(t, xs, spread.OneOf.*sizing.Bonferroni\(alpha, 26\)`
			t.Errorf("Possible bias on '%c': expected average %f, got %d", k, avg, n)
		}
	}
}

// TestFlatDistribution is github.com/matoous/go-nanoid/v2 v2.1.0's: 1e6 letters of 10 drawn
// from crypto/rand, each count within 1% of 100,000 (measured: 0.70% of runs fail).
func TestFlatDistribution(t *testing.T) {
	tries := 100_000
	alphabet := "abcdefghij"
	size := 10
	chars := make(map[rune]int)
	for i := 0; i < tries; i++ {
		id := MustGenerate(alphabet, size)
		for _, r := range id {
			chars[r]++
		}
	}

	for _, count := range chars {
		require.InEpsilon(t, size*tries/len(alphabet), count, .01, "should have flat distribution") // want `hand-sized tolerance: TestFlatDistribution counts in chars how often each of 10 outcomes happens in 1000000 trials and fails when a count is at most 98999 or at least 101001 .*p = 1/10\) and leaves that band with probability 0.000853 .*at most 0.00853 \(the union bound over the 10 counts, an upper bound\)`
	}
}

// TestLetters counts into an array, by an index computed from each character.
func TestLetters(t *testing.T) {
	var counts [26]int
	s := NewLenChars(26000, []byte("abcdefghijklmnopqrstuvwxyz"))
	for _, b := range s {
		counts[b-'a'] += 1
	}
	expected := 1000.0
	for _, c := range counts {
		if math.Abs(float64(c)-expected) > expected*0.1 { // want `hand-sized tolerance: TestLetters counts in counts how often each of 26 outcomes happens in 26000 trials and fails when a count is at most 899 or at least 1101 .*union bound over the 26 counts`
			t.Fatalf("count %d", c)
		}
	}
}

// TestPicks counts random picks into a slice of 10.
func TestPicks(t *testing.T) {
	counts := make([]int, 10)
	for range 10000 {
		counts[Pick()]++
	}
	for _, c := range counts {
		assert.InDelta(t, 1000, c, 100) // want `hand-sized tolerance: TestPicks counts in counts how often each of 10 outcomes happens in 10000 trials and fails when a count is at most 899 or at least 1101 .*union bound over the 10 counts`
	}
}

// TestServers counts into a map literal, by a local drawn in the loop: the number of
// outcomes comes from the expectation the band is centred on.
func TestServers(t *testing.T) {
	hits := map[int]int{}
	for range 10000 {
		s := Pick()
		hits[s] += 1
	}
	for s, c := range hits {
		if c < 900 || c > 1100 { // want `hand-sized tolerance: TestServers counts in hits how often each of 10 outcomes happens in 10000 trials and fails when a count is at most 899 or at least 1101 \(c < 900\): each count is binomial \(n = 10000, p = 1/10\) .*both tails`
			t.Errorf("server %d: %d", s, c)
		}
	}
}

// TestFloor has a lower limit only, on a slice of 10: one tail.
func TestFloor(t *testing.T) {
	picks := make([]int, 10)
	for range 10000 {
		picks[Pick()]++
	}
	for _, c := range picks {
		if c < 900 { // want `hand-sized tolerance: TestFloor counts in picks how often each of 10 outcomes happens in 10000 trials and fails when a count is at most 899 \(c < 900\): each count is binomial \(n = 10000, p = 1/10\) and leaves that band with probability 0.000[0-9]+ \(sizing.BinomialTail, one tail\)`
			t.Errorf("low: %d", c)
		}
	}
}

// Not flagged: a band so wide that correct code fails it less often than once in 1e9 runs,
// a tally of a deterministic outcome, tallies checked exactly (their total, their number),
// a count only logged, and a band derived from a call.
func TestNotFlagged(t *testing.T) {
	wide := map[byte]int{}
	for range 10000 {
		wide[byte(Pick())]++
	}
	for _, c := range wide {
		if c < 500 || c > 1500 {
			t.Fatal("far outside")
		}
	}
	turns := make([]int, 10)
	for i := range 10000 {
		turns[Next(i)]++
	}
	for _, c := range turns {
		if c < 950 || c > 1050 {
			t.Fatal("turns")
		}
	}
	exact := make(map[int]int)
	for range 1000 {
		exact[Pick()]++
	}
	total := 0
	for _, c := range exact {
		total += c
	}
	if total != 1000 || len(exact) > 10 {
		t.Fatal("exact")
	}
	logged := make([]int, 10)
	for range 10000 {
		logged[Pick()]++
	}
	for _, c := range logged {
		if c < 950 {
			t.Logf("low: %d", c)
		}
	}
	derived := make([]int, 10)
	for range 10000 {
		derived[Pick()]++
	}
	for _, c := range derived {
		if float64(c) < band(10000, 10) {
			t.Fatal("derived")
		}
	}
}

func band(n, k int) float64 { return float64(n) / float64(k) / 2 }

// TestEpsilon checks a single tally with InEpsilon: a band of epsilon*expected.
func TestEpsilon(t *testing.T) {
	hits := 0
	for range 100 {
		if Pick() < 5 {
			hits++
		}
	}
	assert.InEpsilon(t, 50, hits, 0.2) // want `hand-sized tolerance: TestEpsilon counts in hits how often a random outcome happens in 100 trials and fails when the count is at most 39 or at least 61 .*centred on`
}

// TestPicksFrom counts picks drawn from a source seeded with a constant, in three ways: the
// counts are the same in every run, so the band cannot fail by chance (libp2p's
// TestFullJitter). The same band over an unseeded source is flagged.
func TestPicksFrom(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(1, 2))
	counts := make([]int, 10)
	for range 10000 {
		counts[PickFrom(rng)]++
	}
	for _, c := range counts {
		assert.InDelta(t, 1000, c, 100)
	}
	seeded := make([]int, 10)
	for range 10000 {
		seeded[PickFrom(mrand.New(mrand.NewChaCha8([32]byte{7})))]++
	}
	for _, c := range seeded {
		assert.InDelta(t, 1000, c, 100)
	}
	src := mrand.NewPCG(3, 4)
	again := make([]int, 10)
	for range 10000 {
		again[PickFrom(mrand.New(src))]++
	}
	for _, c := range again {
		assert.InDelta(t, 1000, c, 100)
	}
	fresh := make([]int, 10)
	for range 10000 {
		fresh[PickFrom(mrand.New(mrand.NewPCG(mrand.Uint64(), 2)))]++
	}
	for _, c := range fresh {
		assert.InDelta(t, 1000, c, 100) // want `hand-sized tolerance: TestPicksFrom counts in fresh how often each of 10 outcomes happens in 10000 trials`
	}
}
