package proportion

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBalanced(t *testing.T) {
	const total = 100
	conns := make([]*Conn, 0, total)
	for i := 0; i < total; i++ {
		conns = append(conns, Connect())
	}
	var n1, n2 int
	for _, c := range conns {
		switch c.Server {
		case 0:
			n1++
		case 1:
			n2++
		}
	}
	if n1 < 35 || n1 > 65 { // want `hand-sized tolerance: TestBalanced counts in n1 how often a random outcome happens in 100 trials and fails when the count is at most 34 or at least 66 \(n1 < 35\): .*at the rate 0.5 the limits are centred on, correct code fails it with probability 0.00179 \(sizing.BinomialTail, both tails\); .*sizing.BinomialTail\(n1, 100, p\).*spread.Check\(t, xs, spread.OneOf`
		t.Fatalf("not balanced: %d and %d", n1, n2)
	}
}

func TestConflictRate(t *testing.T) {
	conflicts := 0
	for round := 0; round < 1000; round++ {
		if Timeouts() > 1 {
			conflicts++
		}
	}
	assert.LessOrEqual(t, float64(conflicts)/1000, 0.3) // want `hand-sized tolerance: TestConflictRate counts in conflicts how often a random outcome happens in 1000 trials and fails when the count is at least 301 \(assert.LessOrEqual\(t, float64\(conflicts\)/1000, 0.3\)\): .*correct code fails it more often than once in 1e9 runs when its true rate is above 0.2[0-9]+ \(P\(count >= 301\) = 1e-9 there`
}

func TestRareEnough(t *testing.T) {
	const rounds = 200
	hits := 0
	for range rounds {
		if Pick() == 0 {
			hits += 1
		}
	}
	if float64(hits)/rounds < 0.4 { // want `hand-sized tolerance: TestRareEnough counts in hits .* in 200 trials and fails when the count is at most 79 .*when its true rate is below 0.[0-9]+ \(P\(count <= 79\) = 1e-9 there`
		t.Errorf("too few: %d", hits)
	}
}

func TestInDelta(t *testing.T) {
	hits := 0
	for range 100 {
		if Pick() == 1 {
			hits++
		}
	}
	assert.InDelta(t, 0.5, float64(hits)/100, 0.1) // want `hand-sized tolerance: TestInDelta counts in hits .* fails when the count is at most 39 or at least 61 .*centred on`
}

// Not flagged: a count of a deterministic outcome, a count that must equal the trials, an
// unconditional count, a count only logged, a limit derived from a call, and a count in a
// loop whose passes are not known.
func TestNotFlagged(t *testing.T) {
	ok := 0
	for range 100 {
		if Status() == 200 {
			ok++
		}
	}
	if ok < 90 {
		t.Fatal("deterministic outcome")
	}
	seen := 0
	for range 100 {
		if Pick() < 2 {
			seen++
		}
	}
	if seen != 100 {
		t.Fatal("every pick in range")
	}
	all := 0
	for range 100 {
		Pick()
		all++
	}
	if all < 50 {
		t.Fatal("unconditional")
	}
	logged := 0
	for range 100 {
		if Pick() == 0 {
			logged++
		}
	}
	if logged < 40 {
		t.Logf("only %d", logged)
	}
	derived := 0
	for range 100 {
		if Pick() == 0 {
			derived++
		}
	}
	if derived < limit(100) {
		t.Fatal("derived")
	}
	unknown := 0
	for i := 0; i < len(t.Name()); i++ {
		if Pick() == 0 {
			unknown++
		}
	}
	if unknown < 3 {
		t.Fatal("unknown trials")
	}
}

func limit(n int) int { return n / 3 }

// datadog-go's TestShouldSample: one subtest a rate of a table (1.0 among them, which no
// count fails), each counting kept events over a local number of trials against a typed band.
func TestSampleRates(t *testing.T) {
	rates := []float64{0.1, 0.5, 1.0}
	iterations := 10000
	for _, rate := range rates {
		rate := rate
		t.Run("rate", func(t *testing.T) {
			count := 0
			for i := 0; i < iterations; i++ {
				if Sample(rate) {
					count++
				}
			}
			assert.InDelta(t, rate, float64(count)/float64(iterations), 0.01) // want `hand-sized tolerance: TestSampleRates counts in count how often a random outcome happens in 10000 trials, for each of 3 rates of a table, .*correct code fails one of them with probability 0.0474 .*0.0466 at the worst rate, 0.5\)`
		})
	}
}

// The same band sized wide enough that no rate of the table fails it by chance: not flagged.
func TestSampleRatesWide(t *testing.T) {
	rates := []float64{0.1, 0.5}
	for _, rate := range rates {
		count := 0
		for i := 0; i < 10000; i++ {
			if Sample(rate) {
				count++
			}
		}
		assert.InDelta(t, rate, float64(count)/10000, 0.1)
	}
}
