package main

import (
	"cmp"
	"fmt"
	"go/format"
	"io"
	"os"
	"slices"

	"golang.org/x/tools/go/analysis/checker"
)

// An edit replaces bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// applyFixes applies the first suggested fix of every finding in the root packages, once
// (a file in a package and in its test variant gets the same fix twice), formats each file
// it changes and writes it back. An edit that overlaps another is left out and reported. It
// returns 1 when a file could not be fixed, else 0: findings that were fixed are no failure.
func applyFixes(graph *checker.Graph, stderr io.Writer) int {
	edits := map[string][]edit{}
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			for _, e := range d.SuggestedFixes[0].TextEdits {
				file := act.Package.Fset.File(e.Pos)
				ed := edit{file.Offset(e.Pos), file.Offset(e.End), string(e.NewText)}
				if !slices.Contains(edits[file.Name()], ed) {
					edits[file.Name()] = append(edits[file.Name()], ed)
				}
			}
		}
	}
	code := 0
	for name, es := range edits {
		if err := fixFile(name, es, stderr); err != nil {
			fmt.Fprintf(stderr, "spreadvet: %v\n", err)
			code = 1
		}
	}
	return code
}

// fixFile applies edits to the file name, formats it and writes it.
func fixFile(name string, es []edit, stderr io.Writer) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	slices.SortStableFunc(es, func(a, b edit) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end)) })
	var out []byte
	at := 0
	for _, e := range es {
		if e.start < at || e.end > len(src) {
			fmt.Fprintf(stderr, "spreadvet: %s: a fix at offset %d overlaps another; left out\n", name, e.start)
			continue
		}
		out = append(append(out, src[at:e.start]...), e.text...)
		at = e.end
	}
	out = append(out, src[at:]...)
	formatted, err := format.Source(out)
	if err != nil {
		return fmt.Errorf("%s: the fixed file does not parse: %v", name, err)
	}
	return os.WriteFile(name, formatted, 0o644)
}
