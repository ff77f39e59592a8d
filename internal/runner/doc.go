// Package runner runs a Go package's tests many times and reports, per test, how often each one
// fails, with a confidence interval, and how to replay every failing run.
//
// It is the engine behind the spreadcheck command, kept apart from it so that other tools (the
// coming spreadcheck audit, which runs a code base's tests many times per mutant) can drive it
// from Go:
//
//	pkgs, err := runner.Build(ctx, runner.BuildOptions{Patterns: []string{"./..."}, OutDir: dir})
//	recs, err := runner.Execute(ctx, runner.MainJobs(pkgs, opts), opts)
//	rep := runner.Summarize(recs, runner.SummaryOptions{})
//	rep.WriteText(os.Stdout)
//
// or in one call, RunSession.
//
// Each package is built once with go test -c. Each run of its binary starts in the package
// directory with -test.v=test2json and -test.paniconexit0, its own seed in SPREADCHECK_SEED
// (RunSeed derives it from the session's base seed and the run number, so shards agree) and
// the run number in SPREADCHECK_RUN. The binary's framed output is parsed in-process into one
// Outcome per test: Pass, Fail, Skip, Crash (the process died while the test ran: a panic in a
// goroutine, os.Exit, a fatal error) or Hang (the run hit its timeout while the test ran).
// Nothing is lost when a process dies: the tests that were running are blamed, and a failure
// outside any test is reported under the name PackageTest.
//
// The report gives each test's failure rate with a 95% Clopper-Pearson interval (Interval),
// the seed and replay command of every failing run (ReplayCommand), and, for tests that
// recorded the false-failure rate of their spread checks with t.Attr (AttrAlpha), whether their
// failures are more than that sizing explains (TailProb).
package runner
