// Package ginkgo is a stub of bsm's fork of Ginkgo v2, which has no GinkgoTB.
package ginkgo

import "testing"

func Describe(text string, args ...any) bool         { return true }
func It(text string, args ...any) bool               { return true }
func RunSpecs(t *testing.T, description string) bool { return true }
