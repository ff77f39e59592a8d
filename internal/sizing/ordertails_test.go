package sizing

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mathext"
	"pgregory.net/rapid"
)

// directOrderTails computes both tails of each judged order statistic and returns the
// smallest: the definition, without the bounds that OrderTails skips most of them by.
func directOrderTails(lower, upper []float64) (p float64, rank int, low bool) {
	n := len(lower)
	ranks, _ := OrderTailsRanks(n)
	p = math.Inf(1)
	for _, r := range ranks {
		a, b := float64(r), float64(n-r+1)
		if t := mathext.RegIncBeta(a, b, upper[r-1]); t < p {
			p, rank, low = t, r, true
		}
		if t := mathext.RegIncBeta(b, a, 1-lower[r-1]); t < p {
			p, rank, low = t, r, false
		}
	}
	return p, rank, low
}

// sliceBounds hands OrderTails the bounds held in two slices.
func sliceBounds(lower, upper []float64) func(r int) (float64, float64) {
	return func(r int) (float64, float64) { return lower[r-1], upper[r-1] }
}

// TestOrderTailsRanks: every rank to 32 from either end, then ranks at most 5% apart, in
// increasing order, symmetric.
func TestOrderTailsRanks(t *testing.T) {
	for _, n := range []int{1, 2, 63, 64, 65, 1000, 1e6} {
		ranks, err := OrderTailsRanks(n)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range ranks {
			if mirror := ranks[len(ranks)-1-i]; r+mirror != n+1 {
				t.Fatalf("n = %d: ranks %d and %d are not mirrors", n, r, mirror)
			}
			if i == 0 && r != 1 || i > 0 && r <= ranks[i-1] {
				t.Fatalf("n = %d: ranks %v", n, ranks)
			}
			if near := min(r, n+1-r); i > 0 && near <= 32 && r != ranks[i-1]+1 && near == r {
				t.Fatalf("n = %d: rank %d skipped among the first 32", n, r-1)
			}
			if i > 0 && r <= (n+1)/2 && float64(r) > math.Ceil(1.05*float64(ranks[i-1]))+0 && r > ranks[i-1]+1 {
				t.Fatalf("n = %d: rank %d after %d, more than 5%% apart", n, r, ranks[i-1])
			}
		}
		if n <= 64 && len(ranks) != n {
			t.Errorf("n = %d: %d ranks, want all", n, len(ranks))
		}
		t.Logf("n = %d: %d ranks", n, len(ranks))
	}
}

// TestOrderTailsMatchesDirect checks OrderTails against every tail computed directly, on
// correct samples, samples piled at an end or crowding the middle, and positions known to
// within a cell.
func TestOrderTailsMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + r.IntN(150)
		lower, upper := make([]float64, n), make([]float64, n)
		cell := []float64{0, 1e-3, 1.0 / 64}[trial%3]
		for i := range lower {
			u := r.Float64()
			switch trial % 4 {
			case 1:
				u *= u * u // piled at the bottom
			case 2:
				u = 0.45 + 0.1*u // crowding the middle
			}
			lower[i] = u
			if cell > 0 {
				lower[i] = math.Floor(u/cell) * cell
			}
			upper[i] = min(1, lower[i]+cell)
		}
		slices.Sort(lower)
		slices.Sort(upper)
		p, rank, low, err := OrderTails(n, sliceBounds(lower, upper))
		if err != nil {
			t.Fatal(err)
		}
		wp, wrank, wlow := directOrderTails(lower, upper)
		exact := wp < 0.5 && math.Abs(p-wp) <= 1e-12*wp && (p == wp || rank == wrank && low == wlow)
		if !exact && (wp < 0.5 || p < 0.5) { // OrderTails is exact below 1/2
			t.Fatalf("trial %d, n = %d: OrderTails = %g at %d (low %v), direct %g at %d (low %v)", trial, n, p, rank, low, wp, wrank, wlow)
		}
	}
}

// TestOrderTailsAccuracy checks each tail, the binomial tail it equals (orderTailTerm.exact),
// against that tail summed in 256-bit arithmetic (refTail), down to tails of 1e-20.
func TestOrderTailsAccuracy(t *testing.T) {
	for _, c := range []struct {
		n, i int
		x    float64
	}{{50, 1, 1e-12}, {50, 3, 0.002}, {50, 40, 0.4}, {200, 5, 0.001}, {200, 150, 0.55}, {400, 10, 0.0021}, {400, 390, 0.9}} {
		want := refTail(c.n, c.i, c.x) // P(U_(i) <= x) = P(Bin(n, x) >= i)
		got := orderTailTerm{n: c.n, k: c.i, x: c.x}.exact()
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("n = %d, i = %d, x = %g: I_x = %.15g, exact %.15g", c.n, c.i, c.x, got, want)
		}
	}
}

// bandCrossing returns the exact probability that some order statistic of n uniforms at the
// given ranks leaves its band (a, b), by a dynamic program over the band's ends in increasing order: the
// state is the number of values at or below the current point, which moves between points
// as a binomial draw of the values still above.
func bandCrossing(n int, ranks []int, a, b []float64) float64 {
	type point struct {
		t     float64
		i     int
		lower bool
	}
	var pts []point
	for j, r := range ranks {
		pts = append(pts, point{a[j], r, true}, point{b[j], r, false})
	}
	slices.SortFunc(pts, func(x, y point) int {
		switch {
		case x.t < y.t:
			return -1
		case x.t > y.t:
			return 1
		}
		return 0
	})
	p := make([]float64, n+1)
	p[0] = 1
	prev := 0.0
	for _, pt := range pts {
		q := (pt.t - prev) / (1 - prev) // each value still above prev falls at or below t
		next := make([]float64, n+1)
		for j, pj := range p {
			if pj == 0 {
				continue
			}
			m := n - j
			term := math.Pow(1-q, float64(m)) // k = 0 of Bin(m, q)
			for k := 0; k <= m; k++ {
				next[j+k] += pj * term
				if k < m {
					term *= float64(m-k) / float64(k+1) * q / (1 - q)
				}
			}
		}
		p, prev = next, pt.t
		for j := range p {
			// U_(i) > a_i: at most i-1 values at or below a_i; U_(i) < b_i: at least i below b_i.
			if pt.lower && j > pt.i-1 || !pt.lower && j < pt.i {
				p[j] = 0
			}
		}
	}
	var pass float64
	for _, pj := range p {
		pass += pj
	}
	return 1 - pass
}

// TestOrderTailsNearExact computes the exact probability that a correct sample fails at the
// limit OrderTailsLimit gives, by a dynamic program over the band of each judged order
// statistic: never above alpha (the union bound holds), and the union bound's slack measured:
// within a factor of 4 of alpha at every n and rate tried.
func TestOrderTailsNearExact(t *testing.T) {
	for _, n := range []int{10, 50, 150, 400} {
		for _, alpha := range []float64{0.05, 1e-3, 1e-5} {
			c, _, err := OrderTailsLimit(n, alpha)
			if err != nil {
				t.Fatal(err)
			}
			ranks, _ := OrderTailsRanks(n)
			a, b := make([]float64, len(ranks)), make([]float64, len(ranks))
			for j, r := range ranks {
				ar, br := float64(r), float64(n-r+1)
				a[j] = mathext.InvRegIncBeta(ar, br, c)
				b[j] = 1 - mathext.InvRegIncBeta(br, ar, c)
			}
			exact := bandCrossing(n, ranks, a, b)
			t.Logf("n = %d, alpha = %g: exact false-failure rate %.3g (alpha / %.2f)", n, alpha, exact, alpha/exact)
			if exact > alpha*(1+1e-6) || exact < alpha/4 {
				t.Errorf("n = %d, alpha = %g: exact rate %.3g, want in [alpha/4, alpha]", n, alpha, exact)
			}
		}
	}
}

// TestOrderTailsSimulation: seeded correct samples of 1000 uniforms fail at alpha = 0.05 no
// more often than alpha allows.
func TestOrderTailsSimulation(t *testing.T) {
	const n, alpha, trials = 1000, 0.05, 2000
	c, _, _ := OrderTailsLimit(n, alpha)
	r := rand.New(rand.NewPCG(5, 6))
	u := make([]float64, n)
	fails := 0
	for range trials {
		for i := range u {
			u[i] = r.Float64()
		}
		slices.Sort(u)
		if p, _, _, err := OrderTails(n, sliceBounds(u, u)); err != nil {
			t.Fatal(err)
		} else if p <= c {
			fails++
		}
	}
	if limit := alpha*trials + 4.5*math.Sqrt(alpha*(1-alpha)*trials); float64(fails) > limit {
		t.Errorf("%d of %d correct samples failed at alpha %g", fails, trials, alpha)
	}
	t.Logf("%d of %d correct samples failed at alpha %g", fails, trials, alpha)
}

// TestOrderTailsErrors: bad input gets an *InputError.
func TestOrderTailsErrors(t *testing.T) {
	for _, c := range []struct{ lower, upper []float64 }{
		{[]float64{0.2}, []float64{0.1}},
		{[]float64{-0.1}, []float64{0.1}},
		{[]float64{0.1}, []float64{1.1}},
		{[]float64{math.NaN()}, []float64{0.1}},
		{[]float64{0.5, 0.4}, []float64{0.5, 0.6}},
		{[]float64{0.4, 0.5}, []float64{0.7, 0.6}},
	} {
		if _, _, _, err := OrderTails(len(c.lower), sliceBounds(c.lower, c.upper)); !isInput(err) {
			t.Errorf("OrderTails(%v, %v): %v, want an *InputError", c.lower, c.upper, err)
		}
	}
	if _, _, _, err := OrderTails(3, nil); !isInput(err) {
		t.Errorf("OrderTails(3, nil): %v", err)
	}
	for _, n := range []int{0, -1, MaxN + 1} {
		if _, _, _, err := OrderTails(n, sliceBounds(nil, nil)); !isInput(err) {
			t.Errorf("OrderTails(%d): %v", n, err)
		}
		if _, err := OrderTailsRanks(n); !isInput(err) {
			t.Errorf("OrderTailsRanks(%d): %v", n, err)
		}
		if _, _, err := OrderTailsLimit(n, 0.1); !isInput(err) {
			t.Errorf("OrderTailsLimit(%d, 0.1): %v", n, err)
		}
	}
	for _, a := range []float64{0, 1, math.NaN()} {
		if _, _, err := OrderTailsLimit(10, a); !isInput(err) {
			t.Errorf("OrderTailsLimit(10, %v): %v", a, err)
		}
	}
}

// TestOrderTailsProperties: the statistic is a probability at a judged rank, and moving the
// smallest position to 0 never makes the tails less extreme.
func TestOrderTailsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := rapid.SliceOfN(rapid.Float64Range(0, 1), 1, 200).Draw(t, "u")
		slices.Sort(u)
		n := len(u)
		p, rank, _, err := OrderTails(n, sliceBounds(u, u))
		if err != nil || !(p >= 0 && p <= 1) || rank < 1 || rank > n {
			t.Fatalf("OrderTails = %g at %d, %v", p, rank, err)
		}
		v := slices.Clone(u)
		v[0] = 0
		if q, _, _, _ := OrderTails(n, sliceBounds(v, v)); q > p && p < 0.5 {
			t.Fatalf("moving the smallest to 0 raised the statistic from %g to %g", p, q)
		}
	})
}
