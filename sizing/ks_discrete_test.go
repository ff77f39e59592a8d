package sizing

import (
	"math"
	"slices"
	"testing"
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
