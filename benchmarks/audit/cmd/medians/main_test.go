package main

import (
	"strings"
	"testing"
)

// TestMedians: each benchmark's metrics, over three runs and over two, their medians (the
// middle value; the mean of the middle two); ns/op and lines that are no benchmark's are
// left out; no benchmark line is an error.
func TestMedians(t *testing.T) {
	in := `goos: linux
BenchmarkA-2   	1	3.0 x-s	0 ns/op	10 r
BenchmarkA-2   	1	1.0 x-s	0 ns/op	30 r
BenchmarkA-2   	1	2.0 x-s	0 ns/op
BenchmarkB-8   	1	4 y
BenchmarkB-8   	1	6 y
PASS
`
	var out strings.Builder
	if err := run(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := []string{"A r", "median   20.000  (2 runs)", "A x-s", "median    2.000  (3 runs)", "B y", "median    5.000  (2 runs)"}
	got := out.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("output lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "ns/op") || strings.Count(got, "\n") != 3 {
		t.Errorf("want three lines and no ns/op:\n%s", got)
	}
	if err := run(strings.NewReader("PASS\n"), &out); err == nil {
		t.Error("no benchmark lines: no error")
	}
}
