// Package spread is a stand-in with the API of the real package spread, so that the fixtures
// load without the module.
package spread

import (
	"math/rand/v2"
	"testing"
)

type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

type Dist[T Number] struct{}

func Uniform[T Number](lo, hi T) Dist[T]                 { return Dist[T]{} }
func Check[T Number](t testing.TB, xs []T, want Dist[T]) {}
func Rand(t testing.TB) *rand.Rand                       { return rand.New(rand.NewPCG(1, 2)) }
func Draw[T any](n int, f func() T) []T                  { return nil }
