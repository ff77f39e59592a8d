// Package spreadvet is a static checker (a golang.org/x/tools/go/analysis Analyzer) for the
// code and the tests of randomized Go programs: retry backoff with jitter, loops that jitter
// their phase. It finds, without running anything:
//
//   - blind tests: a test draws a random function (by name, through a func value or an
//     interface, or through a method that reads a draw an earlier call stored; bytes from
//     crypto/rand or math/rand's Read are draws too) many times, or a few times, and
//     asserts only signs or bounds of the results (directly, with testify, gotest.tools,
//     quicktest or its own helpers), or nothing, or only the length and the alphabet (or a
//     regexp) of a random string, so a constant passes it;
//   - chance and real-time verdicts: a test that fails when two draws are equal (a birthday
//     collision), or checks wall-clock time while it draws a random wait (or leaves a loop
//     of random waits on a real gap between two passes), with the chance that it fails
//     correct code where package sizing can compute it;
//   - hand-sized tolerances: a mean or a count of random output compared with a typed
//     literal (or each count of a per-category tally, counts[r]++, held in a typed band),
//     with the false-failure rate that literal gives where package sizing can compute it;
//   - clock-derived randomness: a clock reading taken modulo n, its parity, the fraction of
//     the current second, or a source seeded from the clock on every call;
//   - one-sided offsets where a comment or name says ± (and symmetric offsets where it says
//     one-sided);
//   - truncating conversions: an integer conversion of a fraction, always 0;
//   - random sleep loops: time.Sleep of a random duration pacing a periodic task with no
//     ticker (a load generator's think time is no pace);
//   - dead seams: a *rand.Rand field or parameter that nothing reads while the code draws
//     from the global source.
//
// Each diagnostic names the pattern and the fix; a suggested fix comes with it where the
// rewrite is safe. Analyzer is importable, so golangci-lint's module plugins (package
// spreadvet/plugin) and custom drivers can run it; the command cmd/spreadvet runs it
// standalone and as go vet -vettool.
package spreadvet
