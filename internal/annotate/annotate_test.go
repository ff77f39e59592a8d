package annotate

import (
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	var b strings.Builder
	err := Write(&b, []Annotation{
		{Level: Error, File: "a/b_test.go", Line: 12, Title: "flaky: TestX, 3 of 10", Message: "50% fail\nreplay: go test -run '^TestX$'"},
		{Level: Warning, File: "c,d:e.go", Message: "100% sure"},
		{Message: "no file"},
	})
	want := "::error file=a/b_test.go,line=12,title=flaky%3A TestX%2C 3 of 10::50%25 fail%0Areplay: go test -run '^TestX$'\n" +
		"::warning file=c%2Cd%3Ae.go::100%25 sure\n" +
		"::warning::no file\n"
	if err != nil || b.String() != want {
		t.Errorf("got (%v)\n%s\nwant\n%s", err, b.String(), want)
	}
}

func TestInActions(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "": false, "false": false, "1": false} {
		if got := InActions(func(string) string { return v }); got != want {
			t.Errorf("GITHUB_ACTIONS=%q: %v, want %v", v, got, want)
		}
	}
}
