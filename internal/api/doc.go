// Package api writes out the exported API of the public packages (spread, sizing, mutants,
// fakeclock), one line per exported name, in the manner of the Go distribution's api/ files.
// Its test pins those lines in api/<package>.txt at the module's root, so that every change
// of the public surface shows in review, and counts the exported names against the module's
// limit.
package api
