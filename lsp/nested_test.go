package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An open header that another header includes is edited: the files
// that include it through that header see the edit too (a replayed
// header is checked against its own text, not against the headers it
// includes), whatever the edit's length, as a new server would.
func TestNestedHeaderEdit(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	leaf := "#pragma once\n__global__ void walk(float* out, const float* in) {\n" +
		"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = in[i * 1];\n}\n"
	writeFile(t, dir, "mid.cuh", "#pragma once\n#include \"leaf.cuh\"\n")
	writeFile(t, dir, "main.cu", "#include \"mid.cuh\"\nvoid run(float* o, const float* i, int n) {\n    walk<<<n / 256, 256>>>(o, i);\n}\n")
	path := writeFile(t, dir, "leaf.cuh", leaf)
	look := func(s *session, uri, text string) string {
		d, _ := json.Marshal(s.latest[uri].Diagnostics)
		out := string(d)
		for i, line := range strings.Split(text, "\n") {
			for j := 0; j < len(line); j++ {
				if line[j] == '[' {
					out += "\n" + s.hover(uri, Position{i, j})
				}
			}
		}
		return out
	}
	start := func(text string) (*session, string) {
		c := newClient(t)
		c.debounce(time.Microsecond)
		c.initialize(nil)
		s := &session{c: c, latest: map[string]PublishDiagnosticsParams{}}
		uri := c.open(path, text)
		s.settle(uri, 1)
		return s, uri
	}
	inc, uri := start(leaf)
	cur := leaf
	for v, stride := range []string{"8", "2", "16", "1"} {
		next := strings.Replace(leaf, "in[i * 1]", "in[i * "+stride+"]", 1)
		inc.c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v + 2},
			"contentChanges": []any{rangeChange(cur, next)}})
		cur = next
		inc.settle(uri, v+2)
		fresh, furi := start(cur)
		if got, want := look(inc, uri, cur), look(fresh, furi, cur); got != want {
			t.Errorf("stride %s: incremental\n%s\nfresh\n%s", stride, got, want)
		}
		fresh.c.shutdown()
	}
	inc.c.shutdown()
}
