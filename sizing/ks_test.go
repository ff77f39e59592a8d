package sizing

import (
	"math"
	"testing"
)

// The reference values of /work/shared/REFERENCE-VALUES.md, computed independently.
func TestKSCriticalReference(t *testing.T) {
	for _, c := range []struct {
		n     int
		alpha float64
		want  float64
		tol   float64
	}{
		{30, 1e-9, 0.5695, 5e-5},
		{100, 1e-9, 0.3220, 5e-5},
		{1000, 1e-9, 0.10320, 5e-6},
		{1000, 1e-3, 0.06146, 5e-6},
	} {
		d, method, err := KSCritical(c.n, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("n=%d alpha=%g d=%.6f (%s)", c.n, c.alpha, d, method)
		if math.Abs(d-c.want) > c.tol {
			t.Errorf("KSCritical(%d, %g) = %.6f, want %.5f", c.n, c.alpha, d, c.want)
		}
	}
}

// Values of P(D_n < d) from R's pkolmogorov2x (a Marsaglia-Tsang-Wang implementation) and
// SciPy's kstwo (Simard-L'Ecuyer: exact for n <= 140, the Pelz-Good series beyond, which is
// good to about 1e-7 only: hence tol).
func TestKSExactCDFPublished(t *testing.T) {
	for _, c := range []struct {
		n    int
		d    float64
		want float64
		tol  float64
	}{
		{10, 0.274, 0.62847961545650433, 1e-13},   // the paper's example, R
		{599, 0.0357, 0.57975087884804655, 1e-13}, // R
		{20, 0.2, 0.647279826376585, 1e-13},
		{50, 0.15, 0.8097363348175198, 1e-13},
		{100, 0.1, 0.7473072429936127, 1e-13},
		{5, 0.5, 0.888, 1e-13},
		{500, 0.05, 0.8413373977618461, 1e-7},  // Pelz-Good
		{1000, 0.03, 0.6773097856085364, 1e-7}, // Pelz-Good
	} {
		got := KSExactCDF(c.n, c.d)
		if math.Abs(got-c.want) > c.tol {
			t.Errorf("KSExactCDF(%d, %v) = %.16f, want %.16f", c.n, c.d, got, c.want)
		}
	}
}

func TestKolmogorovQuantilePublished(t *testing.T) {
	for _, c := range []struct{ p, want float64 }{
		{0.90, 1.2238}, {0.95, 1.3581}, {0.99, 1.6276}, {0.999, 1.9495},
	} {
		got, err := KolmogorovQuantile(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-c.want) > 5e-5 {
			t.Errorf("KolmogorovQuantile(%v) = %.5f, want %.4f", c.p, got, c.want)
		}
	}
}
