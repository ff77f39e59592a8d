//go:build unix && !linux

package testbin

import "syscall"

// dieWithParent has no equivalent outside Linux: a runner killed with SIGKILL leaves its test
// processes to their own -test.timeout.
func dieWithParent(*syscall.SysProcAttr) {}
