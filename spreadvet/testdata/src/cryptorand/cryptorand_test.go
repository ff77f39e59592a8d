package cryptorand

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const alphabet = "_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// go-nanoid's TestGenerate: the length and the alphabet only.
func TestGenerate(t *testing.T) {
	id, err := Generate(alphabet, 10) // want `blind test: TestGenerate draws Generate once and checks only the length and the characters of the string \(assert.Len\(t, id, 10\), strings.ContainsRune\(alphabet, r\)\), so a constant string of the right length passes it; check the spread of the characters: xs := spread.Draw\(1000, func\(\) int \{ s, err := Generate\(alphabet, 10\); if err != nil \{ t.Fatal\(err\) \}; return strings.IndexRune\(alphabet, \[\]rune\(s\)\[0\]\) \}\)`
	assert.True(t, err == nil)
	assert.Len(t, id, 10)
	for _, r := range id {
		assert.True(t, strings.ContainsRune(alphabet, r))
	}
}

// uniuri's TestNewLen: the length only.
func TestNewLen(t *testing.T) {
	for i := 0; i < 100; i++ {
		u := NewLen(10) // want `blind test: TestNewLen draws NewLen 100 times and checks only the length of the strings \(len\(u\) != 10\), so`
		if len(u) != 10 {
			t.Fatalf("wrong length: expected %d, got %d", 10, len(u))
		}
	}
}

func TestFullID(t *testing.T) {
	s, err := FullID() // want `blind test: TestFullID draws FullID once and checks only the length of the string \(len\(s\) != 32\)`
	if err != nil || len(s) != 32 {
		t.Fatal(s, err)
	}
}

func TestReaderAndMath(t *testing.T) {
	a := ReaderID() // want `blind test: TestReaderAndMath draws ReaderID once and checks only the length of the string`
	b := MathID()   // want `blind test: TestReaderAndMath draws MathID once and checks only the length of the string`
	if len(a) != 16 || len(b) != 16 {
		t.Fatal(a, b)
	}
}

func TestToken(t *testing.T) {
	for range 10 {
		s := Token() // want `blind test: TestToken draws Token 10 times and checks only the characters of the strings \(strings.ContainsRune\(alphabet, c\)\)`
		for _, c := range s {
			if !strings.ContainsRune(alphabet, c) {
				t.Fatal(s)
			}
		}
	}
}

// A crypto/rand wait checked only against its bounds is as blind as a math/rand one.
func TestJitterErr(t *testing.T) {
	for range 100 {
		d, err := JitterErr(time.Second) // want `blind test: TestJitterErr draws JitterErr 100 times and checks only their bounds \(err != nil \|\| d < 0 \|\| d >= time.Second\), so a constant or a collapsed range passes it; check the spread: xs := spread.Draw\(100, func\(\) time.Duration \{ v, err := JitterErr\(time.Second\); if err != nil \{ t.Fatal\(err\) \}; return v \}\)`
		if err != nil || d < 0 || d >= time.Second {
			t.Fatal(d, err)
		}
	}
}

// An ID decoded or compared with an expected value is tested for more than its shape.
func TestIDUsed(t *testing.T) {
	s, err := FullID()
	if err != nil {
		t.Fatal(err)
	}
	if Hex([]byte(s)) == s {
		t.Fatal(s)
	}
	if h := Hex([]byte("ab")); len(h) != 4 {
		t.Fatal(h)
	}
}

// A []byte's characters reach strings.IndexRune through a string.
func TestRawKey(t *testing.T) {
	k := RawKey(12) // want `blind test: TestRawKey draws RawKey once and checks only the length and the characters of the string \(len\(k\) != 12, strings.IndexByte\(StdChars, c\)\).*func\(\) int \{ return strings.IndexRune\(StdChars, \[\]rune\(string\(RawKey\(12\)\)\)\[0\]\) \}`
	if len(k) != 12 {
		t.Fatal(k)
	}
	for _, c := range k {
		if strings.IndexByte(StdChars, c) < 0 {
			t.Fatal(k)
		}
	}
}

// Collisions of crypto/rand text: 62^-20 is below the threshold, and a hex ID's chance is
// not read from its body: no verdict on either.
func TestIDsDiffer(t *testing.T) {
	if NewLen(20) == NewLen(20) {
		t.Fatal("same ID twice")
	}
	if ReaderID() == ReaderID() {
		t.Fatal("same ID twice")
	}
	a, b := Token(), Token()
	if a == b {
		t.Fatal("same token twice")
	}
}

// Two IDs of 3 characters over 62 collide with chance 62^-3.
func TestShortIDsDiffer(t *testing.T) {
	assert.NotEqual(t, NewLen(3), NewLen(3)) // want `chance verdict: TestShortIDsDiffer fails when two draws of NewLen are equal .*with probability 4.2e-06`
}

// Nanoids whose alphabet and size are constants of the call: 64^-2 is a verdict, 64^-21 none.
func TestNanoidsDiffer(t *testing.T) {
	a, err := Generate(alphabet, 2)
	b, _ := Generate(alphabet, 2)
	if err != nil || a == b { // want `chance verdict: TestNanoidsDiffer fails when two draws of Generate are equal \(a == b\), which a correct Generate does with probability 0.000244`
		t.Fatal("same ID twice")
	}
	c, _ := Generate(alphabet, 21)
	d, _ := Generate(alphabet, 21)
	if c == d {
		t.Fatal("same ID twice")
	}
}

// Shapes the body does not give: no chance, so no verdict on random text.
func TestPrefixedDiffer(t *testing.T) {
	if Prefixed("a", 1) == Prefixed("a", 1) || Appended(1) == Appended(1) {
		t.Fatal("same ID twice")
	}
}

// hashicorp/raft's TestNewSeed: 1000 seeds of 63 bits must differ; the chance of a number
// made of crypto/rand bytes cannot be read, and is negligible: no verdict.
func TestNewSeed(t *testing.T) {
	vals := make(map[int64]bool)
	for i := 0; i < 1000; i++ {
		seed := NewSeed()
		if _, exists := vals[seed]; exists {
			t.Fatal("newSeed() return a value it'd previously returned")
		}
		vals[seed] = true
	}
	if Seed() == Seed() {
		t.Fatal("same seed twice")
	}
}

// uniuri v1.2.0's TestNewLen: NewLen is two wrappers from its draw.
func TestUniNewLen(t *testing.T) {
	for i := 0; i < 100; i++ {
		u := UniNewLen(i) // want `blind test: TestUniNewLen draws UniNewLen 100 times, with an argument that changes on each pass \(i\), and checks only the length of the strings \(len\(u\) != i\)`
		if len(u) != i {
			t.Fatalf("request length %d, got %d", i, len(u))
		}
	}
}

// Through uniuri's two wrappers: 62^-3.
func TestUniShortDiffer(t *testing.T) {
	if UniNewLen(3) == UniNewLen(3) { // want `chance verdict: TestUniShortDiffer fails when two draws of UniNewLen are equal .*with probability 4.2e-06`
		t.Fatal("same ID twice")
	}
}

// go-nanoid v1.4.0's TestStandard: the generator is the first of (generator, error), and
// its ID is checked for its length only.
func TestStandard(t *testing.T) {
	f, err := Standard(21)
	assert.True(t, err == nil)
	id := f() // want `blind test: TestStandard draws f once and checks only the length of the string \(assert.Len\(t, id, 21\)\)`
	assert.Len(t, id, 21)
}

// A generator from (func() T, error) drawing waits checked against bounds alone.
func TestWaits(t *testing.T) {
	next, err := Waits(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		if d := next(); d < 0 || d >= time.Second { // want `blind test: TestWaits draws next 100 times and checks only their bounds \(d < 0 \|\| d >= time.Second\)`
			t.Fatal(d)
		}
	}
}

// A func from (func() string, error) that draws nothing is no random text.
func TestFixed(t *testing.T) {
	f, err := Fixed("abc")
	if err != nil {
		t.Fatal(err)
	}
	if s := f(); len(s) != 3 {
		t.Fatal(s)
	}
}

// The generator's IDs compared with each other test more than their shape.
func TestStandardDiffer(t *testing.T) {
	f, err := Standard(21)
	assert.True(t, err == nil)
	seen := map[string]bool{}
	for range 100 {
		seen[f()] = true
	}
	assert.Len(t, seen, 100)
}

// testify's Regexp on a random string: its shape alone.
func TestNewLenRegexp(t *testing.T) {
	u := NewLen(10) // want `blind test: TestNewLenRegexp draws NewLen once and checks only the characters of the string \(assert.Regexp\(t, "\^\[A-Za-z0-9\]\+\$", u\)\)`
	assert.Regexp(t, "^[A-Za-z0-9]+$", u)
}

// go-nanoid v1.4.0's TestCollisions: a map of the IDs seen, checked with require.False.
func TestBufferedCollisions(t *testing.T) {
	tries := 100_000
	used := make(map[string]bool)
	f, err := Buffered(6)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < tries; i++ {
		id := f()
		require.False(t, used[id], "shouldn't be any colliding IDs") // want `chance verdict: TestBufferedCollisions fails when one of 100000 draws of f repeats an earlier one \(used\[id\]\), which a correct f does with probability 0.0702`
		used[id] = true
	}
}

// The same check written as an if: longer IDs, a chance below 1e-9, no verdict.
func TestBufferedCollisionsLong(t *testing.T) {
	used := map[string]bool{}
	f, _ := Buffered(21)
	for range 1000 {
		id := f()
		if used[id] {
			t.Fatal("collision")
		}
		used[id] = true
	}
}

// The same map read, with the IDs of a short generator: a verdict.
func TestBufferedShortIf(t *testing.T) {
	used := map[string]bool{}
	f, _ := Buffered(3)
	for range 100 {
		id := f()
		if used[id] { // want `chance verdict: TestBufferedShortIf fails when one of 100 draws of f repeats an earlier one \(used\[id\]\).*; test the spread instead, sized from a false-failure rate: xs := spread.Draw\(1000, func\(\) int \{ return strings.IndexRune\(<alphabet>, \[\]rune\(f\(\)\)\[0\]\) \}\); spread.Check\(t, xs, spread.Uniform\(0, len\(<alphabet>\)\)\)`
			t.Fatal("collision")
		}
		used[id] = true
	}
}

// go-faker's TestDigit: the bytes of a package reader that holds crypto/rand.Reader, checked
// only against a regexp.
func TestSourceHex(t *testing.T) {
	s := SourceHex() // want `blind test: TestSourceHex draws SourceHex once and checks only the characters of the string \(regexp.MatchString\("\^\[0-9a-f\]\{32\}\$", s\)\)`
	if ok, _ := regexp.MatchString("^[0-9a-f]{32}$", s); !ok {
		t.Fatal(s)
	}
}

// The same check of a reader the code also gives fixed bytes: no draw.
func TestPinnedHex(t *testing.T) {
	s := PinnedHex()
	if ok, _ := regexp.MatchString("^[0-9a-f]{32}$", s); !ok {
		t.Fatal(s)
	}
}

// gofrs/uuid's makeTestNewV4Basic: a test func a function returns for t.Run, whose IDs from a
// field that holds crypto/rand.Reader are checked only for a fixed byte.
func makeTestFieldBasic() func(t *testing.T) {
	return func(t *testing.T) {
		g := NewGen()
		for range 100 {
			u := g.NewV4() // want `blind test: makeTestFieldBasic draws g.NewV4 100 times and checks only`
			if u == [16]byte{} {
				t.Fatal("zero")
			}
		}
	}
}

func TestField(t *testing.T) { t.Run("Basic", makeTestFieldBasic()) }

// A reader a literal sets without its key: not read as a source of draws, not flagged.
func TestFixedField(t *testing.T) {
	f := NewUnkeyed()
	for range 100 {
		if f.Read16() == [16]byte{} {
			t.Log("zero")
		}
	}
}

// Two IDs of 16 crypto/rand bytes, through an interface, required to differ: their chance of
// being equal is 2^-128, no verdict of chance (gofrs's testNewV4DifferentAcrossCalls).
func TestDefaultDiffers(t *testing.T) {
	if DefaultV4() == DefaultV4() {
		t.Fatal("equal")
	}
}

// The same pair through the value a random constructor returned: still 2^-128, no verdict.
func TestDrawnDiffers(t *testing.T) {
	g := NewDrawn()
	if g.NewV4() == g.NewV4() {
		t.Fatal("equal")
	}
}
