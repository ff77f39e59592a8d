package ids_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"ids"
)

// Each ID checked only for being valid (not zero): a constant non-zero ID passes.
func TestNewIDs(t *testing.T) {
	g := ids.New()
	for range 1000 {
		traceID, spanID := g.NewIDs() // want `blind test: TestNewIDs draws g.NewIDs 1000 times and checks only that it is valid \(traceID.IsValid\(\), spanID.IsValid\(\)\)`
		assert.True(t, traceID.IsValid(), "trace id", traceID)
		assert.True(t, spanID.IsValid(), "span id", spanID)
	}
}

func TestNewSpanIDOnce(t *testing.T) {
	g := ids.New()
	s := g.NewSpanID() // want `blind test: TestNewSpanIDOnce draws g.NewSpanID once and checks only that it is not empty \(s == \(ids.SpanID\{\}\)\)`
	if s == (ids.SpanID{}) {
		t.Fatal("zero span ID")
	}
}

// The halves of a wide ID, each checked for being non-zero.
func TestWideHalves(t *testing.T) {
	g := ids.New()
	w := g.NewWide() // want `blind test: TestWideHalves draws g.NewWide once and checks only that it is not empty \(w.Empty\(\), w.Low == 0, w.High == 0\)`
	if w.Empty() {
		t.Fatal("empty")
	}
	if w.Low == 0 {
		t.Fatal("low half zero")
	}
	if w.High == 0 {
		t.Fatal("high half zero")
	}
}

// Two IDs required to differ: a chance verdict's matter (2^-64 here), no check of form only.
func TestSpanIDsDiffer(t *testing.T) {
	g := ids.New()
	a, b := g.NewSpanID(), g.NewSpanID()
	if a == b {
		t.Fatal("same span ID twice")
	}
}

// The ID's bytes are used: more than its form.
func TestSpanIDBytes(t *testing.T) {
	g := ids.New()
	s := g.NewSpanID()
	var ones int
	for _, b := range s {
		for ; b != 0; b &= b - 1 {
			ones++
		}
	}
	if ones == 0 || ones == 64 {
		t.Fatal(ones)
	}
}

// A field required to be zero is checked exactly.
func TestWideHighZero(t *testing.T) {
	g := ids.New()
	w := g.NewWide()
	if w.High != 0 {
		t.Skip("high half set")
	}
}

// gocql's TestRandomUUID: only the bits the form fixes are checked, in a loop of draws.
func TestNewUUIDForm(t *testing.T) {
	for i := 0; i < 20; i++ {
		u := ids.NewUUID() // want `blind test: TestNewUUIDForm draws ids.NewUUID 20 times and checks only the bits its form fixes \(v != 2, version != 4\)`
		if v := u.Variant(); v != 2 {
			t.Errorf("variant %d", v)
		}
		if version := u.Version(); version != 4 {
			t.Errorf("version %d", version)
		}
	}
}

// gofrs/uuid's Basic10M: each accessor paired with the value it should have.
func TestNewUUIDPairs(t *testing.T) {
	for range 100 {
		u := ids.NewUUID() // want `blind test: TestNewUUIDPairs draws ids.NewUUID 100 times and checks only the bits its form fixes \(got != want\)`
		if got, want := u.Version(), 4; got != want {
			t.Errorf("version %d, want %d", got, want)
		}
		if got, want := u.Variant(), 2; got != want {
			t.Errorf("variant %d, want %d", got, want)
		}
	}
}

// The accessor compared with another draw's: more than the form, not flagged.
func TestNewUUIDPairsDrawn(t *testing.T) {
	for range 100 {
		u := ids.NewUUID()
		if got, want := u.Version(), ids.NewUUID().Version(); got != want {
			t.Errorf("version %d, want %d", got, want)
		}
	}
}

// One UUID's accessors checked: a test of the accessors.
func TestNewUUIDAccessors(t *testing.T) {
	u := ids.NewUUID()
	if u.Version() != 4 {
		t.Fatal("not version 4")
	}
}

// An accessor's result used otherwise: more than the form.
func TestNewUUIDVersions(t *testing.T) {
	seen := map[int]bool{}
	for range 20 {
		u := ids.NewUUID()
		seen[u.Version()] = true
	}
	if len(seen) != 1 {
		t.Fatal(seen)
	}
}

// zipkin-go's TestRandom128: the halves checked for being non-zero, and the root span's ID,
// which the package makes from the trace ID, compared with the half it is made of.
func TestWideRoot(t *testing.T) {
	var (
		root uint64
		g    = ids.New()
		w    = g.NewWide() // want `blind test: TestWideRoot draws g.NewWide once and checks only that it survives a round trip and that it is not empty \(w.Low == 0, w.High == 0, want != have\)`
	)
	if w.Low == 0 {
		t.Error("low half zero")
	}
	if w.High == 0 {
		t.Error("high half zero")
	}
	root = ids.RootSpan(w)
	if want, have := w.Low, root; want != have {
		t.Errorf("root span %d, want %d", have, want)
	}
}

// The package's result from the ID is pinned to a constant: more than the ID's form.
func TestWideRootConstant(t *testing.T) {
	g := ids.New()
	w := g.NewWide()
	if w.Low == 0 {
		t.Error("low half zero")
	}
	if ids.RootSpan(w) != 7 {
		t.Skip("not seven")
	}
}

// ulid's TestMonotonic: each ID checked only to come after the one before; a step of 1 passes.
func TestMonoOrder(t *testing.T) {
	g := ids.New()
	var prev ids.Mono
	for range 1000 {
		next := g.NextMono() // want `blind test: TestMonoOrder draws g.NextMono 1000 times and checks only its order after the one before \(prev.Compare\(next\) >= 0\)`
		if prev.Compare(next) >= 0 {
			t.Fatalf("%v then %v", prev, next)
		}
		prev = next
	}
}

// The IDs are also kept in a set: more than their order.
func TestMonoKept(t *testing.T) {
	g := ids.New()
	var prev ids.Mono
	seen := map[ids.Mono]int{}
	for i := range 1000 {
		next := g.NextMono()
		if prev.Compare(next) >= 0 {
			t.Fatalf("%v then %v", prev, next)
		}
		prev = next
		seen[prev] = i
	}
}

// go-colorful's TestColorValidity: every colour checked only for being in gamut.
func TestWarmColorValid(t *testing.T) {
	for range 100 {
		if c := ids.WarmColor(); !c.IsValid() { // want `blind test: TestWarmColorValid draws ids.WarmColor 100 times and checks only that it is valid \(c.IsValid\(\)\)`
			t.Errorf("%v out of gamut", c)
		}
	}
}

// zipkin-go's TestRandom64: the half the generator never draws checked to be zero, the ID
// for not being empty: a constant passes.
func TestNarrowHalves(t *testing.T) {
	var (
		g = ids.NewNarrow()
		w = g.Wide() // want `blind test: TestNarrowHalves draws g.Wide once and checks only that it is not empty \(w.Empty\(\), w.Low == 0\)`
	)
	if w.Empty() {
		t.Error("empty")
	}
	if want, have := uint64(0), w.High; want != have {
		t.Errorf("high half %d, want %d", have, want)
	}
	if w.Low == 0 {
		t.Error("low half zero")
	}
}

// The same check of a half the generator draws is exact: no check of form.
func TestFullHighZero(t *testing.T) {
	g := ids.NewFull()
	w := g.Wide()
	if w.Empty() {
		t.Error("empty")
	}
	if want, have := uint64(0), w.High; want != have {
		t.Skip("high half set")
	}
}

// zipkin-go's TestRandomTimeStamped: the IDs kept in a slice, the high bits of each checked
// only to come after the one before's: constant random bits pass.
func TestStampedOrder(t *testing.T) {
	g := ids.New()
	var ws []ids.Wide
	for range 1000 {
		ws = append(ws, g.NewStamped()) // want `blind test: TestStampedOrder draws g.NewStamped 1000 times and checks only its order after the one before \(newVal < oldVal\)`
	}
	var latest uint64
	for i, w := range ws {
		if newVal, oldVal := w.High>>32, latest; newVal < oldVal {
			t.Errorf("[%d] %d after %d", i, newVal, oldVal)
		}
		latest = w.High >> 32
	}
}

// IDs whose high halves hold a counter, checked for their order: the counter orders them, so
// the test is one of the counter (google/uuid's TestVersion7Monotonicity), not flagged.
func TestCountedOrder(t *testing.T) {
	g := ids.New()
	var ws []ids.Wide
	for range 1000 {
		ws = append(ws, g.NewCounted())
	}
	var latest uint64
	for i, w := range ws {
		if newVal, oldVal := w.High>>32, latest; newVal < oldVal {
			t.Errorf("[%d] %d after %d", i, newVal, oldVal)
		}
		latest = w.High >> 32
	}
}

// The low halves are also used as keys: more than the order.
func TestStampedKept(t *testing.T) {
	g := ids.New()
	var ws []ids.Wide
	for range 1000 {
		ws = append(ws, g.NewStamped())
	}
	var latest uint64
	lows := map[uint64]int{}
	for i, w := range ws {
		if w.High>>32 < latest {
			t.Errorf("[%d] out of order", i)
		}
		latest = w.High >> 32
		lows[w.Low] = i
	}
}

// A bit of the high half compared exactly: more than the order.
func TestStampedTopBit(t *testing.T) {
	g := ids.New()
	var ws []ids.Wide
	for range 1000 {
		ws = append(ws, g.NewStamped())
	}
	for _, w := range ws {
		if w.High>>63 != 0 {
			t.Error("top bit set")
		}
	}
}
