package audit

import (
	"encoding/json"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

// importSet spells types for a package's schema file, and remembers the imports that needs.
type importSet struct {
	self    *types.Package
	byPath  map[string]string
	extra   []rewrite.Import
	aliases []string // the declarations of alias, which the schema file holds
}

func newImportSet(p *types.Package) *importSet {
	return &importSet{self: p, byPath: map[string]string{}}
}

// spell returns a type as the schema file names it.
func (s *importSet) spell(t types.Type) string { return types.TypeString(t, s.qualifier) }

func (s *importSet) qualifier(p *types.Package) string {
	if p == s.self {
		return ""
	}
	if slices.Contains(rewrite.StandardImports, p.Path()) {
		return p.Name()
	}
	name, ok := s.byPath[p.Path()]
	if !ok {
		// A name of our own: the package's may clash with a standard import or another package.
		name = fmt.Sprintf("spreadcheckAuditImport%d", len(s.byPath))
		s.byPath[p.Path()] = name
		s.extra = append(s.extra, rewrite.Import{Name: name, Path: p.Path()})
	}
	return name
}

// alias returns the name of an alias of a type that the schema file declares, so that a
// rewritten file can name a type whose package it does not import.
func (s *importSet) alias(t types.Type) string {
	spelled := s.spell(t)
	for i, a := range s.aliases {
		if strings.HasSuffix(a, " = "+spelled) {
			return fmt.Sprintf("spreadcheckAuditType%d", i)
		}
	}
	name := fmt.Sprintf("spreadcheckAuditType%d", len(s.aliases))
	s.aliases = append(s.aliases, fmt.Sprintf("type %s = %s", name, spelled))
	return name
}

// userQualifier names a type as a test file of the package would.
func (s *importSet) userQualifier(p *types.Package) string {
	if p == s.self {
		return ""
	}
	return p.Name()
}

// schemaName is the file that each rewritten package gains; the overlay adds it.
const schemaName = "spreadcheck_audit_schema.go"

// overlay is one set of rewrites, ready for go build -overlay.
type overlay struct {
	File     string            // the overlay JSON
	Replace  map[string]string // original path -> rewritten copy
	rejected map[int]string    // sites whose rewrite failed, and why
}

// writeOverlay writes into dir the rewritten copy of every file that holds one of the sites,
// and a schema file per package, and the overlay JSON that points the go command at them.
// fixed, when set ("site:code"), compiles that one mutant in; otherwise the environment picks.
// The audited tree is only read.
func writeOverlay(dir string, sites []*Site, imps map[string]*importSet, fixed string) (*overlay, error) {
	ov := &overlay{Replace: map[string]string{}, rejected: map[int]string{}}
	byFile := map[string][]*Site{}
	var files []string
	for _, s := range sites {
		if s.NotViable != "" {
			continue
		}
		if byFile[s.Path] == nil {
			files = append(files, s.Path)
		}
		byFile[s.Path] = append(byFile[s.Path], s)
	}
	sort.Strings(files)
	schemas := map[string]*rewrite.Schema{} // by package directory
	for i, path := range files {
		fs := byFile[path]
		sort.SliceStable(fs, func(i, j int) bool {
			a, b := fs[i].whole, fs[j].whole
			return a.start < b.start || a.start == b.start && a.end > b.end
		})
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		out, helpers, err := rewriteFile(src, fs, ov.rejected)
		if err != nil {
			return nil, err
		}
		copyPath := filepath.Join(dir, fmt.Sprintf("%03d-%s", i, filepath.Base(path)))
		if err := os.WriteFile(copyPath, out, 0o644); err != nil {
			return nil, err
		}
		ov.Replace[path] = copyPath
		pkgDir := filepath.Dir(path)
		sc := schemas[pkgDir]
		if sc == nil {
			imp := imps[fs[0].Package]
			sc = &rewrite.Schema{Package: imp.self.Name(), Fixed: fixed, Helpers: slices.Clone(imp.aliases)}
			schemas[pkgDir] = sc
		}
		sc.Helpers = append(sc.Helpers, helpers...)
	}
	for _, s := range sites {
		if sc := schemas[filepath.Dir(s.Path)]; sc != nil {
			sc.Sites = max(sc.Sites, s.ID+1)
			sc.Imports = imps[s.Package].extra
		}
	}
	for pkgDir, sc := range schemas {
		src, err := sc.Source()
		if err != nil {
			return nil, fmt.Errorf("audit: schema for %s: %v", pkgDir, err)
		}
		copyPath := filepath.Join(dir, fmt.Sprintf("schema-%03d.go", len(ov.Replace)))
		if err := os.WriteFile(copyPath, src, 0o644); err != nil {
			return nil, err
		}
		ov.Replace[filepath.Join(pkgDir, schemaName)] = copyPath
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{ov.Replace})
	if err != nil {
		return nil, err
	}
	ov.File = filepath.Join(dir, "overlay.json")
	return ov, os.WriteFile(ov.File, data, 0o644)
}

// originals returns the compiler's messages with the paths of the rewritten copies replaced
// by those of the files they stand for (the schema file's is its package's folder and
// schemaName, a file that exists only in the overlay): absolute, or relative to dir, where
// the go command ran, as it writes a path when that is shorter.
func (ov *overlay) originals(msgs []string, dir string) []string {
	var pairs []string
	abs, err := filepath.Abs(dir)
	for orig, copy := range ov.Replace {
		relCopy, err1 := filepath.Rel(abs, copy)
		relOrig, err2 := filepath.Rel(abs, orig)
		if err == nil && err1 == nil && err2 == nil {
			if !strings.HasPrefix(relOrig, "..") {
				relOrig = "." + string(filepath.Separator) + relOrig
			}
			pairs = append(pairs, relCopy, relOrig) // first: an absolute path may end a relative one
		}
	}
	for orig, copy := range ov.Replace {
		pairs = append(pairs, copy, orig)
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = r.Replace(m)
	}
	return out
}

// rewriteFile replaces each site of one file (sorted by start, outer before inner) by its
// helper call, and returns the new source and the helpers. A site whose rewrite fails is
// left as it is and recorded in rejected. Replacements never add a line, so every line
// number of the file stays what the user sees.
func rewriteFile(src []byte, sites []*Site, rejected map[int]string) ([]byte, []string, error) {
	r := &renderer{src: src, sites: sites, rejected: rejected}
	out := r.render(span{0, len(src)})
	return []byte(out), r.helpers, nil
}

type renderer struct {
	src      []byte
	sites    []*Site
	rejected map[int]string
	helpers  []string
}

// render returns the text of a span with every outermost site inside it rewritten.
func (r *renderer) render(sp span) string {
	var b strings.Builder
	at := sp.start
	for _, s := range r.sites {
		if s.whole.start < at || s.whole.end > sp.end || s.whole == sp {
			continue
		}
		b.Write(r.src[at:s.whole.start])
		b.WriteString(r.rewrite(s))
		at = s.whole.end
	}
	b.Write(r.src[at:sp.end])
	return b.String()
}

// rewrite returns the helper call that replaces one site, its parts rendered first.
func (r *renderer) rewrite(s *Site) string {
	parts := make([]string, len(s.parts))
	for i, p := range s.parts {
		parts[i] = r.render(p)
	}
	d := s.Draw
	switch d.Kind {
	case rewrite.UnitDraw, rewrite.FullDraw, rewrite.NormalDraw, rewrite.ExpDraw, rewrite.ClockSeed, rewrite.ReaderDraw:
		d.Value = parts[0]
	case rewrite.ClockModDraw:
		d.Args = parts
	default:
		d.Func, d.Args = parts[0]+s.inst, parts[1:]
	}
	if d.FuncValue {
		d.Value, d.Func, d.Args = parts[0]+s.inst, "", nil
	}
	call, err := d.Rewrite(s.ID)
	if err == nil {
		var h string
		if h, err = d.Helper(s.ID); err == nil {
			r.helpers = append(r.helpers, h)
			return call
		}
	}
	r.rejected[s.ID] = err.Error()
	return string(r.src[s.whole.start:s.whole.end])
}
