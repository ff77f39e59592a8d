// Package slice holds the module's own list helpers, as go-faker's pkg/slice does.
package slice

import "slices"

// Contains reports whether item is one of list.
func Contains(list []string, item string) bool { return slices.Contains(list, item) }

// Index returns where item is in list: no membership test.
func Index(list []string, item string) int { return slices.Index(list, item) }
