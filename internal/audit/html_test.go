package audit

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spreadcheck/spreadcheck/internal/golden"
)

// gapsReport returns the gaps fixture's pinned report.
func gapsReport(t *testing.T) *Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "gaps.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestHTML: the page holds every line of each audited file, escaped, each site's line marked
// by its worst verdict with the site's verdicts and the line to add below it, and loads
// nothing from anywhere.
func TestHTML(t *testing.T) {
	r := gapsReport(t)
	var b bytes.Buffer
	if err := r.WriteHTML(&b, filepath.Join("testdata", "gaps")); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<h2 id="gaps.go">gaps.go</h2>`,
		`<div class="line survived" id="24"><span class="n">24</span><pre>	return Scale(d, rand.Float64())</pre></div>`,
		`<div class="line notcovered" id="14">`,
		`<div class="line neutral" id="47">`,
		`<td class="v">SURVIVED</td>`,
		`<code class="add">add: spread.Check(t, spread.Draw(1000, func() time.Duration { return Delay(d) })`,
		`<td><code>example.com/gaps</code></td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://", "<link", "<img", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page is not self-contained: it has %q", bad)
		}
	}
	if err := r.WriteHTML(&b, t.TempDir()); err == nil {
		t.Error("a root without the sources: no error")
	}
}

// browser returns a headless browser to render pages with: Debian's chromium, which .ci/run
// installs. Elsewhere without one the test is skipped.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI must install chromium (Debian's package)")
	}
	t.Skip("no headless browser (apt-get install chromium)")
	return ""
}

// TestHTMLInBrowser renders the gaps fixture's page in headless Chromium: the DOM it builds
// holds the sites and verdicts, and its screenshot is a picture, not a blank page. Under
// -update the screenshot becomes the one docs/audit.md shows.
func TestHTMLInBrowser(t *testing.T) {
	chromium := browser(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "audit.html")
	var b bytes.Buffer
	if err := gapsReport(t).WriteHTML(&b, filepath.Join("testdata", "gaps")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) []byte {
		t.Helper()
		args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + filepath.Join(dir, "profile")}, args...)
		out, err := exec.Command(chromium, append(args, "file://"+page)...).Output()
		if err != nil {
			t.Fatalf("%s %v: %v", chromium, args, err)
		}
		return out
	}
	dom := string(run("--dump-dom"))
	if !strings.Contains(dom, "SURVIVED") || strings.Count(dom, `class="site `) != 6 || !strings.Contains(dom, "spreadcheck audit: example.com/gaps") {
		t.Errorf("the rendered DOM lacks the report (%d sites):\n%.1500s", strings.Count(dom, `class="site `), dom)
	}
	shot := filepath.Join(dir, "audit.png")
	run("--screenshot="+shot, "--window-size=1100,1500", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if colours(img) < 8 {
		t.Errorf("the screenshot has %d colours: a blank page", colours(img))
	}
	if golden.Updating() {
		data, err := os.ReadFile(shot)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "audit-html.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// colours counts the distinct colours of a sample of the image's pixels.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 7 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 7 {
			r, g, b, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, b, a}] = true
		}
	}
	return len(seen)
}
