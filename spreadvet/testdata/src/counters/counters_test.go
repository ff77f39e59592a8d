package counters

import (
	"sync"
	"testing"
	"time"
)

// Distinct IDs only: the sequence keeps them apart with a constant prefix.
func TestUnique(t *testing.T) {
	n := New()
	seen := map[string]struct{}{}
	for range 100000 {
		id := n.Next()
		if _, ok := seen[id]; ok { // want `blind test: TestUnique checks that 100000 results of n.Next differ \(_, ok := seen\[id\]\), which its counter \(n.seq\) keeps true with every draw constant; check what it draws: the spread of its characters over many calls: xs := spread.Draw\(1000, func\(\) int \{ return strings.IndexRune\(<alphabet>, \[\]rune\(n.Next\(\)\)\[0\]\) \}\)`
			t.Fatalf("duplicate %s", id)
		}
		seen[id] = struct{}{}
	}
}

// Distinct texts of V7 IDs: the rising time keeps them apart.
func TestV7Unique(t *testing.T) {
	seen := map[string]bool{}
	for x := 1; x < 128; x++ {
		id := V7()
		s := id.String()
		if seen[s] { // want `blind test: TestV7Unique checks that 127 results of V7 differ`
			t.Errorf("duplicate %s", s)
		}
		seen[s] = true
	}
}

// Tokens with no counter in them: their repeats are a chance verdict's matter, not flagged
// here.
func TestTokensUnique(t *testing.T) {
	var tk Tokens
	seen := map[string]bool{}
	for range 1000 {
		s := tk.Token()
		if seen[s] {
			t.Fatal(s)
		}
		seen[s] = true
	}
}

// The same, written the other way round: new IDs kept, a repeat failing in the else branch
// (shortid's form).
func TestUniqueElse(t *testing.T) {
	n := New()
	ids := map[string]struct{}{}
	for i := 0; i < 1000; i++ {
		id := n.Next()
		if _, ok := ids[id]; !ok { // want `blind test: TestUniqueElse checks that 1000 results of n.Next differ`
			ids[id] = struct{}{}
		} else {
			t.Errorf("duplicate %s", id)
		}
	}
}

// IDs made in goroutines, kept as keys, and only counted: the sequence makes them all
// distinct (shortid's concurrent test).
func TestUniqueCount(t *testing.T) {
	n := New()
	ids := map[string]struct{}{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				id := n.Next()
				mu.Lock()
				ids[id] = struct{}{}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(ids) != 3000 { // want `blind test: TestUniqueCount checks that 1000 results of n.Next differ \(len\(ids\) != 3000\), which its counter \(n.seq\) keeps true`
		t.Errorf("%d unique IDs", len(ids))
	}
}

// The map is ranged over before its size is checked: other uses of it are read past.
func TestUniqueRanged(t *testing.T) {
	n := New()
	ids := map[string]bool{}
	for i := 0; i < 100; i++ {
		id := n.Next()
		ids[id] = true
	}
	for id := range ids {
		if id == "" {
			t.Fatal("empty")
		}
	}
	if len(ids) != 100 { // want `blind test: TestUniqueRanged checks that 100 results of n.Next differ`
		t.Fatal(len(ids))
	}
}

// Two IDs of a function with a counter required to differ: the counter keeps them apart.
func TestV1Pair(t *testing.T) {
	c := NewClock()
	a, b := c.V1(), c.V1()
	if a == b { // want `blind test: TestV1Pair checks that 2 results of c.V1 differ \(a == b\), which its counter \(c.seq\) keeps true with every draw constant; check what it draws: seed the source and compare the result exactly, or draw many and check the spread of what it is made from with spread.Check`
		t.Fatal("equal")
	}
}

// The same with a clock that stands still: the test sets the counter to work on purpose,
// not flagged (gofrs/uuid's StaleEpoch).
func TestV1Stale(t *testing.T) {
	c := &Clock{now: func() time.Time { return time.Unix(0, 0) }}
	a, b := c.V1(), c.V1()
	if a == b {
		t.Fatal("equal")
	}
}

// V6 leaves the sequence out: two IDs equal by chance only, 2^-64, not flagged.
func TestV6Pair(t *testing.T) {
	c := NewClock()
	if c.V6() == c.V6() {
		t.Fatal("equal")
	}
}

// gofrs/uuid's testNewV1DifferentAcrossCalls: the package function, through the interface.
func TestDefaultPair(t *testing.T) {
	a, b := DefaultV1(), DefaultV1()
	if a == b { // want `blind test: TestDefaultPair checks that 2 results of DefaultV1 differ`
		t.Fatal("equal")
	}
}

// The same check in a subtest and in a goroutine: named by the test.
func TestUniqueNested(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		n := New()
		seen := map[string]bool{}
		for range 100 {
			id := n.Next()
			if seen[id] { // want `blind test: TestUniqueNested checks that 100 results of n.Next differ \(seen\[id\]\)`
				t.Fatal(id)
			}
			seen[id] = true
		}
	})
	done := make(chan bool)
	go func() {
		defer close(done)
		n := New()
		seen := map[string]bool{}
		for range 100 {
			id := n.Next()
			if seen[id] { // want `blind test: TestUniqueNested checks that 100 results of n.Next differ \(seen\[id\]\)`
				t.Error(id)
			}
			seen[id] = true
		}
	}()
	<-done
}
