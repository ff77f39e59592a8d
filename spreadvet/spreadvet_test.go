package spreadvet_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/spreadcheck/spreadcheck/spreadvet"
)

// TestFindings runs the analyzer on the fixtures under testdata/src: every diagnostic and
// every fact must be one a // want comment asks for, and every want must be met. The
// fixtures hold the code that must not be flagged too, with no want.
func TestFindings(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), spreadvet.Analyzer,
		"bidder", "backoff", "backoffuse", "clockrand", "onesided", "truncation", "sleeploop", "deadseam", "clean")
}
