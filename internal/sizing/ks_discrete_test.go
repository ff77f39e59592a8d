package sizing

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// ksIntNaive returns max over k in 0..w-2 of |C_k w - n (k+1)| for a sample from 0..w-1, by
// the definition: a loop over every cell.
func ksIntNaive(xs []int64, w int64) int64 {
	n := int64(len(xs))
	var best int64
	for k := int64(0); k <= w-2; k++ {
		var c int64
		for _, x := range xs {
			if x <= k {
				c++
			}
		}
		dev := c*w - n*(k+1)
		best = max(best, dev, -dev)
	}
	return best
}

// ksIntEnumerate returns the exact distribution of max_k |C_k w - n (k+1)| over all w^n
// equally likely samples: counts[m] of the total samples give deviation m.
func ksIntEnumerate(w, n int) (counts map[int64]int64, total float64) {
	counts = map[int64]int64{}
	xs := make([]int64, n)
	total = math.Pow(float64(w), float64(n))
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			counts[ksIntNaive(xs, int64(w))]++
			return
		}
		for v := range w {
			xs[i] = int64(v)
			rec(i + 1)
		}
	}
	rec(0)
	return counts, total
}

func TestKSIntDPMatchesEnumeration(t *testing.T) {
	for _, c := range []struct{ w, n int }{
		{2, 1}, {2, 7}, {3, 1}, {3, 2}, {3, 5}, {3, 10}, {3, 12}, {4, 8}, {5, 6}, {7, 5},
	} {
		dist, total := ksIntEnumerate(c.w, c.n)
		ms := make([]int64, 0, len(dist))
		for m := range dist {
			ms = append(ms, m)
		}
		slices.Sort(ms)
		dp := newKSIntDP(c.w, c.n)
		top := int64(c.n) * int64(c.w-1)
		for m := int64(0); m <= top+1; m++ {
			var count int64
			for _, v := range ms {
				if v >= m {
					count += dist[v]
				}
			}
			want := float64(count) / total
			got := dp.tail(m)
			if math.Abs(got-want) > 1e-13*max(want, 1e-300) && math.Abs(got-want) > 1e-300 {
				t.Errorf("w=%d n=%d: P(dev >= %d) = %.17g, want %.17g by enumeration", c.w, c.n, m, got, want)
			}
		}
	}
}

// KSCriticalUniformInt against enumeration: its d must split the samples exactly as the
// smallest d that meets alpha does, found by listing every outcome. The DP is exact and the
// lattice search finds that split, so this holds to the sample.
func TestKSCriticalUniformIntMatchesEnumeration(t *testing.T) {
	for _, c := range []struct{ w, n int }{{2, 8}, {3, 6}, {3, 10}, {3, 12}, {4, 8}, {6, 6}} {
		dist, total := ksIntEnumerate(c.w, c.n)
		ms := make([]int64, 0, len(dist))
		for m := range dist {
			ms = append(ms, m)
		}
		slices.Sort(ms)
		nw := float64(c.n * c.w)
		for _, alpha := range []float64{0.5, 0.2, 0.05, 0.01, 1e-3, 1e-4} {
			// The smallest attained m with P(dev >= m) <= alpha.
			want := int64(-1)
			var count int64
			for i := len(ms) - 1; i >= 0; i-- {
				count += dist[ms[i]]
				if float64(count)/total > alpha {
					break
				}
				want = ms[i]
			}
			d, method, err := KSCriticalUniformInt(uint64(c.w), c.n, alpha)
			if want < 0 {
				var tooSmall *TooSmallError
				if !errors.As(err, &tooSmall) {
					t.Errorf("w=%d n=%d alpha=%g: got %v, %v; want a TooSmallError", c.w, c.n, alpha, d, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			// Every attained m falls on the same side of d as of want.
			for _, m := range ms {
				if (float64(m)/nw >= d) != (m >= want) {
					t.Errorf("w=%d n=%d alpha=%g: d = %v (%s) splits the samples unlike the exact %d/%v", c.w, c.n, alpha, d, method, want, nw)
					break
				}
			}
		}
	}
}

// Seeded simulation at sizes where enumeration is out of reach: the fraction of samples with
// D >= d against the DP's tail, within 5 binomial standard deviations.
func TestKSUniformIntTailSimulated(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		w      int
		n      int
		alpha  float64
		trials int
	}{{3, 100, 0.05, 40_000}, {3, 1000, 0.01, 20_000}, {10, 100, 0.05, 40_000}, {10, 1000, 0.2, 20_000}} {
		d, method, err := KSCriticalUniformInt(uint64(c.w), c.n, c.alpha)
		if err != nil || !strings.HasPrefix(method, "exact") {
			t.Fatalf("KSCriticalUniformInt(%d, %d, %g) = %v, %q, %v", c.w, c.n, c.alpha, d, method, err)
		}
		m := int64(math.Round(d * float64(c.n*c.w)))
		p := newKSIntDP(c.w, c.n).tail(m)
		counts := make([]int, c.w)
		xs := make([]uint64, c.n)
		hits := 0
		for range c.trials {
			clear(counts)
			for range c.n {
				counts[r.IntN(c.w)]++
			}
			// The sorted sample, from the counts.
			i := 0
			for v, k := range counts {
				for range k {
					xs[i] = uint64(v)
					i++
				}
			}
			if must(KSStatisticUniformInt(xs, uint64(c.w))) >= d {
				hits++
			}
		}
		got := float64(hits) / float64(c.trials)
		sd := math.Sqrt(p * (1 - p) / float64(c.trials))
		if p > c.alpha || math.Abs(got-p) > 5*sd {
			t.Errorf("w=%d n=%d d=%v: simulated P(D >= d) = %.5f, DP %.5f (alpha %g, 5 sd = %.5f)", c.w, c.n, d, got, p, c.alpha, 5*sd)
		}
	}
}

func TestKSStatisticUniformIntMatchesDefinition(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Int64Range(1, 40).Draw(t, "w")
		xs := rapid.SliceOfN(rapid.Int64Range(0, w-1), 1, 50).Draw(t, "xs")
		unsorted := must(KSStatisticUniformInt(unsigned(xs), uint64(w)))
		slices.Sort(xs)
		got := must(KSStatisticUniformInt(unsigned(xs), uint64(w)))
		want := ksUniformIntValue(u128{lo: uint64(ksIntNaive(xs, w))}, len(xs), uint64(w))
		if got != want || got != unsorted {
			t.Fatalf("KSStatisticUniformInt(%v, %d) = %v (unsorted %v), want %v", xs, w, got, unsorted, want)
		}
	})
}

func TestKSStatisticUniformIntEdges(t *testing.T) {
	for _, c := range []struct {
		xs []uint64
		w  uint64
	}{{nil, 10}, {[]uint64{1}, 0}, {[]uint64{1<<64 - 1, 2}, 10}, {[]uint64{3, 10}, 10}} {
		var e *InputError
		if got, err := KSStatisticUniformInt(c.xs, c.w); !errors.As(err, &e) {
			t.Errorf("KSStatisticUniformInt(%v, %d) = %v, %v; want an *InputError", c.xs, c.w, got, err)
		}
	}
	for _, c := range []struct {
		xs   []uint64
		w    uint64
		want float64
	}{
		{[]uint64{0, 0, 0}, 1, 0},            // one value: no cell to compare
		{[]uint64{0, 0, 0, 0}, 4, 0.75},      // all in the first cell: 1 - 1/w
		{[]uint64{3, 3}, 4, 0.75},            // all in the last: 1 - 1/w
		{[]uint64{0, 1, 2, 3}, 4, 0},         // a perfect spread
		{[]uint64{0, 1, 1, 3}, 4, 0.25},      // C_1 = 3 against 2
		{[]uint64{5, 1 << 60}, 1 << 61, 0.5}, // |1/2 - 6/w| at 5, |1 - (2^60+1)/w| at 2^60
		// 2^64 - 1 cells: |1/2 - (2^63 - 1)/(2^64 - 1)| = 1/(2 (2^64 - 1)) at 2^63 - 2, exactly.
		{[]uint64{1<<63 - 2, 1<<64 - 2}, 1<<64 - 1, 0.5},
		{[]uint64{0, 1<<64 - 2}, 1<<64 - 1, 0.5},
	} {
		got, err := KSStatisticUniformInt(c.xs, c.w)
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("KSStatisticUniformInt(%v, %d) = %v, %v; want %v", c.xs, c.w, got, err, c.want)
		}
	}
}

// unsigned returns xs as uint64 values.
func unsigned(xs []int64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = uint64(x)
	}
	return out
}

func TestKSCriticalUniformIntBadInput(t *testing.T) {
	for _, c := range []struct {
		w     uint64
		n     int
		alpha float64
	}{{1, 10, 0.05}, {0, 10, 0.05}, {10, 0, 0.05}, {10, 10, 0}, {10, 10, 1}, {10, 10, math.NaN()}} {
		if _, _, err := KSCriticalUniformInt(c.w, c.n, c.alpha); err == nil {
			t.Errorf("KSCriticalUniformInt(%d, %d, %v): no error", c.w, c.n, c.alpha)
		}
	}
	// D reaches its largest value 1 - 1/w with probability 2 w^-n: 2 2^-30 > 1e-9 >= 2 2^-31.
	for _, c := range []struct {
		w    uint64
		n    int
		need int
	}{{2, 30, 31}, {10, 9, 10}, {1000, 3, 4}, {1 << 40, 1, 1}} {
		_, _, err := KSCriticalUniformInt(c.w, c.n, 1e-9)
		var tooSmall *TooSmallError
		switch {
		case c.n < c.need && (!errors.As(err, &tooSmall) || tooSmall.Need != c.need):
			t.Errorf("KSCriticalUniformInt(%d, %d, 1e-9) = %v, want a TooSmallError with Need %d", c.w, c.n, err, c.need)
		case c.n >= c.need && err != nil:
			t.Errorf("KSCriticalUniformInt(%d, %d, 1e-9): %v", c.w, c.n, err)
		}
		if c.n < c.need {
			if d, _, err := KSCriticalUniformInt(c.w, c.need, 1e-9); err != nil || d != 1-1/float64(c.w) && c.w < 1000 {
				t.Errorf("KSCriticalUniformInt(%d, %d, 1e-9) = %v, %v; want 1 - 1/w", c.w, c.need, d, err)
			}
		}
	}
}

// The discrete check fails wherever the continuous one does: its d is at most the first
// value of the lattice at or above the continuous d. And its d falls as alpha grows.
func TestKSCriticalUniformIntProperties(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		w := rapid.Uint64Range(2, 40).Draw(t, "w")
		n := rapid.IntRange(1, 300).Draw(t, "n")
		alpha := math.Pow(10, rapid.Float64Range(-12, -0.3).Draw(t, "log10 alpha"))
		d, method, err := KSCriticalUniformInt(w, n, alpha)
		if err != nil {
			var tooSmall *TooSmallError
			if !errors.As(err, &tooSmall) || n >= tooSmall.Need {
				t.Fatalf("KSCriticalUniformInt(%d, %d, %g): %v", w, n, alpha, err)
			}
			return
		}
		dc, _, _ := KSCritical(n, alpha)
		nw := float64(n) * float64(w)
		lattice := ksUniformIntValue(u128{lo: uint64(ksIntLatticeAtLeast(int64(math.Ceil(dc*nw*(1-1e-12))), n, int64(w)))}, n, w)
		if d > max(dc, lattice) {
			t.Fatalf("w=%d n=%d alpha=%g: d = %v (%s) above the continuous %v (next lattice value %v)", w, n, alpha, d, method, dc, lattice)
		}
		if strings.HasPrefix(method, "exact") {
			if p := newKSIntDP(int(w), n).tail(int64(math.Round(d * nw))); p > alpha {
				t.Fatalf("w=%d n=%d alpha=%g: P(D >= %v) = %g", w, n, alpha, d, p)
			}
		}
		if d2, _, err := KSCriticalUniformInt(w, n, min(0.9, alpha*3)); err == nil && d2 > d {
			t.Fatalf("w=%d n=%d: d(%g) = %v < d(%g) = %v", w, n, alpha, d, 3*alpha, d2)
		}
	})
}

func BenchmarkKSCriticalUniformInt(b *testing.B) {
	for _, c := range []struct {
		w uint64
		n int
	}{{3, 10_000}, {10, 1000}, {1000, 30}, {1 << 30, 1000}} {
		b.Run("first/w="+strconv.FormatUint(c.w, 10)+"/n="+strconv.Itoa(c.n), func(b *testing.B) {
			for b.Loop() {
				ksCriticalUniformInt(c.w, c.n, 1e-9)
			}
		})
	}
}

// Supports too large for the DP, up to the largest int64, fall back to the continuous value
// without overflow.
func TestKSCriticalUniformIntHugeSupport(t *testing.T) {
	for _, w := range []uint64{1 << 31, 1 << 53, 1<<62 + 12345, math.MaxInt64, 1 << 63, 1<<64 - 1} {
		for _, n := range []int{1, 2, 1000, 1 << 20} {
			d, method, err := KSCriticalUniformInt(w, n, 1e-9)
			dc, _, _ := KSCritical(n, 1e-9)
			if err != nil || d != dc || !strings.HasPrefix(method, "continuous") {
				t.Errorf("KSCriticalUniformInt(%d, %d, 1e-9) = %v, %q, %v; want the continuous %v", w, n, d, method, err, dc)
			}
		}
	}
}

// The largest deviation n (w-1) needs every draw in an end cell: probability 2 w^-n. The DP
// keeps that to full relative precision far below where 1 - P(inside) would be all rounding.
func TestKSIntDPFarTail(t *testing.T) {
	for _, c := range []struct{ w, n int }{{3, 40}, {10, 30}, {7, 100}, {2, 200}} {
		top := int64(c.n) * int64(c.w-1)
		want := 2 * math.Pow(float64(c.w), -float64(c.n))
		if got := newKSIntDP(c.w, c.n).tail(top); math.Abs(got-want) > 1e-12*want {
			t.Errorf("w=%d n=%d: P(dev >= %d) = %g, want 2 w^-n = %g", c.w, c.n, top, got, want)
		}
	}
}

// Invariances: D of a sample against a CDF F is D of F(x) against the uniform CDF, the same
// for any increasing transformation of both; the discrete D is unchanged by the reflection
// x -> w-1-x, which maps the uniform distribution on 0..w-1 to itself.
func TestKSStatisticInvariances(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		us := rapid.SliceOfN(rapid.Float64Range(0.001, 0.999), 1, 40).Draw(t, "u")
		slices.Sort(us)
		// F(x) = 1 - exp(-x), the exponential: x = -log(1-u).
		xs := make([]float64, len(us))
		for i, u := range us {
			xs[i] = -math.Log1p(-u)
		}
		dU := must(KSStatistic(us, func(u float64) float64 { return u }))
		dX := must(KSStatistic(xs, func(x float64) float64 { return -math.Expm1(-x) }))
		if math.Abs(dU-dX) > 1e-12 {
			t.Fatalf("D changes under x = -log(1-u): %v vs %v", dU, dX)
		}
		w := rapid.OneOf(rapid.Uint64Range(2, 30), rapid.Uint64Min(2)).Draw(t, "w")
		ks := rapid.SliceOfN(rapid.Uint64Range(0, w-1), 1, 40).Draw(t, "k")
		flipped := make([]uint64, len(ks))
		for i, k := range ks {
			flipped[i] = w - 1 - k
		}
		if a, b := must(KSStatisticUniformInt(ks, w)), must(KSStatisticUniformInt(flipped, w)); a != b {
			t.Fatalf("D changes under x -> w-1-x: %v vs %v", a, b)
		}
	})
}
