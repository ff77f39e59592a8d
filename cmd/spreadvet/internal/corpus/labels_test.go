package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLabels(t *testing.T) {
	in := "# comment\n\n" +
		"m@v1\ta_test.go\t12\tflaky test|blind test\tmutant: a.go:3 `rand.Float64()` -> `0.5`; go test -run '^TestA$' passes\twhy\n" +
		"m@v1\tb.go\t3\tnone\treading: r\twhy not\n"
	got, err := ParseLabels(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Label{
		{Module: "m@v1", File: "a_test.go", Line: 12, Kinds: []Kind{"flaky test", "blind test"}, Confirm: "mutant: a.go:3 `rand.Float64()` -> `0.5`; go test -run '^TestA$' passes", Why: "why"},
		{Module: "m@v1", File: "b.go", Line: 3, Kinds: []Kind{None}, Confirm: "reading: r", Why: "why not"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseLabels (-want +got):\n%s", diff)
	}
	if !got[1].Negative() || got[0].Negative() {
		t.Error("Negative: want only the none label")
	}
	if !got[0].Accepts("blind test") || got[0].Accepts("random sleep loop") || got[1].Accepts(None) {
		t.Error("Accepts: want only the label's own kinds, and never none")
	}
}

func TestParseLabelsRejectsBadLines(t *testing.T) {
	for _, line := range []string{
		"m@v1\ta_test.go\t12\tblind test\tc",                                                       // five fields
		"m@v1\ta_test.go\t0\tblind test\tc\tw",                                                     // line 0
		"m@v1\ta_test.go\t-5\tblind test\tc\tw",                                                    // negative line
		"m@v1\ta_test.go\t1e3\tblind test\tc\tw",                                                   // not an integer
		"m\ta_test.go\t12\tblind test\tc\tw",                                                       // no version
		"m@v1\t/abs/a_test.go\t12\tblind test\tc\tw",                                               // absolute path
		"m@v1\ta_test.txt\t12\tblind test\tc\tw",                                                   // not Go
		"m@v1\ta_test.go\t12\tnone|blind test\tc\tw",                                               // none with a kind
		"m@v1\ta_test.go\t12\tblind test|\tc\tw",                                                   // an empty kind
		"m@v1\ta_test.go\t12\tblind test\t\tw",                                                     // no confirmation
		"m@v1\ta_test.go\t99999999999999999999\tblind test\tc\tw",                                  // overflows int
		"m@v1\ta_test.go\t12\tblind test\tmutant: a.go:3 rand.Float64() -> 0.5; go test passes\tw", // a mutant out of form
	} {
		if _, err := ParseLabels(strings.NewReader(line + "\n")); err == nil {
			t.Errorf("ParseLabels(%q) succeeded, want an error", line)
		}
	}
}

func TestParseModules(t *testing.T) {
	got, err := ParseModules(strings.NewReader("# c\nm@v1\t./a/ ./b/\tgossip\nn@v2\t. -tags=unit,all\tdriver\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Module{{Path: "m@v1", Packages: []string{"./a/", "./b/"}, What: "gossip"}, {Path: "n@v2", Packages: []string{"."}, Tags: "unit,all", What: "driver"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseModules (-want +got):\n%s", diff)
	}
	for _, in := range []string{"m@v1\t \tgossip\n", "m@v1\t-tags=unit\tgossip\n", "m\t.\tgossip\n", "m@v1\t.\n", "m@v1\t.\tx\nm@v1\t.\ty\n"} {
		if _, err := ParseModules(strings.NewReader(in)); err == nil {
			t.Errorf("ParseModules(%q) succeeded, want an error", in)
		}
	}
}

func FuzzParseLabels(f *testing.F) {
	f.Add("m@v1\ta_test.go\t12\tblind test\tc\tw\n")
	f.Add("m@v1\tb.go\t3\tnone\tr\tw\n#x\n")
	f.Fuzz(func(t *testing.T, in string) {
		labels, err := ParseLabels(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, l := range labels {
			if l.check() != nil || l.Line < 1 {
				t.Errorf("ParseLabels accepted a bad label %+v", l)
			}
		}
	})
}
