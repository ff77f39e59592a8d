// Package benchfakeclock measures fakeclock against its peers, side by
// side in one run: k8s.io/utils/clock/testing, github.com/jonboulle/clockwork,
// testing/synctest, github.com/coder/quartz, github.com/benbjohnson/clock,
// and a bare unbuffered channel round trip, the floor. It is a module of
// its own so that users of spreadcheck never download the peers.
//
// Run it from this directory:
//
//	go test -run Bubble -bench . -count 6 | tee bench.txt
//	go run ./cmd/medians < bench.txt
package benchfakeclock
