package sizing

import (
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
	return -mathext.NormalQuantile(alpha / 2), nil
}

// ZOneSided returns the z with P(Z > z) = alpha for a standard normal Z (5.9978 at 1e-9).
func ZOneSided(alpha float64) (float64, error) {
	if err := checkAlpha("ZOneSided", alpha); err != nil {
		return 0, err
	}
	return -mathext.NormalQuantile(alpha), nil
}
