package spread

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkCheck measures the default battery on a correct nanosecond full-jitter sample; the
// ns/sample metric is the cost per value checked.
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		xs := draws(1, n, func(r *rand.Rand) time.Duration { return time.Duration(r.Int64N(int64(base))) })
		b.Run(sizeName(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Check(b, xs, Uniform(0, base))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
		})
	}
}

// BenchmarkCheckFloat is BenchmarkCheck on continuous float64 values.
func BenchmarkCheckFloat(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		xs := draws(1, n, func(r *rand.Rand) float64 { return r.Float64() })
		b.Run(sizeName(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Check(b, xs, Uniform(0.0, 1.0))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/sample")
		})
	}
}

func sizeName(n int) string {
	if n >= 1_000_000 {
		return "n=1e6"
	}
	return "n=1e3"
}
