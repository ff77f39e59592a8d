// Package cmdtest holds what the tests of the benchmark's commands share: a run whose output
// is pinned in a golden file, input files written for a test, and the check that bad input
// fails as these commands promise (exit status 2, nothing on stdout, an error on stderr that
// says what was wrong).
package cmdtest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// Run is a command's entry point, run(args, stdout, stderr), returning its exit status.
type Run func(args []string, stdout, stderr io.Writer) int

// Golden runs the command on args, fails unless it exits 0, and compares what it prints with
// the golden file (go test -update rewrites it).
func Golden(t *testing.T, run Run, file string, args ...string) {
	t.Helper()
	var out, errs strings.Builder
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, errs.String())
	}
	golden.Check(t, file, out.String())
}

// Write writes text to the file name in dir and returns its path.
func Write(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// BadInput runs the command on each case's arguments, as a subtest named after the case,
// and fails it unless the command exits 2, prints nothing on stdout, and prints an error on
// stderr containing the case's want ("" accepts any error).
func BadInput(t *testing.T, run Run, cases map[string]Case) {
	t.Helper()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errs strings.Builder
			code := run(c.Args, &out, &errs)
			if code != 2 || out.Len() != 0 || errs.Len() == 0 || !strings.Contains(errs.String(), c.Want) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, no output, an error with %q",
					c.Args, code, out.String(), errs.String(), c.Want)
			}
		})
	}
}

// Case is one bad input: the command's arguments, and what its error must say.
type Case struct {
	Args []string
	Want string
}
