package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// peerModules are the corpus modules BenchmarkVetPeer measures by default: a gossip library
// of one package and a consensus library of two, with their tests.
var peerModules = []string{"github.com/hashicorp/memberlist@v0.7.0", "go.etcd.io/raft/v3@v3.7.0"}

// corpusPatterns returns the package patterns the corpus analyzes on module m (its line of
// testdata/corpus/modules.tsv), or ./... for a module the corpus does not hold.
func corpusPatterns(tb testing.TB, m string) []string {
	tb.Helper()
	content, err := os.ReadFile(filepath.Join("testdata", "corpus", "modules.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(content), "\n") {
		if fields := strings.Split(line, "\t"); len(fields) >= 2 && fields[0] == m {
			return strings.Fields(fields[1])
		}
	}
	return []string{"./..."}
}

// BenchmarkVetPeer measures spreadvet as a vet tool beside go vet's own analyzers, the peer
// whose CPU it must stay within, on real modules of the corpus fetched through the module
// proxy into a temporary folder (peerModules, or the module@version list that
// SPREADVET_PEER_MODULES names, separated by spaces). Each iteration runs both commands in
// turn, the order alternating from one iteration to the next, so that both meet the same
// load:
//
//   - vet-cold: go vet -vettool=spreadvet and plain go vet, each missing go vet's cache (a
//     copy of spreadvet with bytes appended; go vet's tool with a flag that changes nothing),
//     so that every package, the standard library's included, is analyzed afresh;
//   - vet-changed: every package of the module edited (a comment appended) and compiled by
//     go vet's atomic check, untimed; then both commands, the dependencies' results cached.
//
// It reports the CPU (user + system, of go vet and every process it started) of each
// command, spreadvet-cpu-s/op and govet-cpu-s/op, and their ratio in that iteration,
// cpu-ratio. TestPeerTable summarises a recorded run (testdata/bench-peer.txt):
//
//	(uptime; go test ./cmd/spreadvet -run XXX -bench VetPeer -benchtime 1x -count 5; uptime) | tee cmd/spreadvet/testdata/bench-peer.txt
func BenchmarkVetPeer(b *testing.B) {
	mods := peerModules
	if env := strings.Fields(os.Getenv("SPREADVET_PEER_MODULES")); len(env) > 0 {
		mods = env
	}
	spreadvet, govet := buildTool(b), goVetTool(b)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	for _, m := range mods {
		patterns := corpusPatterns(b, m)
		dir := copyModule(b, m)
		vet := func(tool string, flags ...string) []string {
			return append(append([]string{"go", "vet", "-vettool=" + tool}, flags...), patterns...)
		}
		runOnce(b, dir, env, vet(spreadvet)) // compile the dependencies and fill go vet's cache, untimed
		runOnce(b, dir, env, vet(govet))
		cases := []struct {
			name string
			cmds func(b *testing.B, i int) (spread, peer []string) // untimed
		}{
			{"vet-cold", func(b *testing.B, i int) ([]string, []string) {
				// The flag's name is new to every run of every process: see BenchmarkSpreadvet.
				return vet(distinctCopy(b, spreadvet)), vet(govet, fmt.Sprintf("-printf.funcs=nosuchfunc%d", time.Now().UnixNano()))
			}},
			{"vet-changed", func(b *testing.B, i int) ([]string, []string) {
				touchPackages(b, dir, patterns, i)
				runOnce(b, dir, env, append([]string{"go", "vet", "-atomic"}, patterns...))
				return vet(spreadvet), vet(govet)
			}},
		}
		name := strings.ReplaceAll(m[:strings.Index(m, "@")], "/", "_")
		for _, c := range cases {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				var spreadCPU, peerCPU time.Duration
				var ratios []float64
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					spread, peer := c.cmds(b, i)
					b.StartTimer()
					var s, p time.Duration
					if peerTurn++; peerTurn%2 == 1 {
						s, p = runOnce(b, dir, env, spread), runOnce(b, dir, env, peer)
					} else {
						p, s = runOnce(b, dir, env, peer), runOnce(b, dir, env, spread)
					}
					spreadCPU, peerCPU = spreadCPU+s, peerCPU+p
					ratios = append(ratios, s.Seconds()/p.Seconds())
				}
				b.ReportMetric(spreadCPU.Seconds()/float64(b.N), "spreadvet-cpu-s/op")
				b.ReportMetric(peerCPU.Seconds()/float64(b.N), "govet-cpu-s/op")
				b.ReportMetric(medianOf(ratios), "cpu-ratio")
			})
		}
	}
}

// peerTurn counts BenchmarkVetPeer's side-by-side runs in this process, to alternate which
// tool runs first: with -benchtime 1x every b.Loop has one iteration, and its own count
// alone put spreadvet first in every run (the second tool finds the files in the page cache).
var peerTurn int

// peerLine is one result of BenchmarkVetPeer: module/case, spreadvet's, go vet's CPU and their ratio.
var peerLine = regexp.MustCompile(`^BenchmarkVetPeer/([^/\s]+)/([a-z-]+)-\d+\s+\d+\s+\d+ ns/op\s+([0-9.]+) cpu-ratio\s+([0-9.]+) govet-cpu-s/op\s+([0-9.]+) spreadvet-cpu-s/op`)

// loadLine is an uptime line: its three load averages.
var loadLine = regexp.MustCompile(`load average: ([0-9.]+), ([0-9.]+), ([0-9.]+)`)

// TestPeerTable summarises the recorded run of BenchmarkVetPeer (testdata/bench-peer.txt) as
// the docs' table (testdata/peer.md; -update rewrites it): per module and case, the median
// CPU of go vet and of spreadvet as a vet tool, the median of the ratios of the iterations
// (each measured side by side), the runs, and the one-minute load before and after.
func TestPeerTable(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "bench-peer.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type cell struct{ ratio, peer, spread []float64 }
	cells := map[string]*cell{}
	var keys, loads []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := loadLine.FindStringSubmatch(sc.Text()); m != nil {
			loads = append(loads, m[1])
		}
		m := peerLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		key := strings.ReplaceAll(m[1], "_", "/") + " | " + m[2]
		if cells[key] == nil {
			cells[key] = &cell{}
			keys = append(keys, key)
		}
		for i, xs := range []*[]float64{&cells[key].ratio, &cells[key].peer, &cells[key].spread} {
			x, _ := strconv.ParseFloat(m[3+i], 64)
			*xs = append(*xs, x)
		}
	}
	if len(keys) == 0 || len(loads) != 2 {
		t.Fatalf("testdata/bench-peer.txt: %d BenchmarkVetPeer results and %d uptime lines, want some and 2 (before and after)", len(keys), len(loads))
	}
	var b strings.Builder
	b.WriteString("| module | case | go vet: CPU | spreadvet: CPU | spreadvet / go vet: CPU | runs |\n|---|---|--:|--:|--:|--:|\n")
	for _, k := range keys {
		c := cells[k]
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d |\n", k, secs(medianOf(c.peer)), secs(medianOf(c.spread)), fixed(medianOf(c.ratio)), len(c.ratio))
	}
	fmt.Fprintf(&b, "\nLoad average (1 minute): %s before, %s after.\n", loads[0], loads[1])
	golden.Check(t, filepath.Join("testdata", "peer.md"), b.String())
}

// medianOf returns the median of xs, or NaN for none.
func medianOf(xs []float64) float64 {
	ss := make([]sample, len(xs))
	for i, x := range xs {
		ss[i] = sample{cpu: x}
	}
	return median(ss, cpuOf)
}
