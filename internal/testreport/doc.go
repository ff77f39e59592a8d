// Package testreport turns a session's records into its report and writes the report.
//
// Summarize aggregates resultsfile.Records into a Report, per package and test: each test's
// failure rate with a 95% Clopper-Pearson interval (Confidence), the seed and replay command of
// every failing run, for tests that recorded the false-failure rate of their spread checks with
// t.Attr (testout.AttrAlpha) whether their failures are more than that sizing explains (a
// binomial tail, NotChance), and, from replays of failing seeds, whether the failures depend on
// the seed (Fisher's exact test against the test's own rate, ReplayCheck). Compare sets two
// sessions' rates side by side. The exit codes (ExitClean ... ExitUnreadable) are defined here,
// once, for spreadcheck and spreadcheck audit, because Report.ExitCode decides them.
//
// The Report writes itself as text (WriteText), Markdown for a pull request's summary
// (WriteMarkdown), JUnit XML (WriteJUnit), JSON (WriteJSON; its schema is testdata/schema.md)
// and GitHub annotations (Annotations): methods, as the audit's report has them, so that the
// command prints either through one interface.
package testreport
