// Package resultsfile holds what a session records: a Record per test process (its package,
// runs, seed, phase and one testout.TestResult per test and run), and the results file that
// keeps them as JSON lines (Header, one Line per record, End) so that a session killed half
// way keeps what it made, and so that shards run on different machines merge into one
// session (MergeResults, Shard, ShardFromEnv). ReplayCommand turns a record's failing run into
// the shell command that replays it.
//
// It is the format between the runner, which writes records, and everything that reads them
// back (package testreport, spreadcheck merge and compare); it runs nothing.
package resultsfile
