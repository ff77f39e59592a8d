package chance

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestPicksDiffer(t *testing.T) {
	a, b := Pick(), Pick()
	if a == b { // want `chance verdict: TestPicksDiffer fails when two draws of Pick are equal \(a == b\), which a correct Pick does with probability 0.1 \(exact`
		t.Fatalf("picked %d twice", a)
	}
}

func TestPeersDiffer(t *testing.T) {
	peers := []string{"a", "b", "c"}
	assert.NotEqual(t, Peer(peers), Peer(peers)) // want `chance verdict: TestPeersDiffer fails when two draws of Peer are equal .* with a chance of 1/k for a function that picks one of k values evenly; .*seeded source`
}

func TestSamplesDiffer(t *testing.T) {
	peers := []string{"a", "b", "c", "d"}
	s1, s2 := Sample(2, peers), Sample(2, peers)
	if reflect.DeepEqual(s1, s2) { // want `chance verdict: TestSamplesDiffer fails when two draws of Sample are equal \(reflect.DeepEqual\(s1, s2\)\)`
		t.Fatal("same sample twice")
	}
}

func TestSleepSum(t *testing.T) {
	start := time.Now()
	for range 10 {
		time.Sleep(Wait())
	}
	if time.Since(start) > 160*time.Millisecond { // want `real-time verdict: TestSleepSum compares the wall-clock time time.Since\(start\) with 160\*time.Millisecond while Wait draws \(rand.N\) \(the 10 sleeps of Wait alone pass the limit with probability 0.139, exact \(Irwin-Hall, n = 10\), one-sided\).*testing/synctest`
		t.Fatal("too slow")
	}
}

// A sleep of a variable, not a call: no chance computed.
func TestSleepVariable(t *testing.T) {
	start := time.Now()
	d := 10 * time.Millisecond
	time.Sleep(d)
	Wait()
	if time.Since(start) > 50*time.Millisecond { // want `real-time verdict: TestSleepVariable compares the wall-clock time time.Since\(start\) with 50\*time.Millisecond while Wait draws \(rand.N\): the verdict`
		t.Fatal("too slow")
	}
}

func TestAfterTimer(t *testing.T) {
	select {
	case <-After():
	case <-time.After(15 * time.Millisecond): // want `real-time verdict: TestAfterTimer fails when the real timer time.After\(15 \* time.Millisecond\) fires first while After draws \(calls Wait\)`
		t.Fatal("no signal")
	}
}

func TestOffsetsDistinct(t *testing.T) {
	seen := map[int]bool{}
	for range 100 {
		off := Offset(2 << 30)
		if _, ok := seen[off]; ok { // want `chance verdict: TestOffsetsDistinct fails when one of 100 draws of Offset repeats an earlier one \(_, ok := seen\[off\]\), which a correct Offset does with probability 2.31e-06 \(exact`
			t.Fatal("collision")
		}
		seen[off] = true
	}
}

func TestRetryElapsed(t *testing.T) {
	start := time.Now()
	_ = Retry(3, RandomWait, func() error { return errFail })
	assert.Less(t, time.Since(start), 100*time.Millisecond) // want `real-time verdict: TestRetryElapsed compares the wall-clock time time.Since\(start\) with 100\*time.Millisecond while RandomWait draws`
}

// Not flagged: IDs from 2^63 values and fractions from 2^53 (collision chances far below
// 1e-9), picks required to be
// equal, elapsed time only logged, a timer in a test that draws nothing, and one pick
// compared with a fixed value.

func TestIDsDiffer(t *testing.T) {
	if a, b := ID(), ID(); a == b {
		t.Fatal("same ID twice")
	}
}

func TestFractionsDiffer(t *testing.T) {
	if a, b := Fraction(), Fraction(); a == b {
		t.Fatal("same fraction twice")
	}
}

func TestSamePick(t *testing.T) {
	a := Pick()
	if b := a; b != a {
		t.Fatal(a, b)
	}
}

func TestElapsedLogged(t *testing.T) {
	start := time.Now()
	time.Sleep(Wait())
	if el := time.Since(start); el > time.Second {
		t.Logf("slow: %v", el)
	}
}

func TestTimerNoDraw(t *testing.T) {
	done := make(chan struct{})
	close(done)
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("timeout")
	}
}

// Code that draws something other than a wait (an ID), raced against a timer: the timer is
// about the test's own work, not a draw.
func TestIDWithTimer(t *testing.T) {
	ids := make(chan int64, 1)
	go func() { ids <- ID() }()
	start := time.Now()
	select {
	case <-ids:
	case <-time.After(time.Second):
		t.Fatal("timeout")
	}
	if time.Since(start) > time.Second {
		t.Fatal("slow")
	}
}

func TestPickFixed(t *testing.T) {
	if Pick() == 10 {
		t.Fatal("out of range")
	}
}

var errFail = errors.New("fail")

// Two 32-character tokens over 62 letters are equal with chance 62^-32: no verdict.
func TestTokensDiffer(t *testing.T) {
	a, b := Token(32), Token(32)
	if a == b {
		t.Fatal("same token twice")
	}
	seen := map[string]bool{}
	for range 1000 {
		s := Token(32)
		if _, ok := seen[s]; ok {
			t.Fatal("repeat")
		}
		seen[s] = true
	}
}

// At 4 characters the chance is 62^-4, above the threshold.
func TestShortTokensDiffer(t *testing.T) {
	a, b := Token(4), Token(4)
	if a == b { // want `chance verdict: TestShortTokensDiffer fails when two draws of Token are equal \(a == b\), which a correct Token does with probability 6.77e-08 \(exact \(repeats among 2 draws from 1.478e\+07 values\), the characters uniform\); test the spread of its characters instead, sized from a false-failure rate: xs := spread.Draw\(1000, func\(\) int \{ return strings.IndexRune\(<alphabet>, \[\]rune\(Token\(4\)\)\[0\]\) \}\)`
		t.Fatal("same token twice")
	}
}

func TestBitsDiffer(t *testing.T) {
	if reflect.DeepEqual(Bits(10), Bits(10)) { // want `chance verdict: TestBitsDiffer fails when two draws of Bits are equal \(reflect.DeepEqual\(Bits\(10\), Bits\(10\)\)\), which a correct Bits does with probability 0.000977`
		t.Fatal("same bits twice")
	}
	seen := map[string]bool{}
	for range 100 {
		s := string(Bits(8))
		if _, ok := seen[s]; ok {
			t.Fatal("repeat")
		}
		seen[s] = true
	}
}

// A length the call does not fix leaves the chance unknown: no verdict on random text.
func TestTokenLengthUnknown(t *testing.T) {
	n := len(t.Name())
	if Token(n) == Token(n) {
		t.Fatal("same token twice")
	}
}

// TestNodesDiffer requires two random members to be different pointers: a pick among 3.
func TestNodesDiffer(t *testing.T) {
	if RandomNode() == RandomNode() { // want `chance verdict: TestNodesDiffer fails when two draws of RandomNode are equal \(RandomNode\(\) == RandomNode\(\)\)`
		t.Fatal("the same node twice")
	}
	a, b := Gossip(), Gossip()
	if a == b { // want `chance verdict: TestNodesDiffer fails when two draws of Gossip are equal \(a == b\), which a correct Gossip does with a chance of 1/k`
		t.Fatal("the same node twice")
	}
}

// TestPoolReplaces requires a second Get, the first connection held, to return another
// connection: the pool's logic decides it, not the jittered lifetime.
func TestPoolReplaces(t *testing.T) {
	var p Pool
	held := p.Get()
	if cn := p.Get(); cn == held {
		t.Fatal("Get returned the held connection")
	}
	first, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	if second, _ := p.Dial(); second == first {
		t.Fatal("Dial returned the held connection")
	}
	a, b := newConn(), newConn()
	if a == b {
		t.Fatal("two new connections are one")
	}
}

// TestPinnedPicksDiffer draws from a source seeded with constants: the same two picks in
// every run, so no chance verdict; the same test over a source seeded anew each run is one.
func TestPinnedPicksDiffer(t *testing.T) {
	pinned := rand.New(rand.NewPCG(1, 2))
	if a, b := PickFrom(pinned), PickFrom(pinned); a == b {
		t.Fatal("the same peer twice")
	}
	fresh := rand.New(rand.NewPCG(rand.Uint64(), 2))
	if a, b := PickFrom(fresh), PickFrom(fresh); a == b { // want `chance verdict: TestPinnedPicksDiffer fails when two draws of PickFrom are equal`
		t.Fatal("the same peer twice")
	}
}
