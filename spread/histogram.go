package spread

import (
	"fmt"
	"math"
	"strings"
)

// histogramBins is the number of bins the report's histogram shows across the declared range.
const histogramBins = 32

// bars are the Unicode block heights, from empty to full.
var bars = []rune(" ▁▂▃▄▅▆▇█")

// histogram draws the sample over the declared range, one block per bin, scaled so that the
// fullest bin is a full block, with the counts outside the range at either end. The expected
// height of a correct sample is marked under it.
func (s *sample) histogram() string {
	var counts [histogramBins]int
	for _, x := range s.xs {
		p := s.pos(x)
		if !s.dist.uniform {
			p = min(p, math.Nextafter(1, 0)) // a CDF reaches 1 at the top of its support
		}
		if p < 0 || p >= 1 || (!s.dist.uniform && (x < s.dist.lo || x > s.dist.hi)) {
			continue
		}
		counts[min(int(p*histogramBins), histogramBins-1)]++
	}
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	var line strings.Builder
	for _, c := range counts {
		h := 0
		if top > 0 {
			h = (c*(len(bars)-1) + top - 1) / top // any non-empty bin shows at least the lowest block
		}
		line.WriteRune(bars[h])
	}
	lo, hi := s.edges()
	expect := float64(s.n) / histogramBins
	var b strings.Builder
	fmt.Fprintf(&b, "  sample over the declared range, %d bins (a correct sample fills each with about %.3g; fullest bin here: %d):\n", histogramBins, expect, top)
	fmt.Fprintf(&b, "    %s%s |%s| %s%s\n", outsideText(s.below, "(%d below) "), lo, line.String(), hi, outsideText(s.above, " (%d above)"))
	return b.String()
}

// edges prints the ends of the histogram: the declared range, or for an unbounded distribution
// its quantiles, since its bins are equal in probability.
func (s *sample) edges() (string, string) {
	if s.dist.uniform {
		return s.format(s.dist.lo), s.format(s.dist.hi)
	}
	return "F=0", "F=1"
}

func outsideText(n int, format string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(format, n)
}
