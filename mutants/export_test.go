package mutants

// WithSeed sets the seed of the mutants' healthy random numbers, for the package's external
// tests, which check that spread rejects every mutant whatever the seed.
var WithSeed = withSeed
