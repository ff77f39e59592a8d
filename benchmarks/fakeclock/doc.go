// Package benchfakeclock measures fakeclock against its peers, side by
// side in one run: k8s.io/utils/clock/testing, github.com/jonboulle/clockwork,
// testing/synctest, github.com/coder/quartz, github.com/benbjohnson/clock,
// and a bare unbuffered channel round trip, the floor. It is a module of
// its own so that users of spreadcheck never download the peers.
//
// Run it from this directory:
//
//	go test -run Bubble -bench . -count 6 -timeout 30m | tee bench.txt
//	go run ./cmd/medians < bench.txt
//
// -run Bubble adds the two variants that need a *testing.T (synctest and
// fakeclock inside fakeclock.Test): TestBubbleBenchmarks runs them with
// testing.Benchmark and prints benchmark lines. Every figure is ns per
// delivered tick; medians prints the median of the runs and its ratio to
// the floor. results.txt holds a recorded run.
//
// The fleet benchmarks of issue 12 (fleet_test.go) time one fleet of
// jitter + ticker loops on three drivers that make the same events
// (TestFleetPeersAgree): fakeclock.Fleet.Run, package time inside
// testing/synctest, and k8s.io/utils/clock/testing's FakeClock in a bubble;
// and fakeclock.Fleet.RunSchedule at 100,000 loops for an hour:
//
//	go test -run FleetBenchmarks -bench FleetSchedule -count 3 -timeout 170m | tee fleet.txt
//	go run ./cmd/medians < fleet.txt
//
// fleet-results.txt holds a recorded run. -fleet.drivers floor,fakeclock
// times only those drivers, and -fleet.loops and -fleet.intervals size the
// fleet for quicker comparisons.
//
// TestFloorStudy (floor_test.go) takes the floor apart: CPU per goroutine
// wake-up against the number of goroutines, the work per event, how a
// round readies them, idle goroutines beside them, and tiles:
//
//	go test -run FloorStudy -floor.study loops,work,group,idle,tile
package benchfakeclock
