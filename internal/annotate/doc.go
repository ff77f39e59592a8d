// Package annotate writes GitHub Actions workflow commands: the ::warning and ::error lines
// that the Actions runner takes from a step's output and shows as annotations on the lines of
// a pull request. The runner annotates flaky and failing tests at their func lines, the audit
// the sites whose mutants survived.
package annotate
