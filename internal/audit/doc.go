// Package audit finds where randomness enters a Go module and proves which broken versions
// of it the module's tests let through: the engine of spreadcheck audit.
//
// Sites are found with types (go/packages): calls into math/rand, math/rand/v2 and
// crypto/rand, package functions and *rand.Rand methods alike, calls of an interface whose
// every method is a *rand.Rand draw or Seed, calls through func-typed variables and fields
// whose default is one of those, and clock readings used as numbers
// (t.UnixNano() % n, a source seeded from the clock). Test files are not searched; a
// //spreadcheck:ignore comment on a line skips its sites.
//
// Each site is rewritten into the four classes of package mutants (constant, sign-flip,
// clock-derived, collapsed-range) by the operators of rewrite.Draw. The rewrites reach the go
// command as an overlay (go test -overlay) from a temporary folder: the audited tree is only
// ever read. By default every mutant of a package is compiled into one mutant schema, a
// switch read from the environment; Config.PerMutant builds one binary per mutant instead.
//
// Verdicts are statistical. The schema itself traces which tests reach each site (one run
// per test). The tests of one binary that reach a site form its group: they run together,
// R times unmutated for each test's baseline failure rate, then under each of the site's
// mutants in looks of R/8, R/4, R/2 and R runs, always with the same -run set and in test
// processes of the same number of runs (Config.Batch; by default chosen from the start-up and
// test times the trace measured), so that a mutant's runs are made in the conditions of its
// baseline's. A mutant is killed when some test fails more often than at baseline by
// Fisher's exact test at the family's false-kill rate split over every comparison and look
// (Bonferroni), and survives once it has run R times without that, or once no run left could
// kill it. Tests that fail every baseline run are left out, with a warning; a test that fails
// less often under a mutant is reported too.
package audit
