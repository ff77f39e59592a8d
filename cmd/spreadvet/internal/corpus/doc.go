// Command corpus measures spreadvet on real code: it fetches each module of the labelled corpus
// through the Go module proxy into a temporary folder, runs spreadvet over the module's listed
// packages, matches the findings against the labels, and prints precision and recall per
// module and in total, then every miss and every false finding.
//
//	go run ./cmd/spreadvet/internal/corpus
//	go run ./cmd/spreadvet/internal/corpus -module nats.go   # the modules whose path contains nats.go
//	go run ./cmd/spreadvet/internal/corpus -confirm          # re-run the labels' constant mutants
//
// The corpus is cmd/spreadvet/testdata/corpus: modules.tsv lists the modules and the packages
// analyzed in each (with the build tags their tests need, -tags=unit), labels.tsv the cases a
// careful reader found there, each confirmed (a constant mutant that the test still passes,
// or the computed chance that the test fails on correct code), and the code that must not be
// flagged. Nothing fetched is kept; a module whose go.mod replaces its siblings by folders
// has those directives dropped. With -confirm it checks the labels rather than spreadvet:
// each blind test's mutant, written in its label as "mutant: file.go:LINE `old` -> `new`; go
// test [-tags T] -run 'RE' [./pkg] passes", is applied to a fresh copy of the module (one
// copy for the labels that name the same mutant), and the test must still pass.
//
// A finding matches a label when it names one of the label's kinds and lies in the same file,
// in the same function or within three lines of it: spreadvet reports a blind test at the draw
// or at the check, which can be lines apart. A finding is true when it matches a case; every
// other finding is false, and one on code labelled none is marked so. A case no finding
// matches is a miss.
package main
