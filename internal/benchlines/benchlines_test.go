package benchlines

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRead(t *testing.T) {
	in := ` 00:30:53 up  7:05,  0 user,  load average: 1.35, 2.14, 2.57
goos: linux
BenchmarkSideBySide-2   	       1	        10.00 gremlins-mutants	  0.1172 spreadcheck-s/mutant
BenchmarkFleet/floor-16	1	391.5 ns/tick	x ns/op
#   BenchmarkOld-2	1	5 ns/op
BenchmarkShort-2
PASS
`
	got, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Line{
		{"SideBySide", map[string]float64{"gremlins-mutants": 10, "spreadcheck-s/mutant": 0.1172}},
		{"Fleet/floor", map[string]float64{"ns/tick": 391.5}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Read (-want +got):\n%s", diff)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}
