package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// TestSmall pins the table of a small input whose figures can be checked by hand: for the
// Duration sample, analyze's median time is 0.9 ms, and its ratios to the floor within each
// run are 10, 15 and 5, whose median 10 is not the ratio of the medians (0.9 ms / 60 µs = 15).
func TestSmall(t *testing.T) {
	checkTable(t, "testdata/small.txt", "testdata/small.md")
}

// TestREADMETable pins the docs' table: this command's output on the recorded run
// (go test ./cmd/table -update rewrites it; go test ./internal/readme -update in the main
// module copies it into the docs).
func TestREADMETable(t *testing.T) {
	checkTable(t, "../../RESULTS.txt", "../../testdata/table.md")
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"PASS\nok\n", "no benchmark lines"},
		{"BenchmarkSpread/float64/n=1000-2 \t three\t 1 ns/op\n", "stdin:1: parsing iteration count"},
	} {
		err := run(strings.NewReader(c.in), new(bytes.Buffer))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run on %q: err = %v, want one containing %q", c.in, err, c.want)
		}
	}
}

func checkTable(t *testing.T, input, want string) {
	t.Helper()
	in, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, want, out.String())
}

// An even count of runs has no middle run: the table shows the lower of the two middle ones,
// a figure one run measured, not an average that no run measured.
func TestMedianEvenCount(t *testing.T) {
	if got := med([]float64{4, 1, 3, 2}); got != 2 {
		t.Errorf("med(4, 1, 3, 2) = %v, want 2 (the lower middle value)", got)
	}
	if got := med(nil); got != -1 {
		t.Errorf("med() = %v, want -1 (no value: an empty cell)", got)
	}
}

func TestScaled(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{duration(999.6e-9), "1.00 µs"}, // rounds up to the next unit, not "1000 ns"
		{duration(45.1e-6), "45.1 µs"},
		{duration(2.5), "2.50 s"},
		{size(8192), "8.19 kB"},
		{size(-1), ""}, // no run had the figure
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
