//go:build unix

package testbin

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, creating it, and returns the function that
// releases it; with wait false it fails at once when another process holds the lock. Sessions
// that share a binary cache hold it while they build into the cache and copy out, so that none
// copies a binary that another is writing; a session holds its own folder's lock while it runs.
func lockFile(path string, wait bool) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
