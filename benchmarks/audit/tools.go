//go:build tools

// This file records the commands the benchmark builds, so that go.mod pins their versions.
package audit

import (
	_ "github.com/go-gremlins/gremlins/cmd/gremlins"
	_ "github.com/spreadcheck/spreadcheck/cmd/spreadcheck"
)
