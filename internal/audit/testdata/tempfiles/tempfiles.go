// Package tempfiles is tested by a test that leaves a data folder in the temporary directory
// every run, as the suites of real consensus libraries do when they fail: the audit gives
// each test process a temporary directory of its own and removes it afterwards.
package tempfiles

import "math/rand/v2"

// Election returns an election timeout in [150, 300) milliseconds.
func Election() int {
	return 150 + rand.IntN(150)
}
