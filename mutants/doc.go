// Package mutants breaks a jitter on purpose, to prove that its tests can fail.
//
// A test of random code has shown nothing until it fails against a plausible wrong version.
// This package builds those wrong versions from a Spec of the correct jitter (its range and
// anchor as functions of the base delay), in four classes:
//
//   - constant: one value on every call (the midpoint of the range);
//   - sign-flip: the random offset applied the wrong way from the anchor, anchor - |x - anchor|:
//     full jitter turns negative, equal jitter drops below its floor, +-p becomes one-sided;
//   - clock-derived: the number read from a clock (the fraction of the current second), on a
//     coarse clock that never moves between calls (a constant) and on a fine clock that
//     steps round the range (a serially correlated sequence covering all of it);
//   - collapsed-range: a healthy random number over the range shrunk by a factor.
//
// Extended adds real bugs beyond the four: overshoot, quantized, ignores-base, truncated.
//
// Verify runs a suite on the correct jitter, where it must pass, and on every mutant, where it
// must fail, and prints the table:
//
//	func TestBackoffSuiteRejectsMutants(t *testing.T) {
//		suite := func(t testing.TB, jitter mutants.Jitter) {
//			xs := spread.Draw(1000, func() time.Duration { return jitter(time.Second) })
//			spread.Check(t, xs, spread.Uniform(0, time.Second))
//		}
//		mutants.Verify(t, backoff.FullJitter, mutants.Full(), suite)
//	}
//
// Run returns the same table as a Report, and Try runs a suite on one broken version of your
// own.
//
// Code that takes injected randomness rather than a Jitter can be broken with
// the zero Source (a constant), ClockSource and CollapsedSource: each is a Source to put in the
// *rand.Rand the code already accepts, of math/rand/v2 or of math/rand (v1). Every method
// of the *rand.Rand then sees the broken number, Float64 as much as IntN, and returns after
// at most two reads of the source whatever its argument: a broken number never makes a
// method redraw forever.
//
// At the smallest bases a mutant can be identical to the correct jitter: full jitter at
// base 1ns is always 0, and so is every mutant of it. Mutant.EquivalentAt says when, and
// Verify reports such a mutant as "SURVIVED (equivalent)" and asks for a larger base
// rather than blaming the suite. With package spread's default battery at n = 1,000, every
// mutant of the four classes that is not equivalent is rejected, down to ranges of two
// nanoseconds (the package's tests check this at every base up to 64ns and at random bases
// up to an hour).
//
// Every mutant is deterministic: its healthy random numbers come from a fixed seed and its
// clock from a clock that steps by a fixed amount per reading, so a suite's
// verdict on a mutant is the same on every run.
package mutants
