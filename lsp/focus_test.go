package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFocusMatchesWhole opens each file of a few projects alone and
// compares what the server publishes and hovers when its analyses are
// focused on the open file (analyzer.Memo.Focus: the kernels whose
// findings can land there, the host functions that can launch them)
// with what it publishes analyzing the whole program: focusing leaves
// out only work whose findings are dropped.
func TestFocusMatchesWhole(t *testing.T) {
	projects := map[string][]string{
		// A header kernel calling the open file's helper, whose
		// suppression only that kernel's finding uses; one expanding the
		// open file's macro; one of the header's alone; the open file's
		// kernel launched by an includer's host template.
		"focus":       {"testdata/focus/named.cu", "testdata/focus/kern.cuh", "testdata/focus/includer.cu", "testdata/focus/other.cu"},
		"incremental": {"testdata/incremental/lib.cuh", "testdata/incremental/main.cu"},
	}
	examples, _ := filepath.Glob("../examples/*.cu")
	if len(examples) == 0 {
		t.Fatal("no examples")
	}
	projects["examples"] = examples
	kernels := regexp.MustCompile(`kernels interpreted (\d+), reused (\d+)`)
	for name, files := range projects {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".git"), 0o755)
		texts := map[string]string{}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts[filepath.Base(f)] = string(src)
			writeFile(t, dir, filepath.Base(f), string(src))
		}
		for base, text := range texts {
			path := filepath.Join(dir, base)
			type view struct {
				diags   string
				hovers  []string
				kernels int
			}
			look := func(focus bool) view {
				focusAnalyses = focus
				defer func() { focusAnalyses = true }()
				log := &syncBuffer{}
				c := newClient(t)
				c.debounce(time.Microsecond)
				c.opts.Log = log
				c.initialize(nil)
				s := &session{c: c, latest: map[string]PublishDiagnosticsParams{}}
				uri := c.open(path, text)
				s.settle(uri, 1)
				var v view
				d, _ := json.Marshal(s.latest[uri].Diagnostics)
				v.diags = string(d)
				for i, line := range strings.Split(text, "\n") {
					for j := 0; j < len(line); j++ {
						if line[j] == '[' {
							v.hovers = append(v.hovers, s.hover(uri, Position{i, j}))
						}
					}
				}
				c.shutdown()
				for _, m := range kernels.FindAllStringSubmatch(log.String(), -1) {
					n, _ := strconv.Atoi(m[1])
					r, _ := strconv.Atoi(m[2])
					v.kernels += n + r
				}
				return v
			}
			got, want := look(true), look(false)
			if got.diags != want.diags {
				t.Errorf("%s/%s: focused\n %s\nwhole\n %s", name, base, got.diags, want.diags)
			}
			for i := range want.hovers {
				if i >= len(got.hovers) || got.hovers[i] != want.hovers[i] {
					t.Errorf("%s/%s: hover %d differs:\n focused %v\n   whole %s", name, base, i, got.hovers[i:min(i+1, len(got.hovers))], want.hovers[i])
					break
				}
			}
			if got.kernels > want.kernels {
				t.Errorf("%s/%s: focused analyses took %d kernels, the whole program %d", name, base, got.kernels, want.kernels)
			}
			if name == "focus" && base != "other.cu" {
				t.Logf("%s: kernels analyzed focused %d, whole %d", base, got.kernels, want.kernels)
				if got.kernels >= want.kernels {
					t.Errorf("%s: focused analyses took %d kernels, the whole program %d: want fewer", base, got.kernels, want.kernels)
				}
			}
			if base == "named.cu" {
				// The fixture does what it says: the helper's suppression
				// is used by the header kernel's finding, the other's not.
				if !strings.Contains(got.diags, `"line":9,"character":21},"end"`) || strings.Contains(got.diags, `"line":5,"character":22}`) {
					t.Errorf("named.cu: want an unused suppression on line 10 and none on line 6: %s", got.diags)
				}
			}
		}
	}
}
