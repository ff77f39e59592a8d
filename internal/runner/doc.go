// Package runner runs a Go package's tests many times and reports, per test, how often each one
// fails, with a confidence interval, and how to replay every failing run.
//
// It is the engine behind the spreadcheck command, kept apart from it so that other tools
// (spreadcheck audit, which runs a code base's tests many times per mutant) can drive it from Go:
//
//	pkgs, err := runner.Build(ctx, runner.BuildOptions{Patterns: []string{"./..."}, OutDir: dir})
//	recs, err := runner.Execute(ctx, runner.MainJobs(pkgs, opts), opts)
//	rep := runner.Summarize(recs, runner.SummaryOptions{})
//	rep.WriteText(os.Stdout)
//
// or in one call, RunSession.
//
// Each package is built once with go test -c (vet runs as go test runs it; its failure is a
// build failure). Its binary runs in the package directory with -test.v=test2json and
// -test.paniconexit0, each process in a process group of its own (ended with the run, so that
// nothing it started outlives it; on Linux it dies with the runner), its output going straight
// to a file. A process makes one run or several in turn (-test.count, Options.Batch): by
// default as many as keep its start-up under 5% of its work, measured as the session goes.
// Iteration i of a test in a process whose SPREADCHECK_SEED is s draws from
// replay.IterationSeed(s, i) (package spread does this, and records the seed with t.Attr);
// every result carries its own seed, and the replay command runs that iteration alone.
//
// The output is parsed in-process into one outcome per test and run: Pass, Fail, Skip, Crash
// (the process died while the test ran: a panic in a goroutine, os.Exit, a fatal error; the
// panicking goroutine's stack names the test) or Hang (the timeout expired while it ran). A
// crash or hang ends only its run: the tests it cut short and the runs the process did not
// reach are made in new processes. What belongs to no test (init, TestMain, a leak check) is
// reported under PackageTest, which has a result in every process.
//
// The report gives each test's failure rate with a 95% Clopper-Pearson interval,
// the seed and replay command of every failing run (ReplayCommand), for tests that recorded the
// false-failure rate of their spread checks with t.Attr (AttrAlpha) whether their failures are
// more than that sizing explains (a binomial tail), and, from replays of failing seeds, whether the
// failures depend on the seed (Fisher's exact test against the test's own rate).
package runner
