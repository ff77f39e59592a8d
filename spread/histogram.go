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

// histogram draws the sample over the declared range (or, for Like, the sample and the
// reference over the range of both), one block per bin, scaled so that the
// fullest bin is a full block, with the counts outside the range at either end. The expected
// height of a correct sample is marked under it.
func (s *sample) histogram() string {
	if s.dist.like != nil {
		return s.histogramLike()
	}
	var counts [histogramBins]int
	s.positions(func(p float64) {
		// A position can round to 1 (a value just below the end of a range of 2^64 integers),
		// and a CDF reaches 1 at the top of its support: both go in the last bin.
		counts[min(max(int(p*histogramBins), 0), histogramBins-1)]++
	})
	line, top := bars32(counts, 0)
	lo, hi := s.edges()
	expect := float64(s.n) / histogramBins
	var b strings.Builder
	fmt.Fprintf(&b, "  sample over the declared range, %d bins (a correct sample fills each with about %.3g; fullest bin here: %d):\n", histogramBins, expect, top)
	fmt.Fprintf(&b, "    %s%s |%s| %s%s\n", outsideText(s.below, "(%d below) "), lo, line, hi, outsideText(s.above, " (%d above)"))
	return b.String()
}

// histogramLike draws the sample and the reference over the range of both, on one scale.
func (s *sample) histogramLike() string {
	lo, hi := min(s.sortedKeys[0], s.refSorted[0]), max(s.sortedKeys[s.n-1], s.refSorted[s.n-1])
	fl, fh := s.keyValue(lo), s.keyValue(hi)
	bin := func(key uint64) int {
		if fh <= fl {
			return 0
		}
		return min(max(int((s.keyValue(key)-fl)/(fh-fl)*histogramBins), 0), histogramBins-1)
	}
	var own, ref [histogramBins]int
	for i := range s.n {
		own[bin(s.sortedKeys[i])]++
		ref[bin(s.refSorted[i])]++
	}
	top := 0
	for i := range own {
		top = max(top, own[i], ref[i])
	}
	ownLine, _ := bars32(own, top)
	refLine, _ := bars32(ref, top)
	a, z := s.likeValue(lo), s.likeValue(hi)
	pad := strings.Repeat(" ", max(0, len("reference")-len("sample")))
	var b strings.Builder
	fmt.Fprintf(&b, "  the sample and the reference over the range of both, %d bins (fullest bin: %d):\n", histogramBins, top)
	fmt.Fprintf(&b, "    sample%s    %s |%s| %s\n", pad, a, ownLine, z)
	fmt.Fprintf(&b, "    reference    %s |%s| %s\n", a, refLine, z)
	return b.String()
}

// bars32 draws counts as block heights, scaled so that top (or the fullest bin, when top is 0)
// is a full block, and returns the line and the scale.
func bars32(counts [histogramBins]int, top int) (string, int) {
	if top == 0 {
		for _, c := range counts {
			top = max(top, c)
		}
	}
	var line strings.Builder
	for _, c := range counts {
		h := 0
		if top > 0 {
			h = (c*(len(bars)-1) + top - 1) / top // any non-empty bin shows at least the lowest block
		}
		line.WriteRune(bars[h])
	}
	return line.String(), top
}

// positions calls f with the position in [0, 1] of each value inside the declared range.
func (s *sample) positions(f func(p float64)) {
	switch {
	case s.discrete:
		// The values outside the range sit clamped in the end cells: leave them out.
		for _, k := range s.sortedCells[s.below : s.n-s.above] {
			f(float64(k) / float64(s.cells))
		}
	case s.dist.uniform:
		for _, p := range s.sortedPos {
			if p >= 0 && p < 1 {
				f(p)
			}
		}
	case s.dist.law != nil:
		for _, c := range s.sorted {
			if below, at := s.dist.law.cdf(c); s.dist.law.in(c) {
				f(math.Min((below+at)/2, math.Nextafter(1, 0)))
			}
		}
	default:
		for i, x := range s.sorted {
			if x >= s.dist.lo && x <= s.dist.hi {
				f(s.sortedPos[i])
			}
		}
	}
}

// edges prints the ends of the histogram: the declared range, or for a general distribution
// its probability scale, since its bins are equal in probability.
func (s *sample) edges() (string, string) {
	d := s.dist
	if d.uniform {
		return d.bounds[0], d.bounds[1]
	}
	return "F=0", "F=1"
}

func outsideText(n int, format string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(format, n)
}
