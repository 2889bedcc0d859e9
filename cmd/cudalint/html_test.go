package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cudalint/cudalint/internal/testtool"
)

// --format html renders in a real browser: Debian's headless Chromium
// opens the page the README's command writes for the examples, offline
// (the page loads nothing), draws it (a screenshot that is not blank),
// runs its script (the filters say how many findings they show), and
// every finding --format json reports sits on a highlighted line of the
// DOM.
func TestHTMLInChromium(t *testing.T) {
	chromium := testtool.Need(t, "chromium", "apt-get install chromium")
	dir := t.TempDir()
	page := filepath.Join(dir, "r.html")
	if code, _, errs := runCLI("--format", "html", "--output", page, "--exit-zero", "../../examples/"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	_, out, _ := runCLI("--format", "json", "--exit-zero", "../../examples/")
	var doc struct{ Findings []findingJSON }
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Findings) == 0 {
		t.Fatalf("json: %v, %d findings", err, len(doc.Findings))
	}

	browse := func(fragment string, args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// --no-sandbox: CI runs as root, where Chromium's sandbox refuses
		// to start; the page is our own.
		base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + filepath.Join(dir, "profile"),
			"--window-size=1280,2000"}
		cmd := exec.CommandContext(ctx, chromium, append(append(base, args...), "file://"+page+fragment)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
		}
		return stdout
	}

	shot := filepath.Join(dir, "r.png")
	browse("", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	colors, inked := map[uint32]bool{}, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[r>>8<<16|g>>8<<8|bl>>8] = true
			if r>>8 < 0xf0 || g>>8 < 0xf0 || bl>>8 < 0xf0 {
				inked++
			}
		}
	}
	if total := (b.Dx() / 2) * (b.Dy() / 2); len(colors) < 16 || inked < total/50 {
		t.Errorf("screenshot looks blank: %d colours, %d of %d sampled pixels not white", len(colors), inked, total)
	}

	dom := string(browse("", "--dump-dom"))
	if want := fmt.Sprintf(`<p id="shown">%d of %d findings shown</p>`, len(doc.Findings), len(doc.Findings)); !strings.Contains(dom, want) {
		t.Errorf("the page's script did not run: the DOM lacks %s", want)
	}
	for _, fd := range doc.Findings {
		line := regexp.MustCompile(`<tr id="[^"]*" class="line [^"]*\bflag\b[^"]*" data-file="` + regexp.QuoteMeta(fd.File) +
			`" data-line="` + fmt.Sprint(fd.Line) + `"`)
		if !line.MatchString(dom) {
			t.Errorf("%s:%d (%s): its line is not highlighted in the DOM", fd.File, fd.Line, fd.Rule)
		}
		card := regexp.MustCompile(`class="[^"]*\bfinding\b[^"]*" id="f\d+" data-severity="` + fd.Severity + `" data-rule="` + fd.Rule + `"`)
		if !card.MatchString(dom) {
			t.Errorf("%s:%d (%s): no card in the DOM", fd.File, fd.Line, fd.Rule)
		}
	}

	// The filters: a link that hides the info findings opens with them
	// hidden, and the count says so.
	infos := 0
	for _, fd := range doc.Findings {
		if fd.Severity == "info" {
			infos++
		}
	}
	if infos == 0 || infos == len(doc.Findings) {
		t.Fatalf("%d info findings of %d: the examples no longer test the filter", infos, len(doc.Findings))
	}
	dom = string(browse("#hide=severity:info", "--dump-dom"))
	if want := fmt.Sprintf(`<p id="shown">%d of %d findings shown</p>`, len(doc.Findings)-infos, len(doc.Findings)); !strings.Contains(dom, want) {
		t.Errorf("#hide=severity:info: the DOM lacks %s", want)
	}
	hidden := regexp.MustCompile(`class="[^"]*\bfinding\b[^"]*" id="f\d+" data-severity="info" data-rule="[^"]*" hidden=""`)
	if n := len(hidden.FindAllString(dom, -1)); n != infos {
		t.Errorf("#hide=severity:info: %d info findings hidden, want %d", n, infos)
	}
	if strings.Contains(dom, `data-severity="warning" data-rule="strided-access" hidden`) {
		t.Errorf("#hide=severity:info hid a warning")
	}
	// brighten has info findings only: its listing and its rank go too.
	if !regexp.MustCompile(`<section class="kernel flagged" id="k\d+" hidden="">\s*<details open="">\s*<summary>#\d+ <h3>brighten</h3>`).MatchString(dom) {
		t.Errorf("#hide=severity:info: the kernel brighten, with info findings only, is still shown")
	}
}
