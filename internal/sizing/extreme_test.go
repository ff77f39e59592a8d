package sizing

import (
	"errors"
	"math"
	"sync"
	"testing"
)

// The cases of issue 8, each an answer that used to be wrong, infinite, a hang or shared.

// isInput reports whether err is an *InputError.
func isInput(err error) bool {
	var e *InputError
	return errors.As(err, &e)
}

// TestDenormalRates: a denormal rate made the KS sizing loop forever (5e-324) or return a
// limit of +Inf (1e-320), so that a collapsed sample passed; every function now refuses a rate
// below MinAlpha.
func TestDenormalRates(t *testing.T) {
	for _, alpha := range []float64{5e-324, 1e-320, 1e-310, math.Nextafter(MinAlpha, 0)} {
		if d, _, err := KSCritical(1000, alpha); !isInput(err) {
			t.Errorf("KSCritical(1000, %g) = %v, %v; want an *InputError", alpha, d, err)
		}
		if m, _, err := RepeatsLimit(1e9, 1000, alpha); !isInput(err) {
			t.Errorf("RepeatsLimit(1e9, 1000, %g) = %v, %v; want an *InputError", alpha, m, err)
		}
		if lo, hi, _, err := AscentsInterval(1000, alpha); !isInput(err) {
			t.Errorf("AscentsInterval(1000, %g) = [%d, %d], %v; want an *InputError", alpha, lo, hi, err)
		}
	}
	// At MinAlpha itself every limit is finite and can be met.
	if d, _, err := KSCritical(1000, MinAlpha); err != nil || !(d > 0 && d < 1) {
		t.Errorf("KSCritical(1000, MinAlpha) = %v, %v", d, err)
	}
}

// TestKSTailHugeN: KSTail(1e9, 0.5) summed a billion terms (over 10 s); beyond 50,000 values
// it is the DKW-Massart bound at every d.
func TestKSTailHugeN(t *testing.T) {
	for _, n := range []int{1e9, MaxN} {
		p, method, err := KSTail(n, 0.5)
		// The bound rounded up: at least 2 exp(-n/2), and within two floats of its float64 value.
		want := 2 * math.Exp(-2*float64(n)*0.25)
		if err != nil || method != ksMethodDKW || p < want*(1-0x1p-52) || p > math.Nextafter(math.Nextafter(want, 1), 1) {
			t.Errorf("KSTail(%d, 0.5) = %g, %q, %v; want the DKW bound %g", n, p, method, err, want)
		}
	}
}

// TestOrderIntervalsHugeN: AscentsInterval(MaxInt64, a) returned hi = MinInt64; n beyond MaxN
// is an error, and up to MaxN the interval holds the mean.
func TestOrderIntervalsHugeN(t *testing.T) {
	for _, f := range []func(int, float64) (int, int, string, error){AscentsInterval, TurningPointsInterval} {
		if lo, hi, _, err := f(math.MaxInt64, 1e-9); !isInput(err) {
			t.Errorf("interval(MaxInt64) = [%d, %d], %v; want an *InputError", lo, hi, err)
		}
		for _, n := range []int{1 << 40, MaxN - 1, MaxN} {
			lo, hi, method, err := f(n, 1e-9)
			mean := float64(n-1) / 2 // ascents; turning points: 2(n-2)/3
			if err != nil || lo < 0 || lo > hi || hi > n-1 || float64(lo) > mean*4/3 || float64(hi) < mean {
				t.Errorf("interval(%d) = [%d, %d], %q, %v", n, lo, hi, method, err)
			}
		}
	}
}

// TestOrderIntervalsNearAlphaOne: AscentsInterval(14, 1-2^-53) returned lo > hi, an interval
// every sample fails.
func TestOrderIntervalsNearAlphaOne(t *testing.T) {
	alpha := 1 - 0x1p-53
	for _, f := range []func(int, float64) (int, int, string, error){AscentsInterval, TurningPointsInterval} {
		for n := 1; n <= 40; n++ {
			lo, hi, _, err := f(n, alpha)
			if err == nil && lo > hi {
				t.Errorf("interval(%d, 1-2^-53) = [%d, %d]: empty", n, lo, hi)
			}
		}
	}
}

// TestNoInfiniteResults: MeanZ(MaxFloat64, ...) returned +Inf with no error; every result is
// finite or an error.
func TestNoInfiniteResults(t *testing.T) {
	if tol, err := MeanZ(math.MaxFloat64, 1, 1e-9); !isInput(err) {
		t.Errorf("MeanZ(MaxFloat64, 1, 1e-9) = %v, %v; want an *InputError", tol, err)
	}
	if tol, err := MeanHoeffding(math.MaxFloat64, 1, 1e-9); !isInput(err) {
		t.Errorf("MeanHoeffding(MaxFloat64, 1, 1e-9) = %v, %v; want an *InputError", tol, err)
	}
	// Bernstein works in units of maxDev, so its squares do not overflow on the way.
	if tol, err := MeanBernstein(1e300, 1e300, 1000, 1e-9); err != nil || math.IsInf(tol, 0) {
		t.Errorf("MeanBernstein(1e300, 1e300, 1000, 1e-9) = %v, %v", tol, err)
	}
}

// TestCachedErrorsAreCopies: spread set the Check of a cached *TooSmallError, so that a later
// KSCritical reported another check's name. Every call now returns an error of its own.
func TestCachedErrorsAreCopies(t *testing.T) {
	calls := map[string]func() error{
		"KSCritical":           func() error { _, _, err := KSCritical(1, 1e-17); return err },
		"AscentsInterval":      func() error { _, _, _, err := AscentsInterval(5, 1e-9); return err },
		"RepeatsLimit":         func() error { _, _, err := RepeatsLimit(10, 3, 1e-9); return err },
		"MeanUniformInt":       func() error { _, _, err := MeanUniformInt(2, 3, 1e-9); return err },
		"CoverageGapInt":       func() error { _, err := CoverageGapInt(10, 3, 1e-9); return err },
		"RangeLimitInt":        func() error { _, err := RangeLimitInt(10, 3, 1e-9); return err },
		"KSCriticalUniformInt": func() error { _, _, err := KSCriticalUniformInt(1e6, 2, 1e-17); return err },
	}
	for name, call := range calls {
		var first *TooSmallError
		if !errors.As(call(), &first) {
			t.Fatalf("%s: want a *TooSmallError", name)
		}
		want := *first
		first.Check, first.Need = "changed by a caller", -1
		var again *TooSmallError
		if !errors.As(call(), &again) || *again != want {
			t.Errorf("%s: after a caller changed its error, the next call returned %+v, want %+v", name, again, want)
		}
	}
}

// TestPMFsAreCopies: the PMFs were the cache's own slices.
func TestPMFsAreCopies(t *testing.T) {
	for name, f := range map[string]func(int) ([]float64, error){"AscentsPMF": AscentsPMF, "TurningPointsPMF": TurningPointsPMF} {
		p := must(f(10))
		want := p[3]
		p[3] = -1
		if again := must(f(10)); again[3] != want {
			t.Errorf("%s: a caller's change reached the next call: %v", name, again[3])
		}
	}
}

// TestParallelCallers is the t.Parallel stress test of the caches: goroutines that each
// change what they are given never see each other's changes, and all see the serial answers.
// Run with -race.
func TestParallelCallers(t *testing.T) {
	for i := range 8 {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			for range 50 {
				_, _, err := KSCritical(1, 1e-17)
				var e *TooSmallError
				if !errors.As(err, &e) || e.Check != "ks" {
					t.Fatalf("goroutine %d: %v", i, err)
				}
				e.Check = "mine"
				p := must(AscentsPMF(12))
				if p[0] <= 0 {
					t.Fatalf("goroutine %d: P(A = 0) = %v", i, p[0])
				}
				p[0] = -1
			}
		})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { ksCache.clear(); ascentsCache.clear() })
	}
	wg.Wait()
}
