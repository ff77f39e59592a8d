package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/spreadcheck/spreadcheck/mutants"
)

// valueKinds are the kinds of draw whose every mutant replaces the draw's value and nothing
// else: the identical-binary check applies to them.
var valueKinds = map[mutants.DrawKind]bool{
	mutants.UnitDraw: true, mutants.BoundedDraw: true, mutants.FullDraw: true, mutants.NormalDraw: true,
	mutants.ExpDraw: true, mutants.ClockModDraw: true, mutants.ClockSeed: true,
}

// identicalReason is the reason of a survivor that the identical-binary check settles.
const identicalReason = "identical binary: with the draw's value replaced by 0, the test binary is the original's, byte for byte"

// identical settles as equivalent the survivors of each site whose value nothing in the test
// binary depends on (trivial compiler equivalence). For each such site it builds the test
// binaries of the site's groups with the value replaced inline, ((draw) * 0): the draw still
// made, no helper, no schema. When each is byte for byte the original's (both built with
// -trimpath and the audit's flags), the compiler has compiled the value away: no value in its
// place can change what the tests run, and every class replaces the value alone, so each of
// the site's survivors is equivalent. A site with a survivor whose binary differs keeps its
// verdicts. One build per site and per package, however many classes survived.
func (a *auditor) identical(ctx context.Context, muts []*mutant) {
	bySite := map[int][]*mutant{}
	for _, m := range muts {
		if m.done && m.rep.Verdict == Survived && valueKinds[m.site.Draw.Kind] {
			bySite[m.site.ID] = append(bySite[m.site.ID], m)
		}
	}
	if len(bySite) == 0 || ctx.Err() != nil {
		return
	}
	ids := slices.Sorted(maps.Keys(bySite))
	a.cfg.Log("audit: comparing the test binaries of %s with their draw's value replaced by 0 with the original's", plural(len(ids), "site"))
	orig := a.trimmedBinaries(ctx, a.sitePackages(ids...))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(a.cfg.Parallel, 1))
	var mu sync.Mutex
	for _, id := range ids {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if !a.sameBinaries(ctx, a.sites[id], orig) {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			a.sites[id].Dead = "with its value replaced by 0, the test binary is the original's, byte for byte: nothing the tests run depends on it"
			for _, m := range bySite[id] {
				m.settle(Equivalent, identicalReason)
				m.rep.Check = ""
			}
		})
	}
	wg.Wait()
}

// sitePackages returns the import paths of the binaries the sites' groups run, sorted.
func (a *auditor) sitePackages(ids ...int) []string {
	set := map[string]bool{}
	for _, id := range ids {
		for _, gi := range a.siteGroups[id] {
			set[a.bins[a.groups[gi].bin].ImportPath] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// trimmedBinaries builds the packages' test binaries with -trimpath and returns them by
// import path; a package that does not build is left out. The binaries are linked without
// symbol table and debug information (-ldflags=-s -w): what the tests run is the code and its
// data, which stay; the link takes about half the time without DWARF, and DWARF's positions,
// which a replacement on the same line shifts, cannot make two binaries of the same code differ.
func (a *auditor) trimmedBinaries(ctx context.Context, pkgs []string, flags ...string) map[string]string {
	bins, _ := a.eng.build(ctx, pkgs, append([]string{"-trimpath", "-ldflags=-s -w"}, flags...)...)
	out := map[string]string{}
	for _, b := range bins {
		if b.Binary != "" {
			out[b.ImportPath] = b.Binary
		}
	}
	return out
}

// sameBinaries reports whether every test binary of the site's groups, built with the site's
// value replaced by 0, is byte for byte the original's.
func (a *auditor) sameBinaries(ctx context.Context, s *Site, orig map[string]string) bool {
	dir := filepath.Join(a.tmp, fmt.Sprintf("identical-%d", s.ID))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return false
	}
	ov, err := writeZeroed(dir, s)
	if err != nil {
		return false
	}
	pkgs := a.sitePackages(s.ID)
	mut := a.trimmedBinaries(ctx, pkgs, "-overlay="+ov)
	for _, p := range pkgs {
		if orig[p] == "" || mut[p] == "" || !sameFile(orig[p], mut[p]) {
			return false
		}
	}
	return len(pkgs) > 0
}

// writeZeroed writes into dir a copy of the site's file with its draw's value replaced by 0,
// ((draw) * 0), on the same lines, and the overlay that puts it in place of the file; it
// returns the overlay's path. The copy keeps the file's name: -trimpath then records the
// original's path for it.
func writeZeroed(dir string, s *Site) (string, error) {
	src, err := os.ReadFile(s.Path)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	b.Write(src[:s.whole.start])
	b.WriteString("((")
	b.Write(src[s.whole.start:s.whole.end])
	b.WriteString(") * 0)")
	b.Write(src[s.whole.end:])
	cp := filepath.Join(dir, filepath.Base(s.Path))
	if err := os.WriteFile(cp, b.Bytes(), 0o644); err != nil {
		return "", err
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{map[string]string{s.Path: cp}})
	if err != nil {
		return "", err
	}
	ov := filepath.Join(dir, "overlay.json")
	return ov, os.WriteFile(ov, data, 0o644)
}

// sameFile reports whether two files hold the same bytes.
func sameFile(x, y string) bool {
	a, err := os.ReadFile(x)
	if err != nil {
		return false
	}
	b, err := os.ReadFile(y)
	return err == nil && bytes.Equal(a, b)
}
