package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// An edit of a kernel's body leaves the host functions that launch it
// (they read its signature): none is interpreted again, however the
// edited kernel's new item sorts among the others a host function
// reaches, and what the server publishes is a new server's.
func TestKernelBodyEditKeepsHosts(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	var hdr, calls strings.Builder
	hdr.WriteString("#pragma once\n")
	for k := 0; k < 8; k++ {
		fmt.Fprintf(&hdr, "__global__ void k%d(float* a, int s) { a[(blockIdx.x * blockDim.x + threadIdx.x) * 1] = s; }\n", k)
		fmt.Fprintf(&calls, "    k%d<<<n / 256, 256>>>(a, %d);\n", k, k)
	}
	fmt.Fprintf(&hdr, "void launch_all(float* a, int n) {\n%s}\n", calls.String())
	header := hdr.String()
	path := writeFile(t, dir, "kernels.cuh", header)
	writeFile(t, dir, "main.cu", "#include \"kernels.cuh\"\nint main() { float* a = 0; launch_all(a, 1 << 20); launch_all(a, 1 << 10); }\n")
	hosts := regexp.MustCompile(`host functions interpreted (\d+), reused (\d+)`)
	start := func(text string, log *syncBuffer) (*session, string) {
		c := newClient(t)
		c.debounce(time.Microsecond)
		if log != nil {
			c.opts.Log = log
		}
		c.initialize(nil)
		s := &session{c: c, latest: map[string]PublishDiagnosticsParams{}}
		uri := c.open(path, text)
		s.settle(uri, 1)
		return s, uri
	}
	log := &syncBuffer{}
	inc, uri := start(header, log)
	cur := header
	// The first kernel's stride retyped, the same length each time: no
	// item after it moves.
	for v, stride := range []string{"2", "8", "4", "1"} {
		next := strings.Replace(header, "threadIdx.x) * 1]", "threadIdx.x) * "+stride+"]", 1)
		inc.c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v + 2},
			"contentChanges": []any{rangeChange(cur, next)}})
		cur = next
		inc.settle(uri, v+2)
		m := hosts.FindAllStringSubmatch(log.String(), -1)
		if last := m[len(m)-1]; last[1] != "0" {
			t.Errorf("stride %s: host functions interpreted %s, reused %s; want none interpreted", stride, last[1], last[2])
		}
		fresh, furi := start(cur, nil)
		got, _ := json.Marshal(inc.latest[uri].Diagnostics)
		want, _ := json.Marshal(fresh.latest[furi].Diagnostics)
		if string(got) != string(want) {
			t.Errorf("stride %s: incremental\n%s\nfresh\n%s", stride, got, want)
		}
		fresh.c.shutdown()
	}
	inc.c.shutdown()
}
