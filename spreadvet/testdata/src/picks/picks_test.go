package picks_test

import (
	"math/rand/v2"
	"picks"
	"picks/slice"
	"slices"
	"sync"
	"testing"
)

func findIn(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestNameInList(t *testing.T) {
	n := picks.Name() // want `blind test: TestNameInList draws picks.Name 2 times and checks only that the result is in a collection \(findIn\(picks.Names, n\)\), so a constant pick \(the first element every time\) passes it; check that every element turns up, as often as it should: xs := spread.Draw\(1000, func\(\) int \{ return slices.Index\(picks.Names, picks.Name\(\)\) \}\); spread.Check\(t, xs, spread.Uniform\(0, len\(picks.Names\)\)\)`
	if !findIn(picks.Names, n) {
		t.Error(n)
	}
	if !slices.Contains(picks.Names, picks.Name()) {
		t.Error("not a name")
	}
}

func TestNamesInSet(t *testing.T) {
	set := map[string]bool{"ann": true, "bob": true, "cid": true}
	for range 100 {
		n := picks.Name() // want `blind test: TestNamesInSet draws picks.Name 100 times and checks only that the result is in a collection and is not empty \(n == "", set\[n\]\)`
		if n == "" {
			t.Fatal("empty")
		}
		if _, ok := set[n]; !ok {
			t.Fatal(n)
		}
	}
}

func TestNameNotEmpty(t *testing.T) {
	if picks.Name() == "" { // want `blind test: TestNameNotEmpty draws picks.Name once and checks only that the result is not empty \(picks.Name\(\) == ""\), so a constant passes it; check what it draws: seed the source and compare the result exactly`
		t.Error("empty")
	}
}

// A membership check and a count of each pick: a distribution check.
func TestNameCounts(t *testing.T) {
	counts := map[string]int{}
	for range 300 {
		n := picks.Name()
		if !slices.Contains(picks.Names, n) {
			t.Fatal(n)
		}
		counts[n]++
	}
	if len(counts) != 3 {
		t.Fatal(counts)
	}
}

// A membership check and an exact comparison with a seeded expectation.
func TestNameSeeded(t *testing.T) {
	n := picks.NameFrom(rand.New(rand.NewPCG(1, 2)))
	if !slices.Contains(picks.Names, n) || n != "bob" {
		t.Fatal(n)
	}
}

// A seeded pick compared exactly.
func TestNameFromSeed(t *testing.T) {
	if got := picks.NameFrom(rand.New(rand.NewPCG(1, 2))); got != "bob" {
		t.Fatal(got)
	}
}

// A fixed name is no pick.
func TestFirst(t *testing.T) {
	if !slices.Contains(picks.Names, picks.First()) {
		t.Fatal("not a name")
	}
}

// Two picks compared with each other: a chance verdict's matter, not this rule's.
func TestTwoNames(t *testing.T) {
	a, b := picks.Name(), picks.Name()
	if a == "" || a == b {
		t.Log(a, b)
	}
}

// A pick checked to be empty is checked exactly.
func TestNameEmpty(t *testing.T) {
	if n := picks.Name(); n != "" {
		t.Log(n)
	}
}

// An error checked for nil is the outcome of a call that draws, not a pick: before errors
// were left out, this was "checks only that the result is not empty (err == nil)".
func TestSend(t *testing.T) {
	for range 10 {
		if err := picks.Send(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSendFails is the shape nats.go's TestParserShouldFail has: an error required.
func TestSendFails(t *testing.T) {
	if err := picks.Send(); err == nil {
		t.Error("sent to a busy server")
	}
}

// The response is made, not picked: a nil check tells whether the request got through.
func TestDoResponds(t *testing.T) {
	resp := picks.Do()
	if resp == nil {
		t.Fatal("no response")
	}
}

// A server picked at random and checked only for being there: any constant server passes.
func TestPickServer(t *testing.T) {
	s := picks.PickServer() // want `blind test: TestPickServer draws picks.PickServer once and checks only that the result is not empty`
	if s == nil {
		t.Fatal("no server")
	}
}

// The check is written over two lines; the message quotes it on one.
func TestNameSplit(t *testing.T) {
	s := picks.Name() // want `blind test: TestNameSplit draws picks.Name once and checks only that the result is not empty \(s == ""\), so`
	if s ==
		"" {
		t.Fatal("no name")
	}
}

// A pick checked with the module's own membership helper from another package.
func TestNameInModuleList(t *testing.T) {
	n := picks.Name() // want `blind test: TestNameInModuleList draws picks.Name once and checks only that the result is in a collection \(slice.Contains\(picks.Names, n\)\)`
	if !slice.Contains(picks.Names, n) {
		t.Fatal(n)
	}
}

// Where the pick is in the list is more than membership.
func TestNameIndex(t *testing.T) {
	n := picks.Name()
	if slice.Index(picks.Names, n) != 0 {
		t.Skip("not the first")
	}
}

// Picks stored in a two-deep slice, a row per goroutine, then checked only for their count and
// for being non-empty (golang-petname's TestConcurrentGenerators).
func TestRowsOfNames(t *testing.T) {
	results := make([][]string, 4)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			results[id] = make([]string, 10)
			for j := 0; j < 10; j++ {
				results[id][j] = picks.Name() // want `blind test: TestRowsOfNames draws picks.Name 10 times and checks only that the result is not empty \(name == ""\)`
			}
		}(i)
	}
	wg.Wait()
	for i, res := range results {
		if len(res) != 10 {
			t.Errorf("row %d: %d names", i, len(res))
		}
		for _, name := range res {
			if name == "" {
				t.Error("empty")
			}
		}
	}
}

// Stored picks read by index and checked in a list: blind too.
func TestNamesByIndex(t *testing.T) {
	names := make([]string, 50)
	for i := range names {
		names[i] = picks.Name() // want `blind test: TestNamesByIndex draws picks.Name repeatedly and checks only that the result is in a collection \(slices.Contains\(picks.Names, names\[i\]\)\)`
	}
	for i := range names {
		if !slices.Contains(picks.Names, names[i]) {
			t.Fatal(names[i])
		}
	}
}

// Stored picks counted by value: a distribution check, not flagged.
func TestStoredNamesCounted(t *testing.T) {
	names := make([]string, 300)
	for i := range names {
		names[i] = picks.Name()
	}
	counts := map[string]int{}
	for _, n := range names {
		counts[n]++
	}
	if len(counts) != 3 {
		t.Fatal(counts)
	}
}

// Stored picks handed on whole: what is done with them is not in view, not flagged.
func TestStoredNamesHanded(t *testing.T) {
	names := make([]string, 10)
	for i := range names {
		names[i] = picks.Name()
		if names[i] == "" {
			t.Fatal("empty")
		}
	}
	checkAll(t, names)
}

func checkAll(t *testing.T, names []string) {
	t.Helper()
	if slices.Compact(slices.Clone(names))[0] == names[len(names)-1] {
		t.Log("same")
	}
}
