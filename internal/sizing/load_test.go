package sizing

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// binomialTailRat returns P(Binomial(n, num/den) >= m) exactly: the integer sum of
// C(n, j) num^j (den-num)^(n-j) over j >= m, divided by den^n.
func binomialTailRat(n int, num, den int64, m int) *big.Rat {
	sum := new(big.Int)
	a, b := big.NewInt(num), big.NewInt(den-num)
	for j := max(m, 0); j <= n; j++ {
		term := new(big.Int).Binomial(int64(n), int64(j))
		term.Mul(term, new(big.Int).Exp(a, big.NewInt(int64(j)), nil))
		term.Mul(term, new(big.Int).Exp(b, big.NewInt(int64(n-j)), nil))
		sum.Add(sum, term)
	}
	return new(big.Rat).SetFrac(sum, new(big.Int).Exp(big.NewInt(den), big.NewInt(int64(n)), nil))
}

func TestBinomialTailBigRational(t *testing.T) {
	for _, c := range []struct {
		n        int
		num, den int64
		ms       []int
	}{
		{10, 1, 32, []int{1, 2, 5, 10}},
		{1000, 1, 32, []int{1, 20, 31, 50, 84, 120, 300}},
		{1000, 1, 10, []int{50, 100, 150, 200, 400}},
		{300, 1, 2, []int{1, 150, 200, 250, 300}},
	} {
		pf := float64(c.num) / float64(c.den)
		for _, m := range c.ms {
			want, _ := binomialTailRat(c.n, c.num, c.den, m).Float64()
			if got := binomialTail(c.n, pf, m); !closeRel(got, want, 1e-10) {
				t.Errorf("P(Bin(%d, %d/%d) >= %d) = %.15g, exact %.15g", c.n, c.num, c.den, m, got, want)
			}
		}
	}
}

// Reference: 1000 loops, 32 buckets per interval, 10 intervals, at 5e-13 (1e-9 shared by
// Bonferroni over 2,000 statistics): a bucket fails at 84 events (the mean is 31.25).
func TestLoadLimitReference(t *testing.T) {
	m, err := LoadLimit(1000, 1.0/32, 320, 5e-13)
	if err != nil || m != 84 {
		t.Fatalf("LoadLimit(1000, 1/32, 320, 5e-13) = %d, %v; want 84", m, err)
	}
	a := new(big.Rat).Quo(new(big.Rat).SetFloat64(5e-13), big.NewRat(320, 1))
	if binomialTailRat(1000, 1, 32, 84).Cmp(a) > 0 || binomialTailRat(1000, 1, 32, 83).Cmp(a) <= 0 {
		t.Error("the exact tail does not put the limit at 84")
	}
}

// maxMultinomialTail returns P(max count >= m) for n balls in b equally likely buckets,
// exactly: ways[s] counts the placements of s labelled balls in the buckets so far with fewer
// than m in each, ways'[s] = sum over j < m of C(s, j) ways[s-j], in integers.
func maxMultinomialTail(n, b, m int) *big.Rat {
	choose := make([][]*big.Int, n+1) // Pascal's triangle
	for s := range choose {
		choose[s] = make([]*big.Int, s+1)
		for j := range choose[s] {
			if j == 0 || j == s {
				choose[s][j] = big.NewInt(1)
			} else {
				choose[s][j] = new(big.Int).Add(choose[s-1][j-1], choose[s-1][j])
			}
		}
	}
	ways := make([]*big.Int, n+1)
	for s := range ways {
		ways[s] = big.NewInt(0)
	}
	ways[0].SetInt64(1)
	for range b {
		next := make([]*big.Int, n+1)
		for s := range next {
			next[s] = new(big.Int)
			for j := 0; j < m && j <= s; j++ {
				next[s].Add(next[s], new(big.Int).Mul(choose[s][j], ways[s-j]))
			}
		}
		ways = next
	}
	total := new(big.Int).Exp(big.NewInt(int64(b)), big.NewInt(int64(n)), nil)
	return new(big.Rat).SetFrac(new(big.Int).Sub(total, ways[n]), total)
}

// The union bound against the exact distribution of the fullest bucket of a multinomial: never
// below it, and within 1% of it at the limits spread uses.
func TestLoadLimitAgainstMaxMultinomial(t *testing.T) {
	for _, c := range []struct{ n, b int }{{40, 8}, {100, 10}, {64, 32}} {
		for _, alpha := range []float64{1e-3, 1e-6, 1e-9} {
			m, err := LoadLimit(c.n, 1/float64(c.b), c.b, alpha)
			if err != nil {
				t.Fatal(err)
			}
			exact, _ := maxMultinomialTail(c.n, c.b, m).Float64()
			union := float64(c.b) * binomialTail(c.n, 1/float64(c.b), m)
			if exact > alpha || union < exact*(1-1e-12) || union > exact*1.01 {
				t.Errorf("n = %d, b = %d, alpha = %g: limit %d, exact P(max >= m) = %.4g, union bound %.4g", c.n, c.b, alpha, m, exact, union)
			}
			if before, _ := maxMultinomialTail(c.n, c.b, m-1).Float64(); before <= alpha/10 {
				t.Errorf("n = %d, b = %d, alpha = %g: at m-1 = %d the exact tail is %.3g already: the limit is loose", c.n, c.b, alpha, m-1, before)
			}
		}
	}
}

func TestLoadLimitTooSmall(t *testing.T) {
	// 9 loops all in one of 320 buckets: 320/32^9 = 8.9e-12 > 5e-13; 10 loops: 2.8e-13.
	_, err := LoadLimit(9, 1.0/32, 320, 5e-13)
	var small *TooSmallError
	if !errors.As(err, &small) || small.Need != 10 {
		t.Fatalf("LoadLimit(9, ...) error %v, want a TooSmallError needing 10", err)
	}
	if m, err := LoadLimit(10, 1.0/32, 320, 5e-13); err != nil || m != 10 {
		t.Errorf("LoadLimit(10, ...) = %d, %v; want 10: only all loops in one bucket fail", m, err)
	}
}

func TestLoadLimitBadInput(t *testing.T) {
	for _, c := range []struct {
		n, cells int
		p, alpha float64
	}{{0, 1, 0.5, 0.01}, {-3, 1, 0.5, 0.01}, {10, 0, 0.5, 0.01}, {10, 1, 0, 0.01}, {10, 1, 1, 0.01},
		{10, 1, math.NaN(), 0.01}, {10, 1, 0.5, 0}, {10, 1, 0.5, math.NaN()}, {10, 1, 0.5, 1.5},
		{maxRuns + 1, 1, 0.5, 0.01}, {MaxN, 2, 0.5, 0.01}} {
		if _, err := LoadLimit(c.n, c.p, c.cells, c.alpha); !isInput(err) {
			t.Errorf("LoadLimit(%d, %v, %d, %v): %v, want an *InputError", c.n, c.p, c.cells, c.alpha, err)
		}
	}
}

func TestLoadLimitProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 1e6).Draw(t, "n")
		b := rapid.IntRange(2, 1000).Draw(t, "buckets")
		cells := b * rapid.IntRange(1, 1000).Draw(t, "intervals")
		alpha := math.Pow(10, -rapid.Float64Range(1, 15).Draw(t, "-log10 alpha"))
		m, err := LoadLimit(n, 1/float64(b), cells, alpha)
		if err != nil {
			var small *TooSmallError
			if !errors.As(err, &small) || small.Need <= n {
				t.Fatalf("error %v", err)
			}
			return
		}
		a := alpha / float64(cells)
		if tail := binomialTail(n, 1/float64(b), m); tail > a || m < 1 || m > n {
			t.Fatalf("limit %d: tail %.3g above alpha/cells %.3g", m, tail, a)
		}
		if m > 1 && binomialTail(n, 1/float64(b), m-1) <= a {
			t.Fatalf("limit %d is not the smallest", m)
		}
		if m2, err := LoadLimit(n+1, 1/float64(b), cells, alpha); err != nil || m2 < m {
			t.Fatalf("one more loop: limit %d, %v; was %d", m2, err, m)
		}
		if m2, err := LoadLimit(n, 1/float64(b), cells, alpha/10); err == nil && m2 < m {
			t.Fatalf("alpha/10: limit %d, %v; was %d", m2, err, m)
		}
	})
}

// Calibration: seeded fleets with uniform phases fail the load limit at most at its rate. The
// union bound is nearly exact here (320 P(X >= 56) = 0.00977), so 100,000 fleets are needed to
// see the rate under alpha and not merely near it (0.0096).
func TestLoadLimitCalibration(t *testing.T) {
	longtest.Skip(t)
	const loops, buckets, intervals, runs, alpha = 1000, 32, 10, 100000, 0.01
	m, err := LoadLimit(loops, 1.0/buckets, buckets*intervals, alpha)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	var counts [buckets]int
	fails := 0
	for range runs {
		worst := 0
		for range intervals {
			clear(counts[:])
			for range loops {
				counts[r.IntN(buckets)]++
			}
			for _, c := range counts {
				worst = max(worst, c)
			}
		}
		if worst >= m {
			fails++
		}
	}
	rate := float64(fails) / runs
	t.Logf("%d loops, %d buckets x %d intervals, limit %d at alpha %g: false-failure rate %.4f over %d fleets", loops, buckets, intervals, m, alpha, rate, runs)
	if rate > alpha+5*math.Sqrt(alpha/runs) {
		t.Errorf("false-failure rate %.4f above alpha %g", rate, alpha)
	}
}
