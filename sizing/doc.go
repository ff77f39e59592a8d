// Package sizing turns a false-failure rate into the limits of statistical checks, and back
// into the sample size a check needs.
//
// Every function here answers one question: given a target false-failure rate alpha (the
// probability that a check fails one run on a correct implementation), a sample size n and a
// declared distribution, where must the limit of a check sit? The answers are exact where an
// exact computation is affordable (dynamic programs, the Marsaglia-Tsang-Wang matrix, Eulerian
// numbers) and otherwise a proven bound (Hoeffding, Bernstein, DKW-Massart), never an
// asymptotic quantile taken at a tail where it is too permissive. Functions that can choose
// between methods return a method string that says which one they used, so that a report can
// explain how its limit was derived.
//
// The package has no dependency on package testing: it is the statistics only.
package sizing
