package lsp

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A budget spent in a header the open file includes is a diagnostic of
// that file at its #include, not an empty list.
func TestSpentBudgetIsADiagnostic(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	writeFile(t, dir, "h.cuh", "#include \"h.cuh\"\n#include \"h.cuh\"\n")
	src := "// k\n#include \"h.cuh\"\n__global__ void k(float* a) { a[threadIdx.x] = 0; }\n"
	path := writeFile(t, dir, "k.cu", src)
	c := newClient(t)
	c.initialize(nil)
	uri := c.open(path, src)
	p := c.diagnostics(uri)
	d := byCode(p, "budget")
	if d == nil || d.Range.Start.Line != 1 || d.Severity != SeverityWarning || !strings.Contains(d.Message, "not analyzed whole") {
		t.Fatalf("diagnostics %+v: want a budget warning at line 2", p.Diagnostics)
	}
	c.shutdown()
}

// The server reads only what the workspace holds: a document outside
// every workspace folder and repository is analyzed alone (its include
// not read, its folder not walked), and opening or closing a document
// never reads its file from disk to compare it with the buffer.
func TestReadsOnlyTheWorkspace(t *testing.T) {
	outside := t.TempDir() // no repository above a temporary folder
	if _, ok := (&Server{}).workspaceOf(filepath.Join(outside, "x.cu")); ok {
		t.Skip("the temporary folder is inside a repository")
	}
	ws := t.TempDir()
	os.Mkdir(filepath.Join(ws, ".git"), 0o755)
	src := "#include \"stride.cuh\"\n__global__ void k(float* a) { a[threadIdx.x * STRIDE] = 0; }\n"
	// Not read either: it would disable the rule.
	writeFile(t, outside, ".cudalint.yaml", "disable: [strided-access]\n")
	for _, dir := range []string{outside, ws} {
		writeFile(t, dir, "stride.cuh", "#define STRIDE 1\n")
		writeFile(t, dir, "sibling.cu", "void h(float* a) { k<<<1, 32>>>(a); }\n")
		writeFile(t, dir, "x.cu", src)
	}
	tests := []struct {
		name    string
		dir     string
		folders []any
		read    bool // stride.cuh read: STRIDE is 1, no strided-access
	}{
		{"outside every folder and repository", outside, []any{map[string]any{"uri": pathToURI(ws), "name": "ws"}}, false},
		{"in a workspace folder", ws, []any{map[string]any{"uri": pathToURI(ws), "name": "ws"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var read []string
			saved := readDisk
			defer func() { readDisk = saved }()
			readDisk = func(path string) ([]byte, error) {
				mu.Lock()
				read = append(read, path)
				mu.Unlock()
				return saved(path)
			}
			c := newClient(t)
			var res map[string]any
			c.result("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}, "workspaceFolders": tt.folders}, &res)
			c.notify("initialized", map[string]any{})
			doc := filepath.Join(tt.dir, "x.cu")
			uri := c.open(doc, src)
			p := c.diagnostics(uri)
			if got := byCode(p, "strided-access") == nil; got != tt.read {
				t.Errorf("stride.cuh read %v, want %v: %+v", got, tt.read, p.Diagnostics)
			}
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
			c.diagnostics(uri)
			c.shutdown()
			mu.Lock()
			defer mu.Unlock()
			for _, r := range read {
				if filepath.Clean(r) == doc || !tt.read {
					t.Errorf("read %s from disk", r)
				}
			}
		})
	}
}

// A header line is bounded: a client that never sends its newline gets
// an error, not a server whose memory grows with the line.
func TestHeaderLinesBounded(t *testing.T) {
	tests := []struct {
		name, input, err string
	}{
		{"a message", "Content-Length: 2\r\n\r\n{}", ""},
		{"a line without end", "Content-Length: 2" + strings.Repeat(" ", 1<<20), "header line longer"},
		{"a long line", "X-Padding: " + strings.Repeat("a", 100<<10) + "\r\nContent-Length: 2\r\n\r\n{}", "header line longer"},
		{"endless header lines", strings.Repeat("X: 1\r\n", 10000) + "Content-Length: 2\r\n\r\n{}", "header lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStream(nopCloser{strings.NewReader(tt.input)}, log.New(io.Discard, "", 0))
			body, err := s.readBody()
			switch {
			case tt.err == "" && (err != nil || string(body) != "{}"):
				t.Errorf("body %q, error %v", body, err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

type nopCloser struct{ io.Reader }

func (nopCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopCloser) Close() error                { return nil }
