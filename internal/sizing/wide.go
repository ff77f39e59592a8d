package sizing

import (
	"math/big"
	"math/bits"
)

// u128 is an unsigned 128-bit integer: the deviations |c w - n (k+1)| of the discrete
// Kolmogorov-Smirnov statistic reach 2^117 for a support of 2^64 values, and are compared
// exactly.
type u128 struct{ hi, lo uint64 }

// mul64 returns a b exactly.
func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// less reports whether x < y.
func (x u128) less(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

// absDiff returns |x - y|.
func absDiff(x, y u128) u128 {
	if x.less(y) {
		x, y = y, x
	}
	lo, borrow := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, borrow)
	return u128{hi, lo}
}

// big returns x as a big.Int.
func (x u128) big() *big.Int {
	b := new(big.Int).SetUint64(x.hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(x.lo))
}

// ratio returns num/den rounded once to the nearest float64, for den > 0: so that comparing
// two ratios with the same denominator agrees with comparing their numerators, up to ties.
func ratio(num, den u128) float64 {
	f, _ := new(big.Rat).SetFrac(num.big(), den.big()).Float64()
	return f
}
