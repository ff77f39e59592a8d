//go:build tools

// This file records the commands the benchmark builds, so that go.mod pins their versions.
package runner

import (
	_ "github.com/spreadcheck/spreadcheck/cmd/spreadcheck"
	_ "golang.org/x/tools/cmd/stress"
)
