package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// strykerSchema compiles the mutation-testing-report-schema kept in testdata/stryker.
func strykerSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("testdata", "stryker", "mutation-testing-report-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// sampleSources writes source files for the sample report's sites: each line names its number.
func sampleSources(t *testing.T, r *Report) string {
	t.Helper()
	dir := t.TempDir()
	for _, s := range r.Sites {
		var b strings.Builder
		for i := 1; i <= 30; i++ {
			if i == s.Line {
				b.WriteString("\treturn " + s.Expr + " // the draw\n")
			} else {
				b.WriteString("// line\n")
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(s.File))
		old, _ := os.ReadFile(p)
		if len(old) > 0 { // two sites in one file: keep both lines
			lines := strings.Split(string(old), "\n")
			lines[s.Line-1] = "\treturn " + s.Expr + " // the draw"
			b.Reset()
			b.WriteString(strings.Join(lines, "\n"))
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestStrykerSchema: the report of every verdict, in the mutation-testing-report-schema, is
// valid against the schema file of its own package, and maps each verdict to its status with
// the draw's range as the location.
func TestStrykerSchema(t *testing.T) {
	r := sample()
	var b bytes.Buffer
	if err := r.WriteStryker(&b, sampleSources(t, r)); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := strykerSchema(t).Validate(inst); err != nil {
		t.Fatalf("the report does not validate: %v\n%s", err, b.String())
	}
	var got strykerReport
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	statuses := map[string]int{}
	for _, f := range got.Files {
		for _, m := range f.Mutants {
			statuses[m.Status]++
		}
	}
	want := map[string]int{}
	for _, s := range r.Sites {
		for _, m := range s.Mutants {
			want[strykerStatus(m)]++
		}
	}
	if !cmp.Equal(statuses, want) || statuses["Killed"]+statuses["Timeout"] == 0 || statuses["Survived"] == 0 || statuses["Ignored"] == 0 {
		t.Errorf("statuses %v, want %v with every kind", statuses, want)
	}
	first := got.Files["jitter.go"].Mutants[0]
	if first.Location != (strykerLocation{Start: strykerPosition{12, 9}, End: strykerPosition{12, 23}}) || first.MutatorName != r.Sites[0].Mutants[0].Class {
		t.Errorf("the first mutant: %+v", first)
	}
}

// TestStrykerSchemaRejects: the validation can fail: a report with a status the schema does
// not know, or without its thresholds, is rejected.
func TestStrykerSchemaRejects(t *testing.T) {
	for _, doc := range []string{
		`{"schemaVersion": "2", "thresholds": {"high": 80, "low": 60}, "files": {"a.go": {"language": "go", "source": "x", "mutants": [{"id": "1", "mutatorName": "constant", "location": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}, "status": "Flaky"}]}}}`,
		`{"schemaVersion": "2", "files": {}}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if strykerSchema(t).Validate(inst) == nil {
			t.Errorf("validates: %s", doc)
		}
	}
}

// TestStrykerGaps writes the gaps fixture's pinned report against the fixture's own source:
// valid, with the draw of Delay where it stands.
func TestStrykerGaps(t *testing.T) {
	r := gapsReport(t)
	var out bytes.Buffer
	if err := r.WriteStryker(&out, filepath.Join("testdata", "gaps")); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := strykerSchema(t).Validate(inst); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"id": "gaps.go:24:18:constant"`) {
		t.Errorf("Delay's draw, gaps.go line 24 column 18, is not where the report puts it:\n%.2000s", out.String())
	}
	if err := r.WriteStryker(&out, t.TempDir()); err == nil {
		t.Error("a root without the sources: no error")
	}
}
