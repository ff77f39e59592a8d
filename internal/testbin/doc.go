// Package testbin builds a Go package's test binary and starts it as a process: the part of a
// session that talks to the go command and to the operating system.
//
// Build lists the packages that have tests (go list) and builds each once with go test -c
// (vet runs as go test runs it; its failure is a build failure, Package.Stage says where),
// keeping the binaries in the user's cache (Cache) so that an unchanged package is not linked
// again. RunProcess runs one binary in its package directory, in a process group of its own
// that ends with the run (so that nothing it started outlives it; on Linux it dies with the
// runner), its output going straight to a file, under a watchdog that asks for a goroutine
// dump (SIGQUIT) before it kills; Exit says how it ended. TestFuncs reads where a package's
// test funcs are declared, for the annotations and for choosing the tests a change touched.
//
// It is apart from the parsing of the output (package testout) and from the scheduling of
// runs (package runner) because it is the one place that knows about processes, signals and
// the go command. The variables WatchdogGrace, KillGrace, StartCmd, AfterStart and AfterExit
// exist so that the runner's tests can make faults deterministic, and GoCmd so that they can
// count the builds.
package testbin
