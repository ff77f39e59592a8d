package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// realModules are the retry and backoff modules spreadvet is measured on.
var realModules = []string{
	"github.com/cenkalti/backoff/v4@v4.3.0",
	"github.com/avast/retry-go/v4@v4.7.0",
	"github.com/sethvargo/go-retry@v0.5.0",
	"github.com/hashicorp/go-retryablehttp@v0.7.8",
}

// reviewed holds the verdict on each finding, reached by reading the code it points at,
// keyed by module, file and the pattern the message names. A finding not listed here fails
// the test: every row of the table has been read by a person.
var reviewed = map[string]string{
	"github.com/cenkalti/backoff/v4@v4.3.0 exponential_test.go blind test":            "true positive: TestBackOff checks each NextBackOff only against [interval - 10%, interval + 10%]; a NextBackOff that returns the interval itself (no randomization) passes",
	"github.com/hashicorp/go-retryablehttp@v0.7.8 client.go clock-derived randomness": "true positive: LinearJitterBackoff makes rand.New(rand.NewSource(int64(time.Now().Nanosecond()))) on every call (\"doing this every time is fine\"); calls within one clock step draw the same jitter",
}

var findingLine = regexp.MustCompile(`^([^:]+\.go):(\d+):\d+: ([a-z -]+): `)

// TestRealModules runs the standalone checker on each module, downloaded through the module
// proxy into a temporary folder, and pins the table of findings in testdata/realworld.md. It
// downloads and analyzes four modules, so it is a long test:
//
//	SPREADCHECK_LONG=1 go test ./cmd/spreadvet -run TestRealModules -update
func TestRealModules(t *testing.T) {
	longtest.Skip(t)
	bin := buildTool(t)
	var b strings.Builder
	b.WriteString("| module | finding | verdict |\n|---|---|---|\n")
	fps := 0
	for _, m := range realModules {
		rows := findings(t, bin, m)
		if len(rows) == 0 {
			fmt.Fprintf(&b, "| %s | none | - |\n", m)
		}
		for _, r := range rows {
			verdict, ok := reviewed[m+" "+r.file+" "+r.pattern]
			if !ok {
				t.Errorf("%s: unreviewed finding %s:%s: %s", m, r.file, r.line, r.pattern)
				verdict = "UNREVIEWED"
			}
			if strings.HasPrefix(verdict, "false positive") {
				fps++
			}
			fmt.Fprintf(&b, "| %s | %s:%s %s | %s |\n", m, r.file, r.line, r.pattern, verdict)
		}
	}
	fmt.Fprintf(&b, "\nFalse positives: %d.\n", fps)
	golden.Check(t, filepath.Join("testdata", "realworld.md"), b.String()) // after -update, review the findings
}

type finding struct{ file, line, pattern string }

// findings downloads module m, copies it to a temporary folder and runs the checker on it.
func findings(t *testing.T, bin, m string) []finding {
	t.Helper()
	dir := copyModule(t, m)
	cmd := exec.Command(bin, "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run() // exit 3 when there are findings
	var rows []finding
	for _, line := range strings.Split(stderr.String(), "\n") {
		line = strings.TrimPrefix(line, dir+string(filepath.Separator))
		if m := findingLine.FindStringSubmatch(line); m != nil {
			rows = append(rows, finding{m[1], m[2], m[3]})
		} else if strings.TrimSpace(line) != "" {
			t.Errorf("%s: unexpected output %q", m, line)
		}
	}
	return rows
}
