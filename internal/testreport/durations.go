package testreport

import (
	"math"
	"slices"
)

// Durations summarizes a test's run times in the main pass, as package testing measured them
// (to 10 ms: a faster test reads 0).
type Durations struct {
	Median float64 `json:"median"` // seconds
	P99    float64 `json:"p99"`    // the 99th percentile, seconds
	Max    float64 `json:"max"`    // seconds
	Total  float64 `json:"total"`  // over all runs, seconds
}

// durations counts run times by their hundredths of a second: exact quantiles in memory that
// does not grow with the runs.
type durations map[int64]int

func (d *durations) add(secs float64) {
	if *d == nil {
		*d = durations{}
	}
	(*d)[int64(math.Round(secs*100))]++
}

func (d durations) summary() Durations {
	var keys []int64
	n := 0
	for k, c := range d {
		keys = append(keys, k)
		n += c
	}
	if n == 0 {
		return Durations{}
	}
	slices.Sort(keys)
	s := Durations{Max: float64(keys[len(keys)-1]) / 100}
	for _, k := range keys {
		s.Total += float64(k) * float64(d[k]) / 100
	}
	s.Median, s.P99 = d.quantile(keys, n, 0.5), d.quantile(keys, n, 0.99)
	return s
}

// quantile returns the nearest-rank q-quantile: the smallest time with at least q n runs at
// or below it.
func (d durations) quantile(keys []int64, n int, q float64) float64 {
	rank := int(math.Ceil(q * float64(n)))
	seen := 0
	for _, k := range keys {
		seen += d[k]
		if seen >= rank {
			return float64(k) / 100
		}
	}
	return float64(keys[len(keys)-1]) / 100
}
