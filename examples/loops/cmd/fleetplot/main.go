// Command fleetplot measures the loop shapes of package loops (examples/loops/internal/
// shapetable), writes the docs' table, and draws each shape's fleet load over one interval
// as an SVG: 100,000 copies started in lockstep, their events in interval [1s, 2s) counted in
// 10 ms buckets, as multiples of an even spread.
//
// It is a module of its own, so that gonum.org/v1/plot stays out of the dependencies of the
// kit's users. From this directory:
//
//	go run .
//
// rewrites ../../internal/shapetable/testdata/shapes.md and ../../testdata/load-*.svg (with
// -png dir, a PNG of each picture too, to look at).
package main

import (
	"flag"
	"fmt"
	"image/color"
	"log"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/spreadcheck/spreadcheck/examples/loops/internal/shapetable"
)

func main() {
	table := flag.String("table", "../../internal/shapetable/testdata/shapes.md", "the table's file")
	dir := flag.String("svg", "../../testdata", "the directory of the pictures")
	pngDir := flag.String("png", "", "if set, a directory for a PNG of each picture")
	seed := flag.Uint64("seed", shapetable.Seed, "the fleets' seed")
	flag.Parse()
	log.SetFlags(0)
	var rows []shapetable.Row
	for _, s := range shapetable.Shapes() {
		r, err := shapetable.Measure(s, *seed)
		if err != nil {
			log.Fatal(err)
		}
		rows = append(rows, r)
		for _, out := range []struct{ dir, ext string }{{*dir, "svg"}, {*pngDir, "png"}} {
			if out.dir == "" {
				continue
			}
			path := filepath.Join(out.dir, fmt.Sprintf("load-%s.%s", s.File, out.ext))
			if err := draw1(r, path); err != nil {
				log.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(*table, []byte(shapetable.Markdown(rows)), 0o644); err != nil {
		log.Fatal(err)
	}
}

// draw1 draws a row's load over interval 1 to path (SVG or PNG by its extension).
func draw1(r shapetable.Row, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s copies started together", r.Shape.Name, thousands(shapetable.LoadLoops))
	p.X.Label.Text = "time in the interval [1s, 2s) (10 ms buckets)"
	p.Y.Label.Text = "load / even spread"
	n := float64(len(r.Load))
	hist := &plotter.Histogram{Width: 1 / n, FillColor: color.RGBA{R: 70, G: 110, B: 180, A: 255}}
	for i, v := range r.Load { // bucket i is [1s + i/n, 1s + (i+1)/n)
		hist.Bins = append(hist.Bins, plotter.HistogramBin{Min: 1 + float64(i)/n, Max: 1 + float64(i+1)/n, Weight: v})
	}
	even := plotter.NewFunction(func(float64) float64 { return 1 })
	even.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	even.Color = color.RGBA{R: 200, A: 255}
	p.Add(hist, even)
	p.Legend.Add("an even spread", even)
	p.Legend.Top = true
	p.X.Min, p.X.Max = 1, 2
	p.Y.Min, p.Y.Max = 0, max(2, top(r.Load)*1.1)
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	return p.Save(6*vg.Inch, 2.6*vg.Inch, path)
}

func top(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// thousands prints n with commas, e.g. 100,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
