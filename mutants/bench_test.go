package mutants

import (
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkSource compares a healthy PCG with the broken sources, which find out which
// method of *rand.Rand reads them by walking the stack.
func BenchmarkSource(b *testing.B) {
	collapsed, _ := CollapsedSource(rand.NewPCG(1, 2), 0.5)
	clock, _ := ClockSource(steppingNow(clockEpoch, fineStep))
	for _, s := range []struct {
		name string
		src  rand.Source
	}{
		{"pcg", rand.NewPCG(1, 2)},
		{"collapsed", collapsed},
		{"clock", clock},
		{"constant", new(Source)},
	} {
		r := rand.New(s.src)
		b.Run(s.name+"/Float64", func(b *testing.B) {
			for b.Loop() {
				r.Float64()
			}
		})
		b.Run(s.name+"/Int64N", func(b *testing.B) {
			for b.Loop() {
				r.Int64N(int64(time.Second))
			}
		})
	}
}

// BenchmarkMutant measures one call of each mutant of full jitter.
func BenchmarkMutant(b *testing.B) {
	ms, _ := Of(Full())
	for _, m := range ms {
		b.Run(m.Name, func(b *testing.B) {
			for b.Loop() {
				m.Jitter(time.Second)
			}
		})
	}
}
