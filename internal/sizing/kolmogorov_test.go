package sizing

import (
	"errors"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// Critical values of the limiting distribution, as published in every table of the
// asymptotic KS test (Smirnov 1948): K^-1(0.90, 0.95, 0.99, 0.999).
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

// The two series agree where both converge, so the switch between them is seamless.
func TestKolmogorovSeriesAgree(t *testing.T) {
	for x := 0.6; x <= 2; x += 0.05 {
		var alt float64
		for k := 1; k <= 40; k++ {
			alt += 2 * math.Pow(-1, float64(k-1)) * math.Exp(-2*float64(k*k)*x*x)
		}
		if theta := kolmogorovTheta(x); math.Abs(theta-(1-alt)) > 1e-14 {
			t.Errorf("x=%v: theta series %.16f, alternating %.16f", x, theta, 1-alt)
		}
	}
	below, above := kolmogorovCDF(math.Nextafter(kolmogorovSwitch, 0)), kolmogorovCDF(kolmogorovSwitch)
	if above < below || above-below > 1e-15 {
		t.Errorf("KolmogorovCDF jumps at the switch: %v to %v", below, above)
	}
}

func TestKolmogorovEdges(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{{-1, 0}, {0, 0}, {0.02, 0}, {10, 1}, {math.Inf(1), 1}} {
		if got, err := KolmogorovCDF(c.x); got != c.want || err != nil {
			t.Errorf("KolmogorovCDF(%v) = %v, %v; want %v", c.x, got, err, c.want)
		}
	}
	var e *InputError
	if _, err := KolmogorovCDF(math.NaN()); !errors.As(err, &e) {
		t.Errorf("KolmogorovCDF(NaN): %v, want an *InputError", err)
	}
	// The tail keeps its digits far out: 2 exp(-2 x^2) - 2 exp(-8 x^2) + ...
	if got, want := kolmogorovTail(5), 2*math.Exp(-50); math.Abs(got-want) > 1e-15*want {
		t.Errorf("kolmogorovTail(5) = %g, want %g", got, want)
	}
	for _, p := range []float64{0, 1, -0.1, 1.5, math.NaN(), math.Inf(1)} {
		if _, err := KolmogorovQuantile(p); err == nil {
			t.Errorf("KolmogorovQuantile(%v): no error", p)
		}
	}
}

// The limit of the exact distribution: P(sqrt(n) D_n < x) approaches K(x), with an error of
// order 1/sqrt(n).
func TestKolmogorovIsTheLimit(t *testing.T) {
	const n = 2000
	for _, x := range []float64{0.5, 0.8, 1, 1.36, 1.63} {
		exact := must(KSExactCDF(n, x/math.Sqrt(n)))
		if k := kolmogorovCDF(x); math.Abs(exact-k) > 1/math.Sqrt(n) {
			t.Errorf("x=%v: KSExactCDF(%d) = %v, K = %v", x, n, exact, k)
		}
	}
}

func TestKolmogorovQuantileInverts(t *testing.T) {
	ksFixRapidSeed(t)
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.Float64Range(1e-12, 1-1e-12).Draw(t, "p")
		x, err := KolmogorovQuantile(p)
		if err != nil {
			t.Fatal(err)
		}
		// Compare on the smaller side, where the function keeps its relative precision.
		if p < 0.5 {
			if got := kolmogorovCDF(x); math.Abs(got-p) > 1e-12*p {
				t.Fatalf("KolmogorovCDF(KolmogorovQuantile(%v)) = %v", p, got)
			}
		} else if got := kolmogorovTail(x); math.Abs(got-(1-p)) > 1e-12*(1-p) {
			t.Fatalf("tail(KolmogorovQuantile(%v)) = %v, want %v", p, got, 1-p)
		}
		if x2, _ := KolmogorovQuantile(min(p*1.01, (1+p)/2)); x2 < x {
			t.Fatalf("KolmogorovQuantile falls between %v and %v", p, p*1.01)
		}
	})
}
