//go:build !unix

package runner

import (
	"os"
	"os/exec"
)

// quit stops a hung test binary. Without SIGQUIT there is no way to ask for a goroutine dump
// from outside; the binary's own -test.timeout panic has usually printed one already.
func quit(p *os.Process) error { return p.Kill() }

// detach does nothing where process groups are not available.
func detach(*exec.Cmd) {}
