package sizing

import (
	"math"
	"slices"
)

// KSExactCDF returns P(D_n < d) for the two-sided one-sample Kolmogorov-Smirnov statistic
// D_n = sup|F_n - F| of n i.i.d. values from a continuous F, by the matrix method of
// Marsaglia, Tsang and Wang (2003), exact to about 13 digits.
//
// The matrix has 2 floor(n d) + 1 rows and is raised to the n-th power, so the cost grows as
// (n d)^3 log n: a few milliseconds at n = 140, seconds at n = 10,000 and d near 0.1. Where the
// answer is 1 - 2 P+ to the last bit, P+ the one-sided tail (d >= 1/2, or P+ < 3e-9), that
// value is returned instead. The matrix is limited to 401 rows (n d <= 200), about a second
// of work; beyond, and for n outside [1, MaxN] or a NaN d, it returns an *InputError: KSTail
// gives a rigorous bound there.
func KSExactCDF(n int, d float64) (float64, error) {
	if err := checkN("KSExactCDF", n); err != nil {
		return 0, err
	}
	switch {
	case math.IsNaN(d):
		return 0, inputErr("KSExactCDF", "d = NaN, want a distance")
	case d <= 0.5/float64(n):
		return 0, nil
	case d >= 1:
		return 1, nil
	}
	tooBig := func() error {
		return inputErr("KSExactCDF", "n d = %.4g needs a matrix of more than %d rows: use KSTail", float64(n)*d, ksMaxExactRows)
	}
	if n > ksMaxOneSidedN && float64(n)*d > ksMaxExactRows/2 {
		return 0, tooBig()
	}
	// 1 - 2 P+ <= P(D_n < d) <= 1 - 2 P+ + P+^2 (see ksOneSidedTail), with equality on the
	// left for d >= 1/2; below P+ = 3e-9 the gap P+^2 is under half an ulp of 1.
	if p := ksOneSidedTail(n, d, nil); d >= 0.5 || p < 3e-9 {
		return 1 - 2*p, nil
	}
	if float64(n)*d > ksMaxExactRows/2 {
		return 0, tooBig()
	}
	return ksMTW(n, d), nil
}

// ksMaxExactRows caps the rows 2 floor(n d) + 1 of the Marsaglia-Tsang-Wang matrix.
const ksMaxExactRows = 401

// ksScale is the power of two by which ksMTW rescales its matrices to stay within float64's
// range; 2^465 is about 1e140, the scale of the paper.
const ksScale = 465

// ksMTW returns P(D_n < d) by the Marsaglia-Tsang-Wang matrix power, for 1/(2n) < d < 1.
func ksMTW(n int, d float64) float64 {
	nd := float64(n) * d
	k := int(nd) + 1
	m := 2*k - 1
	h := float64(k) - nd
	H := make([]float64, m*m)
	for i := range m {
		for j := range m {
			if i-j+1 >= 0 {
				H[i*m+j] = 1
			}
		}
	}
	// The first column and the last row lose h^i, h^(m-j); the corner gains (2h-1)^m when
	// 2h > 1 (the paper's equation (2)).
	hp := 1.0
	for i := range m {
		hp *= h
		H[i*m] -= hp
		H[(m-1)*m+(m-1-i)] -= hp
	}
	if 2*h-1 > 0 {
		H[(m-1)*m] += math.Pow(2*h-1, float64(m))
	}
	for i := range m {
		for j := range i + 1 {
			for g := 2; g <= i-j+1; g++ {
				H[i*m+j] /= float64(g)
			}
		}
	}
	Q, e := ksMatPow(H, m, n, false)
	s := Q[(k-1)*m+k-1]
	// P = n!/n^n * (H^n)[k][k]: multiply by i/n one factor at a time, rescaling as the paper
	// does so that s never underflows.
	for i := 1; i <= n; i++ {
		s = s * float64(i) / float64(n)
		if s < 0x1p-465 {
			s *= 0x1p465
			e -= ksScale
		}
	}
	return math.Ldexp(s, e)
}

// ksMatPow returns A^n as a matrix Q and a binary exponent e with A^n = Q 2^e, rescaling
// whenever the centre entry grows past 2^465 so that no entry overflows.
// With lower, every product and sum rounds down (see ksMatMul), and so does the rescaling,
// exact unless an entry falls below 2^-1022: the result bounds the exact power from below.
func ksMatPow(A []float64, m, n int, lower bool) (Q []float64, e int) {
	if n == 1 {
		return slices.Clone(A), 0
	}
	V, ev := ksMatPow(A, m, n/2, lower)
	Q = ksMatMul(V, V, m, lower)
	e = 2 * ev
	if n%2 == 1 {
		Q = ksMatMul(A, Q, m, lower)
	}
	if Q[(m/2)*m+m/2] > 0x1p465 {
		for i := range Q {
			if Q[i] *= 0x1p-465; lower {
				Q[i] = lowF(Q[i])
			}
		}
		e += ksScale
	}
	return Q, e
}

// ksMatMul returns the m x m product A B of row-major matrices; with lower, every product
// and sum rounded down (see lowF), a lower bound on the exact product of non-negative
// matrices.
func ksMatMul(A, B []float64, m int, lower bool) []float64 {
	C := make([]float64, m*m)
	for i := range m {
		ci := C[i*m : (i+1)*m]
		for k := range m {
			a := A[i*m+k]
			if a == 0 {
				continue
			}
			bk := B[k*m : (k+1)*m]
			if lower {
				for j, b := range bk {
					ci[j] = lowF(ci[j] + lowF(a*b))
				}
				continue
			}
			for j, b := range bk {
				ci[j] += a * b
			}
		}
	}
	return C
}
