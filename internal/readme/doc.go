// Package readme keeps the figures in the repository's README.md and docs/*.md pages true:
// every block fenced by
//
//	<!-- golden: spread/testdata/calibration.md -->
//	...
//	<!-- end golden -->
//
// must hold exactly the named file (inside a code fence, when the block opens with one), which a
// test or command of the repository writes (its golden output, regenerated with that test's
// -update flag). The package's test fails when a page's block and its file differ, and
//
//	go test ./internal/readme -update
//
// copies every file into its block. So a figure in the documentation is produced by a command,
// never typed, and cannot drift from what the command prints. The test also checks that every
// link of the pages names a file or a heading that exists.
package readme
