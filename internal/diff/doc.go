// Package diff reads which lines a change added or modified: from a unified diff (the output
// of git diff or diff -u, as CI systems hand one over), or from git itself, against the merge
// base of a ref. spreadcheck audit -diff audits only the sites on those lines, and spreadcheck
// -diff runs only the tests that the change touched.
package diff
