//go:build !unix

package testbin

import "errors"

// lockFile is not implemented here: the binary cache is not used, and stale session folders
// are left in place.
func lockFile(string, bool) (func(), error) { return nil, errors.ErrUnsupported }
