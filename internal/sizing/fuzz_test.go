package sizing

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"testing"
)

// The fuzz targets call every exported function with hostile arguments and check the package's
// contract: a finite answer or a typed error (*InputError, *TooSmallError), never a NaN, an
// infinity, a panic or a hang, and answers inside their ranges. Plain go test runs their seed
// corpora (hostile values: MinInt64, 2^63, denormals, NaN, Inf, huge n); CI fuzzes each for a
// bounded time:
//
//	go test ./sizing -run '^$' -fuzz '^FuzzRates$' -fuzztime 30s

// hostile lists the float64 values every target is seeded with.
var hostile = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, 1e-320,
	MinAlpha, 1e-17, 1e-9, 0.5, 1 - 0x1p-53, 1, 1 + 0x1p-52, 2, 1 << 53, 1 << 63, math.MaxFloat64, -1}

// hostileN lists the sample sizes every target is seeded with.
var hostileN = []int{math.MinInt64, -1, 0, 1, 2, 13, 14, 1000, 50_001, MaxN, MaxN + 1, math.MaxInt64}

// hostileW lists the support sizes every target is seeded with.
var hostileW = []uint64{0, 1, 2, 3, 10, 1 << 53, 1 << 63, 1<<63 + 1, math.MaxUint64}

// checkErr fails unless err is nil or one of the package's two typed errors, and returns
// whether it was nil.
func checkErr(t *testing.T, call string, err error) bool {
	t.Helper()
	if err == nil {
		return true
	}
	var in *InputError
	var small *TooSmallError
	switch {
	case errors.As(err, &small):
		if small.Need <= small.N || small.Need > MaxN {
			t.Fatalf("%s: %v: Need %d is no larger than N %d or beyond MaxN", call, err, small.Need, small.N)
		}
	case !errors.As(err, &in):
		t.Fatalf("%s: error %v (%T) is neither an *InputError nor a *TooSmallError", call, err, err)
	}
	if err.Error() == "" {
		t.Fatalf("%s: an empty error", call)
	}
	return false
}

// limitSlack is the relative slack a limit may leave on the safe side: the package decides
// by logarithms with a margin of 1e-9, and the tails agree to about 1e-13.
const limitSlack = 2e-9

// logTol is the relative error of a tail the fuzz targets compute by logarithms in float64.
const logTol = 1e-11

// repeatsDPError is the relative error of RepeatsTail's float64 dynamic program, a sum of
// positive terms (distinct.go: exact to a relative 1e-13; RepeatsLimit stays logMargin = 1e-9
// inside alpha when it steps below its proven bound, so the error never decides a limit). A
// reference this close can put a tail of exactly alpha a few floats above it.
const repeatsDPError = 1e-13

// checkSmallest fails unless the limit lim keeps the promise, tail(lim) <= alpha, and is the
// smallest that does: tail(lim-1) > alpha (up to limitSlack) unless lim is the first allowed.
// tail must be the tail the limit is documented to bound, computed another way where possible,
// to a relative error tol (0 for the package's own tail).
func checkSmallest(t *testing.T, call string, alpha, tol float64, lim, first int, tail func(int) float64) {
	t.Helper()
	if p := tail(lim); p > alpha*(1+tol) {
		t.Fatalf("%s = %d: the tail there is %v > alpha = %v", call, lim, p, alpha)
	}
	if lim > first {
		if p := tail(lim - 1); p <= alpha*(1-limitSlack-tol) {
			t.Fatalf("%s = %d is not the smallest: the tail at %d is %v <= alpha = %v", call, lim, lim-1, p, alpha)
		}
	}
}

// checkFinite fails unless every value is a finite number.
func checkFinite(t *testing.T, call string, xs ...float64) {
	t.Helper()
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%s = %v with no error", call, xs)
		}
	}
}

// checkIn fails unless lo <= x <= hi.
func checkIn(t *testing.T, call string, x, lo, hi float64) {
	t.Helper()
	checkFinite(t, call, x)
	if x < lo || x > hi {
		t.Fatalf("%s = %v, outside [%v, %v]", call, x, lo, hi)
	}
}

func FuzzRates(f *testing.F) {
	for i, a := range hostile {
		f.Add(a, hostileN[i%len(hostileN)], hostileN[(i+3)%len(hostileN)], hostile[(i+5)%len(hostile)])
	}
	f.Fuzz(func(t *testing.T, alpha float64, k, runs int, x float64) {
		if a, err := Bonferroni(alpha, k); checkErr(t, "Bonferroni", err) {
			checkIn(t, "Bonferroni", a, MinAlpha, alpha)
		}
		if a, err := Sidak(alpha, k); checkErr(t, "Sidak", err) {
			checkIn(t, "Sidak", a, MinAlpha, alpha)
		}
		if a, err := SuiteAlpha(alpha, k, runs); checkErr(t, "SuiteAlpha", err) {
			checkIn(t, "SuiteAlpha", a, MinAlpha, alpha)
		}
		if a, err := Combine(alpha, x); checkErr(t, "Combine", err) {
			checkIn(t, "Combine", a, 0, 1)
		}
		if z, err := ZTwoSided(alpha); checkErr(t, "ZTwoSided", err) {
			checkIn(t, "ZTwoSided", z, 0, 40)
		}
		if z, err := ZOneSided(alpha); checkErr(t, "ZOneSided", err) {
			checkIn(t, "ZOneSided", z, -40, 40)
		}
		if n, err := CollapseOptimalN(x, alpha); checkErr(t, "CollapseOptimalN", err) {
			checkIn(t, "CollapseOptimalN", float64(n), 1, MaxN)
		}
	})
}

func FuzzMean(f *testing.F) {
	for i, x := range hostile {
		f.Add(x, hostile[(i+7)%len(hostile)], hostileN[i%len(hostileN)], hostile[(i+9)%len(hostile)], hostileW[i%len(hostileW)])
	}
	f.Fuzz(func(t *testing.T, sd, x float64, n int, alpha float64, w uint64) {
		if tol, err := MeanZ(sd, n, alpha); checkErr(t, "MeanZ", err) {
			checkIn(t, "MeanZ", tol, 0, math.MaxFloat64)
		}
		if tol, err := MeanHoeffding(sd, n, alpha); checkErr(t, "MeanHoeffding", err) {
			checkIn(t, "MeanHoeffding", tol, 0, math.MaxFloat64)
		}
		if tol, err := MeanBernstein(sd, x, n, alpha); checkErr(t, "MeanBernstein", err) {
			checkIn(t, "MeanBernstein", tol, 0, math.MaxFloat64)
		}
		if m, err := MeanMinN(sd, alpha); checkErr(t, "MeanMinN", err) {
			checkIn(t, "MeanMinN", float64(m), 1, MaxN)
		}
		if m, err := MeanSampleSize(sd, x, alpha, alpha); checkErr(t, "MeanSampleSize", err) {
			checkIn(t, "MeanSampleSize", float64(m), 1, MaxN)
		}
		if dev, method, err := MeanUniformInt(w, n, alpha); checkErr(t, "MeanUniformInt", err) {
			checkIn(t, "MeanUniformInt", dev, 0.5, float64(n)*float64(w-1)/2)
			if method == "" {
				t.Fatal("MeanUniformInt: no method")
			}
		}
	})
}

func FuzzRepeats(f *testing.F) {
	for i, w := range hostile {
		f.Add(w, hostileN[i%len(hostileN)], hostileN[(i+5)%len(hostileN)], hostile[(i+8)%len(hostile)])
	}
	f.Add(1e9, 1000, 3, 1e-9)
	f.Add(2.5, 30, 12, 1e-3)
	f.Fuzz(func(t *testing.T, w float64, n, m int, alpha float64) {
		if lim, method, err := RepeatsLimit(w, n, alpha); checkErr(t, "RepeatsLimit", err) {
			checkIn(t, "RepeatsLimit", float64(lim), 1, float64(n-1))
			if method == "" {
				t.Fatal("RepeatsLimit: no method")
			}
			call := fmt.Sprintf("RepeatsLimit(%v, %d, %v)", w, n, alpha)
			switch {
			case !strings.HasPrefix(method, "exact (repeats"):
			case w == math.Trunc(w) && w <= 1e4 && n <= 40:
				// Decided against the exact tail in rationals: a tail of exactly alpha (5^-5
				// at w = 5, n = 6) is allowed, and the float64 sum may round it above.
				if exactRepeatsTail(int64(w), n, lim).Cmp(new(big.Rat).SetFloat64(alpha)) > 0 {
					t.Fatalf("%s = %d: the exact tail there is above alpha", call, lim)
				}
				if p, _ := exactRepeatsTail(int64(w), n, lim-1).Float64(); lim > 1 && p <= alpha*(1-limitSlack) {
					t.Fatalf("%s = %d is not the smallest: the exact tail at %d is %v", call, lim, lim-1, p)
				}
			default:
				// Against the float64 dynamic program, to its error; the rationals above
				// decide the small cases.
				checkSmallest(t, call, alpha, repeatsDPError, lim, 1, func(m int) float64 {
					p, _, _ := RepeatsTail(w, n, m)
					return p
				})
			}
		}
		if p, _, err := RepeatsTail(w, n, m); checkErr(t, "RepeatsTail", err) {
			checkIn(t, "RepeatsTail", p, 0, 1)
		}
	})
}

func FuzzCoverage(f *testing.F) {
	for i, w := range hostileW {
		f.Add(w, hostileN[i%len(hostileN)], hostile[(i+6)%len(hostile)])
	}
	f.Fuzz(func(t *testing.T, w uint64, n int, alpha float64) {
		if eps, err := CoverageGap(n, alpha); checkErr(t, "CoverageGap", err) {
			checkIn(t, "CoverageGap", eps, 0, 1)
		}
		if r, err := RangeLimit(n, alpha); checkErr(t, "RangeLimit", err) {
			checkIn(t, "RangeLimit", r, 0, 1)
		}
		if j, err := CoverageGapInt(w, n, alpha); checkErr(t, "CoverageGapInt", err) {
			if j < 1 || j > w-1 {
				t.Fatalf("CoverageGapInt(%d, %d, %v) = %d", w, n, alpha, j)
			}
			// P(max <= w-1-j) = ((w-j)/w)^n, by logarithms: the limit is decided exactly, so
			// only a gross error shows here.
			if j <= 1<<62 {
				checkSmallest(t, fmt.Sprintf("CoverageGapInt(%d, %d, %v)", w, n, alpha), alpha, logTol, int(j), 1, func(j int) float64 {
					return math.Exp(float64(n) * logFraction(w-uint64(j), w))
				})
			}
		}
		if r, err := RangeLimitInt(w, n, alpha); checkErr(t, "RangeLimitInt", err) && r > w-2 {
			t.Fatalf("RangeLimitInt(%d, %d, %v) = %d", w, n, alpha, r)
		}
	})
}

// logFraction returns log(k/w) for k <= w, accurate when k is near w.
func logFraction(k, w uint64) float64 {
	if k > w/2 {
		return math.Log1p(-float64(w-k) / float64(w))
	}
	return math.Log(float64(k) / float64(w))
}

func FuzzKS(f *testing.F) {
	for i, d := range hostile {
		f.Add(hostileN[i%len(hostileN)], d, hostile[(i+4)%len(hostile)], hostileW[i%len(hostileW)])
	}
	f.Fuzz(func(t *testing.T, n int, d, alpha float64, w uint64) {
		if c, method, err := KSCritical(n, alpha); checkErr(t, "KSCritical", err) {
			checkIn(t, "KSCritical", c, 0, 1)
			if p, m, err := KSTail(n, c); err != nil || p > alpha || m != method {
				t.Fatalf("KSTail(%d, KSCritical = %v) = %v, %q, %v; want <= %v by %q", n, c, p, m, err, alpha, method)
			}
		}
		if p, _, err := KSTail(n, d); checkErr(t, "KSTail", err) {
			checkIn(t, "KSTail", p, 0, 1)
		}
		if n <= 1000 || d >= 0.5 || float64(n)*d <= 50 { // keep the matrix small for a fuzzer
			if p, err := KSExactCDF(n, d); checkErr(t, "KSExactCDF", err) {
				checkIn(t, "KSExactCDF", p, 0, 1)
			}
		}
		if p, err := KolmogorovCDF(d); checkErr(t, "KolmogorovCDF", err) {
			checkIn(t, "KolmogorovCDF", p, 0, 1)
		}
		if x, err := KolmogorovQuantile(alpha); checkErr(t, "KolmogorovQuantile", err) {
			checkIn(t, "KolmogorovQuantile", x, 0, 40)
		}
		if c, method, err := KSCriticalUniformInt(w, n, alpha); checkErr(t, "KSCriticalUniformInt", err) {
			checkIn(t, "KSCriticalUniformInt", c, 0, 1)
			if method == "" {
				t.Fatal("KSCriticalUniformInt: no method")
			}
		}
	})
}

func FuzzKSStatistic(f *testing.F) {
	f.Add([]byte{}, uint64(0))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(math.NaN())), uint64(1))
	f.Add(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 1<<63), math.MaxUint64), uint64(math.MaxUint64))
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(0.25)), uint64(10))
	f.Fuzz(func(t *testing.T, data []byte, w uint64) {
		var xs []float64
		var ks []uint64
		for len(data) >= 8 {
			u := binary.LittleEndian.Uint64(data)
			xs, ks = append(xs, math.Float64frombits(u)), append(ks, u%max(w, 1))
			data = data[8:]
		}
		uniform := func(x float64) float64 { return min(1, max(0, x)) }
		if d, err := KSStatistic(xs, uniform); checkErr(t, "KSStatistic", err) {
			checkIn(t, "KSStatistic", d, 0, 1)
		}
		hostileCDF := func(x float64) float64 { return x } // values outside [0, 1] too
		if d, err := KSStatistic(xs, hostileCDF); checkErr(t, "KSStatistic(identity)", err) {
			checkIn(t, "KSStatistic(identity)", d, 0, 1)
		}
		if d, err := KSStatisticUniformInt(ks, w); checkErr(t, "KSStatisticUniformInt", err) {
			checkIn(t, "KSStatisticUniformInt", d, 0, 1)
		}
	})
}

func FuzzOrder(f *testing.F) {
	for i, n := range hostileN {
		f.Add(n, hostile[i%len(hostile)])
	}
	f.Add(14, 1-0x1p-53)
	f.Fuzz(func(t *testing.T, n int, alpha float64) {
		for name, interval := range map[string]func(int, float64) (int, int, string, error){
			"AscentsInterval": AscentsInterval, "TurningPointsInterval": TurningPointsInterval,
		} {
			if lo, hi, method, err := interval(n, alpha); checkErr(t, name, err) {
				if lo < 0 || lo > hi || hi > n-1 || method == "" {
					t.Fatalf("%s(%d, %v) = [%d, %d], %q", name, n, alpha, lo, hi, method)
				}
			}
		}
		if n > 2000 {
			return // the PMFs cost n^2: a fuzzer needs no more than this
		}
		for name, pmf := range map[string]func(int) ([]float64, error){"AscentsPMF": AscentsPMF, "TurningPointsPMF": TurningPointsPMF} {
			if p, err := pmf(n); checkErr(t, name, err) {
				var sum float64
				for _, x := range p {
					checkIn(t, name, x, 0, 1)
					sum += x
				}
				if math.Abs(sum-1) > 1e-9 {
					t.Fatalf("%s(%d) sums to %v", name, n, sum)
				}
				checkIntervalPMF(t, name, n, alpha, p)
			}
		}
	})
}

// checkIntervalPMF checks the exact interval of the statistic whose PMF is p against its tails:
// each at most alpha/2 outside, and neither end could move inward.
func checkIntervalPMF(t *testing.T, name string, n int, alpha float64, p []float64) {
	t.Helper()
	interval := map[string]func(int, float64) (int, int, string, error){
		"AscentsPMF": AscentsInterval, "TurningPointsPMF": TurningPointsInterval,
	}[name]
	lo, hi, method, err := interval(n, alpha)
	if err != nil || !strings.HasPrefix(method, "exact") {
		return
	}
	var below, above float64 // P(X < lo), P(X > hi)
	for x, q := range p {
		if x < lo {
			below += q
		}
		if x > hi {
			above += q
		}
	}
	if below > alpha/2*(1+limitSlack) || above > alpha/2*(1+limitSlack) {
		t.Fatalf("%s interval [%d, %d] at n = %d, alpha = %v: tails %v and %v, above alpha/2", name, lo, hi, n, alpha, below, above)
	}
	if below+p[lo] <= alpha/2*(1-limitSlack) || above+p[hi] <= alpha/2*(1-limitSlack) {
		t.Fatalf("%s interval [%d, %d] at n = %d, alpha = %v: tails %v and %v leave room", name, lo, hi, n, alpha, below, above)
	}
}

func FuzzStuckBits(f *testing.F) {
	for i, n := range hostileN {
		f.Add(i*7-3, n, hostile[i%len(hostile)], hostile[(i+3)%len(hostile)], i-2)
	}
	f.Fuzz(func(t *testing.T, bits, n int, alpha, slack float64, b int) {
		if lim, err := StuckBitsLimit(bits, n, alpha, slack); checkErr(t, "StuckBitsLimit", err) {
			if lim < 1 || lim > bits {
				t.Fatalf("StuckBitsLimit(%d, %d, %v, %v) = %d", bits, n, alpha, slack, lim)
			}
			checkSmallest(t, fmt.Sprintf("StuckBitsLimit(%d, %d, %v, %v)", bits, n, alpha, slack), alpha, 0, lim, 1, func(b int) float64 {
				p, _ := StuckBitsTail(bits, n, b, slack)
				return p
			})
		}
		if p, err := StuckBitsTail(bits, n, b, slack); checkErr(t, "StuckBitsTail", err) {
			checkIn(t, "StuckBitsTail", p, 0, 1)
		}
	})
}

func FuzzLagProduct(f *testing.F) {
	for i, n := range hostileN {
		f.Add(n, hostile[i%len(hostile)], hostile[(i+2)%len(hostile)], hostile[(i+5)%len(hostile)], hostile[(i+7)%len(hostile)])
	}
	f.Add(1000, 83.0, 1.0/12, 0.0, 1e-10)
	f.Fuzz(func(t *testing.T, n int, sumSq, sigma2, bias, alpha float64) {
		if lim, method, err := LagProductLimit(n, sumSq, sigma2, bias, alpha); checkErr(t, "LagProductLimit", err) {
			checkIn(t, "LagProductLimit", lim, 0, math.MaxFloat64)
			if method == "" {
				t.Fatal("LagProductLimit: no method")
			}
		}
	})
}

func FuzzTwoSample(f *testing.F) {
	for i, n := range hostileN {
		f.Add(n, i*100-3, hostile[i%len(hostile)])
	}
	f.Fuzz(func(t *testing.T, n, k int, alpha float64) {
		if p, err := KSTwoSampleTail(n, k); checkErr(t, "KSTwoSampleTail", err) {
			checkIn(t, "KSTwoSampleTail", p, 0, 1)
		}
		if c, method, err := KSTwoSampleCritical(n, alpha); checkErr(t, "KSTwoSampleCritical", err) {
			if c < 1 || c > n || method == "" {
				t.Fatalf("KSTwoSampleCritical(%d, %v) = %d, %q", n, alpha, c, method)
			}
			checkSmallest(t, fmt.Sprintf("KSTwoSampleCritical(%d, %v)", n, alpha), alpha, 0, c, 1, func(k int) float64 {
				p, _ := KSTwoSampleTail(n, k)
				return p
			})
		}
		if c, err := PooledTopLimit(n, alpha); checkErr(t, "PooledTopLimit", err) {
			if c < 1 || c > n {
				t.Fatalf("PooledTopLimit(%d, %v) = %d", n, alpha, c)
			}
			// C(n, k)/C(2n, k) = prod_{i<k} (n-i)/(2n-i), as a sum of logs where k is small.
			if c <= 10_000 {
				checkSmallest(t, fmt.Sprintf("PooledTopLimit(%d, %v)", n, alpha), alpha, logTol, c, 1, func(k int) float64 {
					var l float64
					for i := range k {
						l += math.Log(float64(n-i) / float64(2*n-i))
					}
					return math.Exp(l)
				})
			}
		}
	})
}

func FuzzGrid(f *testing.F) {
	for i, n := range hostileN {
		f.Add(uint64(1)<<(i%64)+uint64(i), n, hostile[i%len(hostile)], hostile[(i+3)%len(hostile)])
	}
	f.Fuzz(func(t *testing.T, w uint64, n int, alpha, res float64) {
		if b, method, err := GridLimitInt(w, n, alpha); checkErr(t, "GridLimitInt", err) {
			if b < 1 || uint64(1)<<(b+1) > w || method == "" {
				t.Fatalf("GridLimitInt(%d, %d, %v) = %d, %q", w, n, alpha, b, method)
			}
			// P(G <= b) = (c_b/w)^n with c_b = 2^(b+1) - 2^min(b, v); the largest such b, so
			// -b is the smallest of the negated tails.
			v := bits.TrailingZeros64(w)
			last := -(bits.Len64(w) - 2)
			checkSmallest(t, fmt.Sprintf("GridLimitInt(%d, %d, %v)", w, n, alpha), alpha, logTol, -b, last, func(nb int) float64 {
				c := uint64(1)<<(-nb+1) - uint64(1)<<min(-nb, v)
				return math.Exp(float64(n) * logFraction(c, w))
			})
		}
		if b, method, err := GridLimit(res, n, alpha); checkErr(t, "GridLimit", err) && (b < 1 || math.Ldexp(res, b+2) >= 1 || method == "") {
			t.Fatalf("GridLimit(%v, %d, %v) = %d, %q", res, n, alpha, b, method)
		}
	})
}

func FuzzOrderTails(f *testing.F) {
	f.Add(0.1, 0.2, 0.3, 0.0, 1000, 1e-9)
	f.Add(0.0, 0.0, 1.0, 1e-9, 1, 0.5)
	for i, n := range hostileN {
		f.Add(hostile[i%len(hostile)], hostile[(i+1)%len(hostile)], hostile[(i+2)%len(hostile)], hostile[(i+3)%len(hostile)], n, hostile[(i+4)%len(hostile)])
	}
	f.Fuzz(func(t *testing.T, a, b, c, res float64, n int, alpha float64) {
		lower, upper := []float64{a, b, c}, []float64{a + res, b + res, c + res}
		bounds := func(r int) (float64, float64) { return lower[r-1], upper[r-1] }
		if p, rank, _, err := OrderTails(3, bounds); checkErr(t, "OrderTails", err) {
			checkIn(t, "OrderTails", p, 0, 1)
			if rank < 1 || rank > 3 {
				t.Fatalf("OrderTails: rank = %d", rank)
			}
		}
		if lim, method, err := OrderTailsLimit(n, alpha); checkErr(t, "OrderTailsLimit", err) {
			checkIn(t, "OrderTailsLimit", lim, 0, 1)
			if method == "" {
				t.Fatal("OrderTailsLimit: no method")
			}
		}
	})
}

func FuzzProportions(f *testing.F) {
	for i, a := range hostile {
		f.Add(hostileN[i%len(hostileN)], hostileN[(i+2)%len(hostileN)], hostileN[(i+5)%len(hostileN)], hostileN[(i+7)%len(hostileN)], a)
	}
	f.Add(1, 10, 3, 10, 0.05)
	f.Add(1<<30, 1<<31, 1<<30, 1<<31, 1e-9)
	f.Add(3, MaxN, 0, MaxN, 1e-300)
	f.Add(16, 1106398881260988, 16, 1<<32, 6.408868915287302e-15) // gonum's incomplete beta gave 41.3 for this tail
	f.Add(9, 1<<32, 1<<31, 1<<32, 0.5)
	f.Fuzz(func(t *testing.T, x1, n1, x2, n2 int, alpha float64) {
		if lo, hi, err := ClopperPearson(x1, n1, alpha); checkErr(t, "ClopperPearson", err) {
			checkIn(t, "ClopperPearson lower", lo, 0, 1)
			checkIn(t, "ClopperPearson upper", hi, lo, 1)
		}
		if p, err := BinomialTail(x1, n1, alpha); checkErr(t, "BinomialTail", err) {
			checkIn(t, "BinomialTail", p, 0, 1)
		}
		if p, err := BinomialTail(x1, n2, alpha); checkErr(t, "BinomialTail", err) {
			checkIn(t, "BinomialTail", p, 0, 1)
		}
		if lo, hi, err := NewcombeInterval(x1, n1, x2, n2, alpha); checkErr(t, "NewcombeInterval", err) {
			checkIn(t, "NewcombeInterval lower", lo, -1, 1)
			checkIn(t, "NewcombeInterval upper", hi, lo, 1)
		}
		for name, f := range map[string]func(int, int, int, int) (float64, error){
			"FisherGreater": FisherGreater, "FisherLess": FisherLess, "FisherTwoSided": FisherTwoSided} {
			if p, err := f(x1, n1, x2, n2); checkErr(t, name, err) {
				checkIn(t, name, p, 0, 1)
			}
		}
	})
}

// FuzzMeanSampleSizeBeta gives MeanSampleSize any beta, denormals included: it returns an n
// or an error, and a smaller beta (a more powerful check) never needs fewer draws. Below
// 2^-1022 the quantile must solve its own equation: ln P(Z > z) = ln beta to 1e-12.
func FuzzMeanSampleSizeBeta(f *testing.F) {
	for _, b := range []float64{5e-324, 1e-315, 0x1p-1022, 1e-300, 1e-9, 0.5, 0.999, math.NaN(), -1, 1} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, beta float64) {
		n, err := MeanSampleSize(1, 1e-3, 1e-9, beta)
		if !checkErr(t, "MeanSampleSize", err) {
			return
		}
		if more, err := MeanSampleSize(1, 1e-3, 1e-9, beta/2); err == nil && more < n {
			t.Fatalf("MeanSampleSize at beta %g needs %d draws, at beta/2 %d", beta, n, more)
		}
		if beta > 0 && beta < smallestNormal {
			frac, exp := math.Frexp(beta)
			logp := math.Log(frac) + float64(exp)*math.Ln2
			if z := upperZ(beta); math.Abs(logUpperTail(z)-logp) > 1e-12*-logp {
				t.Fatalf("the z of beta %g is %v, whose ln tail %v is not ln beta %v", beta, z, logUpperTail(z), logp)
			}
		}
	})
}

// exactRepeatsTail returns P(R >= m) for the repeats R among n draws from w equally likely
// values, exactly, by the dynamic program over draws in rationals: after d distinct values a
// draw repeats with probability d/w.
func exactRepeatsTail(w int64, n, m int) *big.Rat {
	q := []*big.Rat{big.NewRat(1, 1)} // q[r] = P(R = r) after i draws
	for i := 0; i < n; i++ {
		next := make([]*big.Rat, len(q)+1)
		for r := range next {
			next[r] = new(big.Rat)
		}
		for r, p := range q {
			rep := big.NewRat(int64(i-r), w)
			next[r+1].Add(next[r+1], new(big.Rat).Mul(p, rep))
			next[r].Add(next[r], new(big.Rat).Mul(p, new(big.Rat).Sub(big.NewRat(1, 1), rep)))
		}
		q = next
	}
	tail := new(big.Rat)
	for r := max(m, 0); r < len(q); r++ {
		tail.Add(tail, q[r])
	}
	return tail
}
