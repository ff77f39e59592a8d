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

	"github.com/spreadcheck/spreadcheck/internal/rewrite"
)

// valueKinds are the kinds of draw whose every mutant replaces the draw's value and nothing
// else: the identical-binary check applies to them (not to a function value, FuncValue, which 0 does not replace).
var valueKinds = map[rewrite.DrawKind]bool{
	rewrite.UnitDraw: true, rewrite.BoundedDraw: true, rewrite.FullDraw: true, rewrite.NormalDraw: true,
	rewrite.ExpDraw: true, rewrite.ClockModDraw: true, rewrite.ClockSeed: true,
}

// identicalReason is the reason of a survivor that the identical-binary check settles.
const identicalReason = "identical binary: with the draw's value replaced by 0, every package of the test binary compiles to the original's bytes"

// identical settles as equivalent the survivors of each site whose value nothing in the test
// binary depends on (trivial compiler equivalence). For each such site it compiles the
// packages of the test binaries of the site's groups with the value replaced inline,
// ((draw) * 0): the draw still made, no helper, no schema. When every package compiles to
// the original's bytes (both with -trimpath and the audit's flags), the linker would be given
// the same input and link the same binary: the compiler has compiled the value away, no value
// in its place can change what the tests run, and every class replaces the value alone, so
// each of the site's survivors is equivalent. A site with a survivor whose compiled code
// differs keeps its verdicts. The check compiles and does not link (linking the binaries took
// half of a small audit): one go list per site, however many classes survived, up to the
// audit's parallelism at once, and one for the original beside them.
func (a *auditor) identical(ctx context.Context, muts []*mutant) {
	bySite := map[int][]*mutant{}
	for _, m := range muts {
		if m.done && m.rep.Verdict == Survived && valueKinds[m.site.Draw.Kind] && !m.site.Draw.FuncValue {
			bySite[m.site.ID] = append(bySite[m.site.ID], m)
		}
	}
	if len(bySite) == 0 || ctx.Err() != nil {
		return
	}
	ids := slices.Sorted(maps.Keys(bySite))
	a.cfg.Log("audit: compiling the packages of the test binaries of %s with the draw's value replaced by 0, to compare with the original's", plural(len(ids), "site"))
	sem := make(chan struct{}, max(a.cfg.Parallel, 1))
	var orig map[string]string
	origDone := make(chan struct{})
	var wg sync.WaitGroup
	// The original's packages are mostly in the build cache from an earlier audit, so that
	// their go list is mostly the go command's own start and hashing: it runs beside the
	// sites' compiles rather than taking one of their places.
	wg.Go(func() {
		defer close(origDone)
		orig, _ = a.eng.compiled(ctx, a.sitePackages(ids...), "-trimpath")
	})
	var mu sync.Mutex
	for _, id := range ids {
		wg.Go(func() {
			sem <- struct{}{}
			zeroed := a.zeroedCompiled(ctx, a.sites[id])
			<-sem
			<-origDone
			if !sameCompiled(orig, zeroed) {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			a.sites[id].Dead = "with its value replaced by 0, every package of the test binary compiles to the original's bytes: nothing the tests run depends on it"
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

// zeroedCompiled compiles the packages of the test binaries of the site's groups with the
// site's value replaced by 0 and returns their content IDs, as engine.compiled does; nil when
// they do not compile.
func (a *auditor) zeroedCompiled(ctx context.Context, s *Site) map[string]string {
	dir := filepath.Join(a.tmp, fmt.Sprintf("identical-%d", s.ID))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil
	}
	ov, err := writeZeroed(dir, s)
	if err != nil {
		return nil
	}
	ids, err := a.eng.compiled(ctx, a.sitePackages(s.ID), "-trimpath", "-overlay="+ov)
	if err != nil {
		return nil
	}
	return ids
}

// sameCompiled reports whether every package of the zeroed build compiled to the bytes of
// the original's. The zeroed build's packages are those of the site's binaries, which the
// original's include; a package with no compiled code (unsafe) has an empty ID in both.
func sameCompiled(orig, zeroed map[string]string) bool {
	for p, id := range zeroed {
		if o, ok := orig[p]; !ok || o != id {
			return false
		}
	}
	return len(zeroed) > 0
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
