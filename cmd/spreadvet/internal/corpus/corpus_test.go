package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
	"github.com/spreadcheck/spreadcheck/internal/longtest"
)

// corpusDir is the committed corpus, from this package's folder.
var corpusDir = filepath.Join("..", "..", "testdata", "corpus")

// kinds are the pattern names spreadvet prints, and none.
var kinds = map[Kind]bool{
	"blind test": true, "chance verdict": true, "real-time verdict": true, "hand-sized tolerance": true,
	"clock-derived randomness": true, "one-sided offset": true, "two-sided offset": true,
	"truncating conversion": true, "random sleep loop": true, "dead seam": true, None: true,
}

// TestCommittedCorpusReads checks that the committed corpus parses, that every label is on a
// listed module and names a pattern spreadvet prints, and that it is the size the docs say.
func TestCommittedCorpusReads(t *testing.T) {
	mods, labels, err := readCorpus(corpusDir, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := 0
	for _, l := range labels {
		for _, k := range l.Kinds {
			if !kinds[k] {
				t.Errorf("%s %s:%d: kind %q is no pattern spreadvet prints", l.Module, l.File, l.Line, k)
			}
		}
		if !l.Negative() {
			cases++
		}
	}
	if len(mods) < 10 || cases < 20 {
		t.Errorf("the corpus has %d modules and %d cases, want at least 10 and 20", len(mods), cases)
	}
}

// TestCorpusScore runs the command on the whole corpus and pins its output, the table of
// docs/spreadvet.md, in testdata/corpus/score.md, and its summary, the README's, in
// testdata/corpus/summary.md. It fetches and analyzes 18 modules, so it is
// a long test; after a change to the checker or the labels:
//
//	SPREADCHECK_LONG=1 go test ./cmd/spreadvet/internal/corpus -run TestCorpusScore -update
func TestCorpusScore(t *testing.T) {
	longtest.Skip(t)
	var out, progress strings.Builder
	if code := run([]string{"-corpus", corpusDir}, &out, &progress); code != 0 {
		t.Fatalf("corpus exited %d:\n%s", code, progress.String())
	}
	golden.Check(t, filepath.Join(corpusDir, "score.md"), out.String())
	golden.Check(t, filepath.Join(corpusDir, "summary.md"), summaryOf(out.String())) // the README's
}

// TestMutantsConfirm re-runs every label's constant mutant and pins the verdicts in
// testdata/corpus/confirm.md: a label whose test no longer passes its mutant fails the run.
//
//	SPREADCHECK_LONG=1 go test ./cmd/spreadvet/internal/corpus -run TestMutantsConfirm -update
func TestMutantsConfirm(t *testing.T) {
	longtest.Skip(t)
	var out, progress strings.Builder
	if code := run([]string{"-corpus", corpusDir, "-confirm"}, &out, &progress); code != 0 {
		t.Fatalf("corpus -confirm exited %d:\n%s", code, progress.String())
	}
	golden.Check(t, filepath.Join(corpusDir, "confirm.md"), out.String())
}
