package runner

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spreadcheck/spreadcheck/internal/resultsfile"
	"github.com/spreadcheck/spreadcheck/internal/testbin"
	"github.com/spreadcheck/spreadcheck/internal/testreport"
)

// TestShardMerge: three shards written to results files and merged give the same report as
// one session; a shard merged twice, files of other sessions and missing shards are caught.
func TestShardMerge(t *testing.T) {
	pkg := fixture(t, "flaky")
	dir := t.TempDir()
	head := resultsfile.Header{Seed: 5, Runs: 30, Patterns: []string{"./flaky"}, Flags: []string{"-race"}}
	var files []string
	for k := 1; k <= 3; k++ {
		opts := Options{Runs: 30, Seed: 5, Shard: resultsfile.Shard{K: k, N: 3}, Parallel: 2, Batch: 1}
		path := filepath.Join(dir, strconv.Itoa(k)+".jsonl")
		h := head
		h.Shard = opts.Shard.String()
		rf, err := resultsfile.CreateResults(path, h)
		if err != nil {
			t.Fatal(err)
		}
		opts.OnRecord = rf.Add
		if _, err := Execute(context.Background(), MainJobs([]testbin.Package{pkg}, opts), opts); err != nil {
			t.Fatal(err)
		}
		if err := rf.Close(resultsfile.End{Seconds: 1}); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	m, err := resultsfile.MergeResults(files...)
	if err != nil {
		t.Fatal(err)
	}
	whole := testreport.Summarize(run(t, pkg, Options{Runs: 30, Seed: 5, Batch: 1}), testreport.SummaryOptions{})
	merged := testreport.Summarize(m.Records, testreport.SummaryOptions{})
	// What package testing measured of each run's time depends on the load, not on the merge.
	ignore := cmp.Options{cmpopts.IgnoreFields(testreport.TestSummary{}, "Duration"), cmpopts.IgnoreFields(testreport.Failure{}, "Seconds")}
	if diff := cmp.Diff(whole.Packages, merged.Packages, ignore, cmpopts.IgnoreFields(testreport.Failure{}, "Process")); diff != "" || m.Incomplete || len(m.Missing) != 0 {
		t.Errorf("merged shards differ from one session (incomplete %v, missing %v):\n%s", m.Incomplete, m.Missing, diff)
	}
	if _, err := resultsfile.MergeResults(files[0], files[0]); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("merging a shard with itself: %v, want an overlap error", err)
	}
	if m, err := resultsfile.MergeResults(files[0], files[2]); err != nil || len(m.Missing) != 1 || m.Missing[0] != "2/3" {
		t.Errorf("merging shards 1 and 3 of 3: %v, missing %v; want 2/3 missing", err, m.Missing)
	}
	for _, other := range []resultsfile.Header{
		{Seed: 6, Runs: 30, Patterns: head.Patterns, Flags: head.Flags, Shard: "2/3"},
		{Seed: 5, Runs: 30, Patterns: []string{"./..."}, Flags: head.Flags, Shard: "2/3"},
		{Seed: 5, Runs: 30, Patterns: head.Patterns, Shard: "2/3"},
		{Seed: 5, Runs: 30, Patterns: head.Patterns, Flags: head.Flags, Shard: "2/4"},
	} {
		path := filepath.Join(dir, "other.jsonl")
		rf, _ := resultsfile.CreateResults(path, other)
		rf.Close(resultsfile.End{})
		if _, err := resultsfile.MergeResults(files[0], path); err == nil {
			t.Errorf("merging shard 1/3 with a file of %+v: no error", other)
		}
	}
}
