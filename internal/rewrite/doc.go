// Package rewrite is spreadcheck audit's code generator: for each place where randomness
// enters a package (a Draw), the call that replaces it and the helper that call reaches, and
// the schema file (Schema) that holds every helper of a package and chooses, from the
// environment (MutantEnv) or fixed at build time, which mutant is active.
//
// The mutants are those of package mutants' four classes (constant, sign-flip,
// clock-derived, collapsed-range), applied to the draw's value rather than to a jitter
// function: a helper evaluates the original draw exactly once, in the same order, and only
// then replaces its value, so a seeded source still yields the same sequence to every other
// draw. Only internal/audit uses this package.
package rewrite
