package sizing

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// ZTwoSided returns the z with P(|Z| > z) = alpha for a standard normal Z (6.1094 at 1e-9).
//
// It uses gonum's Wichura AS241 quantile, which keeps about 16 digits in the far tail; the
// standard library's math.Erfcinv goes through 1 - alpha and keeps only about 4 at 1e-12.
func ZTwoSided(alpha float64) (float64, error) {
	if err := checkAlpha("ZTwoSided", alpha); err != nil {
		return 0, err
	}
	return upperZ(alpha / 2), nil
}

// ZOneSided returns the z with P(Z > z) = alpha for a standard normal Z (5.9978 at 1e-9).
func ZOneSided(alpha float64) (float64, error) {
	if err := checkAlpha("ZOneSided", alpha); err != nil {
		return 0, err
	}
	return upperZ(alpha), nil
}

// smallestNormal is the smallest positive normal float64, 2^-1022.
const smallestNormal = 0x1p-1022

// upperZ returns the z with P(Z > z) = p for a standard normal Z, 0 < p < 1.
//
// gonum's quantile keeps its 16 digits down to the smallest normal float64, 2^-1022, but
// not below: it returns 37.5378 for every denormal p, where the true z runs from 37.5194 at
// 2^-1022 to 38.4674 at 2^-1074, the smallest denormal. (math.Log, which it calls, is wrong
// there: math.Log(1e-310) is -709.09, not -713.80.) Below 2^-1022, z is found by Newton's
// method on ln P(Z > z), from its asymptotic (Mills ratio) series, good to 1e-20 relative at
// z >= 37, against ln p computed from p's fraction and exponent.
func upperZ(p float64) float64 {
	if p >= smallestNormal {
		return -mathext.NormalQuantile(p)
	}
	frac, exp := math.Frexp(p) // exact for a denormal p
	logp := math.Log(frac) + float64(exp)*math.Ln2
	z := math.Sqrt(-2 * logp) // above the answer: ln P(Z > z) < -z^2/2
	for range 100 {
		step := (logUpperTail(z) - logp) / (z + 1/z) // d/dz ln P(Z > z) is about -(z + 1/z)
		z += step
		if math.Abs(step) <= 1e-16*z {
			break
		}
	}
	return z
}

// logUpperTail returns ln P(Z > z) for z >= 37 from the asymptotic series of the Mills ratio,
// P(Z > z) = phi(z)/z (1 - 1/z^2 + 3/z^4 - 15/z^6 + ...): its ninth term is below 1e-20.
func logUpperTail(z float64) float64 {
	sum, term, z2 := 1.0, 1.0, z*z
	for k := 1; k <= 8; k++ {
		term *= -float64(2*k-1) / z2
		sum += term
	}
	return -z2/2 - math.Log(z) - 0.5*math.Log(2*math.Pi) + math.Log(sum)
}
