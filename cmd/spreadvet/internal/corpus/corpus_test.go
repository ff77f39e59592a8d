package main

import (
	"path/filepath"
	"testing"
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
