//go:build !unix

package testbin

import (
	"os"
	"syscall"
)

// ProcAttr has no process group to give outside Unix.
func ProcAttr() *syscall.SysProcAttr { return nil }

// quit cannot ask for a goroutine dump without SIGQUIT: the process is killed.
func quit(p *os.Process) error { return p.Kill() }

func endGroup(int) {}

func transient(error) bool { return false }
