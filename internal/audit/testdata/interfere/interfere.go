// Package interfere holds two draws whose tests interfere: TestA passes whenever TestB ran
// before it in the same process, and fails half its runs otherwise. Near is reached by TestA
// alone, Far by both.
package interfere

import "math/rand/v2"

var prepared bool

// Prepare readies the package; only TestB calls it.
func Prepare() { prepared = true }

// Prepared reports whether Prepare ran in this process.
func Prepared() bool { return prepared }

// Near draws; only TestA reaches it.
func Near() float64 { return rand.Float64() }

// Far draws; TestA and TestB reach it.
func Far() float64 { return rand.Float64() }
