// Package runner runs a Go package's tests many times and reports, per test, how often each one
// fails, with a confidence interval, and how to replay every failing run.
//
// It is the engine behind the spreadcheck command, kept apart from it so that other tools
// (spreadcheck audit, which runs a code base's tests many times per mutant) can drive it from Go:
//
//	pkgs, err := testbin.Build(ctx, testbin.BuildOptions{Patterns: []string{"./..."}, OutDir: dir})
//	recs, err := runner.Execute(ctx, runner.MainJobs(pkgs, opts), opts)
//	rep := testreport.Summarize(recs, testreport.SummaryOptions{})
//	rep.WriteText(os.Stdout)
//
// or in one call, RunSession. Options is the one description of how to run the tests, which
// the audit's configuration embeds.
//
// This package schedules and orchestrates; the other jobs are each a package of their own:
//
//	testbin      build test binaries (go list, go test -c, the binary cache) and start them as processes
//	testout      parse a test binary's output into one outcome per test and run
//	resultsfile  the Record of a process, the results file, merging shards, replay commands
//	testreport   the Report: rates, intervals and verdicts, and its text, Markdown, JUnit, JSON and GitHub formats
//	runner       Options, jobs and their scheduling (Execute), reruns and replays, sessions (RunSession)
//
// Each imports only those above it in this list (TestPackageLayers keeps it so).
//
// A process makes one run or several in turn (-test.count, Options.Batch): by default as many
// as keep its start-up under 5% of its work, measured as the session goes. Iteration i of a
// test in a process whose SPREADCHECK_SEED is s draws from replay.IterationSeed(s, i) (package
// spread does this, and records the seed with t.Attr); every result carries its own seed, and
// the replay command runs that iteration alone. A crash or hang ends only its run: the tests it
// cut short and the runs the process did not reach are made in new processes.
package runner
