package sizing

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestRepeatsLimitReference(t *testing.T) {
	// testdata/reference-values.md: (W, n, m*, P(R >= m*)) at alpha = 1e-9.
	for _, c := range []struct {
		w    float64
		n, m int
		p    float64
	}{
		{1e9, 1000, 3, 2.1e-11}, {5e8, 1000, 3, 1.7e-10}, {1e6, 1000, 10, 1.5e-10},
		{1e4, 1000, 92, 8.6e-10}, {100, 100, 56, 5.4e-10}, {10, 30, 26, 2.4e-10},
	} {
		m, method, err := RepeatsLimit(c.w, c.n, 1e-9)
		if err != nil || m != c.m || !strings.HasPrefix(method, "exact") {
			t.Errorf("RepeatsLimit(%g, %d, 1e-9) = %d, %q, %v; want %d, exact", c.w, c.n, m, method, err, c.m)
		}
		p, _, _ := RepeatsTail(c.w, c.n, c.m)
		if math.Abs(p-c.p) > 0.05*c.p {
			t.Errorf("RepeatsTail(%g, %d, %d) = %.3g, want %.2g", c.w, c.n, c.m, p, c.p)
		}
	}
}

// repeatsCounts enumerates all w^n samples and counts them by their number of repeats.
func repeatsCounts(w, n int) []float64 {
	counts := make([]float64, n)
	seen := make([]int, w)
	everySample(w, n, func(x []int) {
		clear(seen)
		d := 0
		for _, v := range x {
			if seen[v] == 0 {
				d++
			}
			seen[v]++
		}
		counts[n-d]++
	})
	return counts
}

func TestRepeatsTailEnumeration(t *testing.T) {
	for _, c := range [][2]int{{2, 1}, {2, 10}, {3, 8}, {5, 7}, {10, 5}, {30, 4}, {7, 6}} {
		w, n := c[0], c[1]
		counts := repeatsCounts(w, n)
		total := math.Pow(float64(w), float64(n))
		var tail float64
		for m := n - 1; m >= 1; m-- {
			tail += counts[m]
			p, method, err := RepeatsTail(float64(w), n, m)
			if err != nil || math.Abs(p-tail/total) > 1e-12*tail/total {
				t.Errorf("RepeatsTail(%d, %d, %d) = %.15g (%s), %v; enumeration %.15g", w, n, m, p, method, err, tail/total)
			}
		}
	}
}

// occupancyTail returns P(R >= m) from the occupancy distribution
// P(D = d) = C(w, d) S(n, d) d! / w^n, in exact rationals (S: Stirling numbers of the second kind).
func occupancyTail(w, n, m int) float64 {
	s := make([]*big.Int, n+1) // row of S(i, .), updated in place
	for d := range s {
		s[d] = new(big.Int)
	}
	s[0].SetInt64(1)
	tmp := new(big.Int)
	for i := 1; i <= n; i++ {
		for d := i; d >= 1; d-- { // S(i,d) = d S(i-1,d) + S(i-1,d-1)
			s[d].Mul(s[d], big.NewInt(int64(d)))
			s[d].Add(s[d], s[d-1])
		}
		s[0].SetInt64(0)
	}
	num := new(big.Int)
	for d := 1; d <= n-m; d++ { // R >= m means D <= n-m
		// C(w, d) d! = w!/(w-d)!
		tmp.MulRange(int64(w-d+1), int64(w))
		tmp.Mul(tmp, s[d])
		num.Add(num, tmp)
	}
	den := new(big.Int).Exp(big.NewInt(int64(w)), big.NewInt(int64(n)), nil)
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

func TestRepeatsTailOccupancy(t *testing.T) {
	for _, c := range [][3]int{{100, 100, 56}, {10, 30, 26}, {365, 60, 10}, {365, 60, 25}, {1000, 200, 40}, {50, 300, 260}} {
		w, n, m := c[0], c[1], c[2]
		want := occupancyTail(w, n, m)
		got, _, _ := RepeatsTail(float64(w), n, m)
		if math.Abs(got-want) > 1e-11*want {
			t.Errorf("RepeatsTail(%d, %d, %d) = %.15g, occupancy formula %.15g", w, n, m, got, want)
		}
	}
}

// TestRepeatsBoundsHold checks every bound against the exact tail wherever the dynamic program
// is cheap, and that the bound limit is never below the exact one.
func TestRepeatsBoundsHold(t *testing.T) {
	for _, w := range []float64{2, 10, 100, 1e4, 1e6, 1e9, 1 << 53} {
		for _, n := range []int{2, 10, 100, 1000, 3000} {
			maxM := n - 1
			if float64(n)*float64(maxM) > 4e6 {
				maxM = int(4e6) / n
			}
			tail := repeatsTailDP(w, n, maxM)
			for _, b := range repeatsBounds(w, n) {
				for m := 1; m < maxM && tail[m] > 1e-300; m++ {
					if l := b.logTail(m); l < math.Log(tail[m])-1e-9 {
						t.Fatalf("w = %g, n = %d: %s gives P(R >= %d) <= %g, exact %g", w, n, b.name, m, math.Exp(l), tail[m])
					}
				}
			}
			for _, alpha := range []float64{1e-12, 1e-9, 1e-3} {
				la := math.Log(alpha)
				if float64(n-1)*-math.Log(w) > la {
					continue // too small
				}
				bm, _ := repeatsBoundLimit(w, n, la)
				if bm < maxM && tail[bm] > alpha {
					t.Errorf("w = %g, n = %d, alpha = %g: bound limit %d has exact P = %g", w, n, alpha, bm, tail[bm])
				}
			}
		}
	}
}

// TestRepeatsBoundLimitLarge runs the exact dynamic program past its budget, where
// RepeatsLimit uses the bounds, and checks that they are valid there and within a few repeats.
func TestRepeatsBoundLimitLarge(t *testing.T) {
	for _, c := range []struct {
		w          float64
		n, exactM  int
		boundSlack int
	}{{1e9, 3e5, 92, 4}, {1e6, 3e4, 576, 20}, {1e12, 1e6, 10, 1}} {
		m, method, err := RepeatsLimit(c.w, c.n, 1e-9)
		if err != nil || strings.HasPrefix(method, "exact") {
			t.Fatalf("RepeatsLimit(%g, %d): %q, %v; want a bound", c.w, c.n, method, err)
		}
		tail := repeatsTailDP(c.w, c.n, m)
		if tail[m] > 1e-9 || tail[c.exactM] > 1e-9 || tail[c.exactM-1] <= 1e-9 {
			t.Errorf("w = %g, n = %d: exact limit is not %d", c.w, c.n, c.exactM)
		}
		if m < c.exactM || m > c.exactM+c.boundSlack {
			t.Errorf("RepeatsLimit(%g, %d) = %d (%s), exact %d", c.w, c.n, m, method, c.exactM)
		}
	}
}

// TestRepeatsLimitSimulation counts repeats in seeded samples: the check fails about as often
// as the exact tail says, and no more often than alpha.
func TestRepeatsLimitSimulation(t *testing.T) {
	const w, n, alpha, trials = 1000, 100, 0.01, 20000
	m, _, err := RepeatsLimit(w, n, alpha)
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := RepeatsTail(w, n, m)
	r := rand.New(rand.NewPCG(5, 6))
	seen := make([]bool, w)
	fails := 0
	for range trials {
		clear(seen)
		rep := 0
		for range n {
			v := r.IntN(w)
			if seen[v] {
				rep++
			}
			seen[v] = true
		}
		if rep >= m {
			fails++
		}
	}
	sd := math.Sqrt(p * (1 - p) / trials)
	if got := float64(fails) / trials; math.Abs(got-p) > 4.5*sd || p > alpha {
		t.Errorf("R >= %d in %.4f of runs; exact P = %.4f, alpha = %g", m, got, p, alpha)
	}
}

func TestRepeatsLimitLarge(t *testing.T) {
	for _, c := range []struct {
		w float64
		n int
	}{{1 << 53, 1e7}, {1e12, 1e7}, {1e9, 1e6}, {1e4, 1e6}, {2, 1e7}, {1e6, 1e7}} {
		m, method, err := RepeatsLimit(c.w, c.n, 1e-9)
		if err != nil {
			t.Fatalf("RepeatsLimit(%g, %d): %v", c.w, c.n, err)
		}
		nf := float64(c.n)
		er := nf + c.w*math.Expm1(nf*math.Log1p(-1/c.w))
		if float64(m) <= er || m > c.n-1 {
			t.Errorf("RepeatsLimit(%g, %d) = %d (%s), E[R] = %g", c.w, c.n, m, method, er)
		}
		t.Logf("RepeatsLimit(%g, %d, 1e-9) = %d, E[R] = %.4g, %s", c.w, c.n, m, er, method)
	}
}

func TestRepeatsLimitTooSmall(t *testing.T) {
	for _, c := range []struct {
		w          float64
		n, wantErr int
	}{{10, 9, 10}, {2, 30, 31}, {1e9, 1, 2}} {
		_, _, err := RepeatsLimit(c.w, c.n, 1e-9)
		var e *TooSmallError
		if !errors.As(err, &e) || e.Need != c.wantErr || e.N != c.n {
			t.Errorf("RepeatsLimit(%g, %d, 1e-9): %v; want TooSmallError with Need %d", c.w, c.n, err, c.wantErr)
			continue
		}
		if _, _, err := RepeatsLimit(c.w, e.Need, 1e-9); err != nil {
			t.Errorf("RepeatsLimit(%g, Need = %d): %v", c.w, e.Need, err)
		}
	}
}

func TestRepeatsErrors(t *testing.T) {
	var e *InputError
	for _, w := range []float64{1, 0, -3, 0.5, math.NaN(), math.Inf(1)} {
		if _, _, err := RepeatsLimit(w, 10, 0.01); !errors.As(err, &e) {
			t.Errorf("RepeatsLimit(%v, 10, 0.01): %v, want an *InputError", w, err)
		}
		if _, _, err := RepeatsTail(w, 10, 2); !errors.As(err, &e) {
			t.Errorf("RepeatsTail(%v, 10, 2): %v, want an *InputError", w, err)
		}
	}
	if _, _, err := RepeatsLimit(10, 0, 0.01); err == nil {
		t.Error("RepeatsLimit(10, 0, 0.01): no error")
	}
	if _, _, err := RepeatsTail(10, 0, 1); err == nil {
		t.Error("RepeatsTail(10, 0, 1): no error")
	}
	for _, a := range []float64{0, 1, math.NaN()} {
		if _, _, err := RepeatsLimit(10, 10, a); err == nil {
			t.Errorf("RepeatsLimit(10, 10, %v): no error", a)
		}
	}
	if p, _, _ := RepeatsTail(10, 5, 0); p != 1 {
		t.Errorf("RepeatsTail(10, 5, 0) = %g, want 1", p)
	}
	if p, _, _ := RepeatsTail(10, 5, 5); p != 0 {
		t.Errorf("RepeatsTail(10, 5, 5) = %g, want 0", p)
	}
}

// TestRepeatsUnequalProbabilities checks the claim of RepeatsLimit for a w that is not whole:
// for draws whose values each have probability at most 1/w, the tail it computes bounds the
// true one. The true tails come from enumerating every sample of a few unequal distributions.
func TestRepeatsUnequalProbabilities(t *testing.T) {
	for _, ps := range [][]float64{
		{0.4, 0.4, 0.2},      // w = 2.5
		{0.3, 0.3, 0.3, 0.1}, // w = 3.33
		{0.25, 0.25, 0.25, 0.125, 0.125},
		{0.5, 0.25, 0.125, 0.125}, // w = 2: one heavy value
	} {
		w := 1 / slices.Max(ps)
		for n := 2; n <= 7; n++ {
			exact := repeatsEnumerate(ps, n)
			for m := 1; m < n; m++ {
				bound, method, err := RepeatsTail(w, n, m)
				if err != nil || bound < exact[m]*(1-1e-12) {
					t.Errorf("p = %v, n = %d: P(R >= %d) = %g, above the bound %g (%s, %v)", ps, n, m, exact[m], bound, method, err)
				}
			}
		}
	}
}

// repeatsEnumerate returns P(R >= m), m = 0..n, for n draws from the probabilities ps, by
// listing every sample.
func repeatsEnumerate(ps []float64, n int) []float64 {
	tail := make([]float64, n+1)
	x := make([]int, n)
	for {
		p, seen := 1.0, map[int]bool{}
		for _, v := range x {
			p *= ps[v]
			seen[v] = true
		}
		for m := 0; m <= n-len(seen); m++ {
			tail[m] += p
		}
		i := 0
		for i < n && x[i] == len(ps)-1 {
			x[i] = 0
			i++
		}
		if i == n {
			return tail
		}
		x[i]++
	}
}

func TestRepeatsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := math.Floor(math.Exp(rapid.Float64Range(math.Log(2), math.Log(1e15)).Draw(t, "logw")))
		n := rapid.IntRange(1, 1e6).Draw(t, "n")
		alpha := rapid.Float64Range(1e-12, 0.4).Draw(t, "alpha")
		m, _, err := RepeatsLimit(w, n, alpha)
		if err != nil {
			var e *TooSmallError
			if !errors.As(err, &e) || e.Need <= n {
				t.Fatalf("RepeatsLimit(%g, %d, %g): %v", w, n, alpha, err)
			}
			return
		}
		if m < 1 || m > n-1 {
			t.Fatalf("RepeatsLimit(%g, %d, %g) = %d", w, n, alpha, m)
		}
		// More draws, more repeats; more values, fewer; a larger alpha, a lower limit.
		if m2, _, err := RepeatsLimit(w, n+1, alpha); err != nil || m2 < m {
			t.Fatalf("RepeatsLimit(%g, %d+1, %g) = %d, %v < %d", w, n, alpha, m2, err, m)
		}
		if m2, _, err := RepeatsLimit(w*2, n, alpha); err == nil && m2 > m {
			t.Fatalf("RepeatsLimit(%g*2, %d, %g) = %d > %d", w, n, alpha, m2, m)
		}
		if m2, _, err := RepeatsLimit(w, n, alpha*2); err != nil || m2 > m {
			t.Fatalf("RepeatsLimit(%g, %d, %g*2) = %d, %v > %d", w, n, alpha, m2, err, m)
		}
	})
}

func TestRepeatsNeverPanics(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Float64().Draw(t, "w")
		n := rapid.IntRange(-5, 1e7).Draw(t, "n")
		alpha := rapid.Float64().Draw(t, "alpha")
		_, _, _ = RepeatsLimit(w, n, alpha)
		_, _, _ = RepeatsTail(w, n, rapid.IntRange(-5, n+5).Draw(t, "m"))
	})
}

// The benchmarks bypass the cache: they measure the first call for each (w, n, alpha).
// w = 2^53, n = 6e5 is about the most expensive exact case.
func BenchmarkRepeatsLimit(b *testing.B) {
	for _, c := range []struct {
		w float64
		n int
	}{{1e9, 1e3}, {1e4, 1e3}, {1e9, 1e6}, {1 << 53, 1e6}, {1 << 53, 1e7}, {1e4, 1e6}, {1 << 53, 6e5}} {
		b.Run(fmt.Sprintf("w=%g/n=%d", c.w, c.n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = repeatsLimit(c.w, c.n, 1e-9)
			}
		})
	}
}

func BenchmarkRepeatsLimitCached(b *testing.B) {
	for b.Loop() {
		_, _, _ = RepeatsLimit(1e9, 1000, 1e-9)
	}
}
