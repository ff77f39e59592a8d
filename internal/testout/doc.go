// Package testout reads the output of a test binary run with -test.v=test2json into one
// TestResult per test and run: Pass, Fail, Skip, Crash (the process died while the test ran: a
// panic in a goroutine, os.Exit, a fatal error; the panicking goroutine's stack names the test)
// or Hang (the timeout expired while it ran).
//
// A Parser reads a whole run's output (Parse) and, told how the process ended (testbin.Exit),
// settles every test's outcome (Finish): the tests a crash or hang cut short are marked, and
// Stopped says where the process stopped, so that the runner can make the rest again. What
// belongs to no test (init, TestMain, a leak check) is reported under PackageTest. Output is
// kept for failed outcomes only, clipped to MaxOutput per test and MaxRecordOutput per process.
//
// It holds no process and no file: it is a pure function of bytes and an exit, tested on
// recorded output, apart from the package that starts the processes (testbin).
package testout
