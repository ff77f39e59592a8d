// Package benchspread measures spread's default battery (spread.Analyze, what spread.Check
// runs) beside what any exact check of the sample's order statistics must pay, and beside the
// nearest computation a peer library offers, side by side in one go test -bench run. It is a
// module of its own so that users of spreadcheck never download what only the benchmark needs.
//
// Each benchmark is one sample type at one n: a time.Duration sample over [0, 1s) or a float64
// sample over [0, 1), at n = 1,000 and n = 1,000,000. Each of its rounds runs, one after
// another in an order that rotates from one round to the next (so that the load of a shared
// machine falls on all of them alike), and reports each one's time and bytes allocated:
//
//   - analyze: spread.Analyze with the default battery, its limits already sized at this n
//     (spread caches them per n and false-failure rate, as a test suite calling Check meets
//     them again and again);
//   - first: spread.Analyze at an n no call has sized before, which sizes every limit: the
//     sample less its last k values, k counting the first calls made so far in the process
//     (the n = 1,000 benchmarks run first: with -benchtime 3x -count 11 they make 66 first
//     calls, at n from 999 down to 934);
//   - floor: copying the sample and sorting the copy, which any exact order-statistic check
//     must pay;
//   - gonum: the one-sample Kolmogorov-Smirnov distance to the uniform CDF as gonum computes
//     it: the sample copied to float64 and sorted, then one pass with distuv.Uniform's CDF
//     (gonum's stat.KolmogorovSmirnov compares two samples, not a sample and a distribution).
//     It is a statistic only: no limit sized from a false-failure rate, no other check, no
//     report.
//
// Run it, and make the docs' table, from this directory:
//
//	(uptime; go test -run '^$' -bench . -benchtime 3x -count 11 -timeout 1h; uptime) 2>&1 | tee RESULTS.txt
//	go run ./cmd/table < RESULTS.txt > testdata/table.md
//
// (then go test ./internal/readme -update in the repository's root copies the table in).
// cmd/table takes each figure's median over the runs, and each ratio within a round before
// its median. Plain go test runs no benchmark.
package benchspread
