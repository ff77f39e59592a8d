//go:build !unix

package runner

import "errors"

// lockFile is not implemented here, so the binary cache is not used.
func lockFile(string) (func(), error) { return nil, errors.ErrUnsupported }
