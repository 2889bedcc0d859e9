package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log the server writes from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// session is a client with the latest publication of each document.
type session struct {
	c      *client
	latest map[string]PublishDiagnosticsParams
}

func (s *session) record(m message) {
	if m.Method != "textDocument/publishDiagnostics" {
		return
	}
	var p PublishDiagnosticsParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		s.c.t.Fatal(err)
	}
	s.latest[p.URI] = p
}

// settle waits until the server has analyzed uri at version v and
// published what follows from it (the other open files it feeds): a
// hover waits for the server's lock, which an analysis holds.
func (s *session) settle(uri string, v int) {
	s.c.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		if p, ok := s.latest[uri]; ok && p.Version != nil && *p.Version == v {
			break
		}
		select {
		case m, ok := <-s.c.notes:
			if !ok {
				s.c.t.Fatal("server closed the stream")
			}
			s.record(m)
		case <-deadline:
			s.c.t.Fatalf("no diagnostics for %s v%d", uri, v)
		}
	}
	s.c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{0, 0}})
	for {
		select {
		case m := <-s.c.notes:
			s.record(m)
		default:
			return
		}
	}
}

func (s *session) hover(uri string, pos Position) string {
	s.c.t.Helper()
	m := s.c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos})
	if m.Error != nil {
		s.c.t.Fatalf("hover: %v", m.Error.Message)
	}
	return string(m.Result)
}

// TestIncrementalMatchesFresh edits a header and the file including it
// in turn, as typing does, and compares every step's diagnostics and
// hovers with those of a new server given the same texts: what the
// session reuses from one analysis to the next never shows.
func TestIncrementalMatchesFresh(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	read := func(name string) string {
		src, err := os.ReadFile(filepath.Join("testdata/incremental", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(src)
	}
	names := []string{"lib.cuh", "main.cu"}
	orig := map[string]string{}
	paths := map[string]string{}
	for _, n := range names {
		orig[n] = read(n)
		paths[n] = writeFile(t, dir, n, orig[n])
	}
	texts := map[string]string{"lib.cuh": orig["lib.cuh"], "main.cu": orig["main.cu"]}

	open := func(log *syncBuffer) (*session, map[string]string) {
		c := newClient(t)
		c.debounce(time.Microsecond)
		if log != nil {
			c.opts.Log = log
		}
		c.initialize(nil)
		s := &session{c: c, latest: map[string]PublishDiagnosticsParams{}}
		uris := map[string]string{}
		for _, n := range names {
			uris[n] = c.open(paths[n], texts[n])
			s.settle(uris[n], 1)
		}
		return s, uris
	}
	log := &syncBuffer{}
	inc, uris := open(log)
	versions := map[string]int{"lib.cuh": 1, "main.cu": 1}

	steps := []struct {
		name, file, old, new string
	}{
		{"a kernel's index", "main.cu", "store(out, r * 1024 + c,", "store(out, c * 1024 + r,"},
		{"a launch's block", "main.cu", "dim3 block(16, 16);", "dim3 block(32, 8);"},
		{"a comment", "main.cu", "// a column walk", "// a column walk, retyped"},
		{"a comment after code", "main.cu", "// back out", "// back out, coalesced"},
		{"a comment before code", "main.cu", "/* lane */", "/* the lane */"},
		{"a comment made a directive", "main.cu", "// load", "// cudalint:ignore strided-access"},
		{"a comment retyped again", "main.cu", "// a column walk, retyped", "// a walk"},
		{"a kernel's statement re-indented", "main.cu", "    int i = blockIdx.x", "        int i = blockIdx.x"},
		{"spaces inside a kernel's index", "main.cu", "in[i * STRIDE]", "in[i  *  STRIDE]"},
		{"a blank line in a kernel", "main.cu", "    __syncthreads();\n", "    __syncthreads();\n\n"},
		{"a host statement re-indented", "main.cu", "    columns<<<", "\tcolumns<<<"},
		{"trailing spaces after a launch", "main.cu", "(out, in);\n", "(out, in);   \n"},
		{"a space made a line break", "main.cu", "const int STRIDE", "const int\nSTRIDE"},
		{"the line break made a space again", "main.cu", "const int\nSTRIDE", "const int STRIDE"},
		{"lines above the kernels", "main.cu", "const int STRIDE = 4;\n", "const int STRIDE = 4;\n\n\n"},
		{"a constant a kernel reads", "main.cu", "const int STRIDE = 4;", "const int STRIDE = 1;"},
		{"a helper in the header", "lib.cuh", "return a[i];", "return a[2 * i];"},
		{"a struct's fields", "lib.cuh", "struct Particle { float x, y, z, w; };", "struct Particle { float x, y; };"},
		{"a typedef", "lib.cuh", "typedef float real;", "typedef double real;"},
		{"a macro", "lib.cuh", "#define TILE 32", "#define TILE 33"},
		{"a template launch", "main.cu", "scale<float><<<", "scale<double><<<"},
		{"a host statement", "main.cu", "1 << 20", "1 << 16"},
		{"a helper removed", "lib.cuh", "__device__ void store(real* a, int i, real v) { a[i] = v; }\n", ""},
		{"back to the start", "", "", ""},
		{"the first edit again", "main.cu", "store(out, r * 1024 + c,", "store(out, c * 1024 + r,"},
	}
	for _, st := range steps {
		changed := []string{st.file}
		if st.file == "" {
			changed = names
			for _, n := range names {
				texts[n] = orig[n]
			}
		} else {
			if !strings.Contains(texts[st.file], st.old) {
				t.Fatalf("%s: %q is not in %s", st.name, st.old, st.file)
			}
			texts[st.file] = strings.Replace(texts[st.file], st.old, st.new, 1)
		}
		for _, n := range changed {
			versions[n]++
			inc.c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uris[n], "version": versions[n]},
				"contentChanges": []any{map[string]any{"text": texts[n]}}})
			inc.settle(uris[n], versions[n])
		}
		fresh, furis := open(nil)
		for _, n := range names {
			got, want := inc.latest[uris[n]].Diagnostics, fresh.latest[furis[n]].Diagnostics
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			if string(gj) != string(wj) {
				t.Errorf("after %s, %s:\n incremental %s\n       fresh %s", st.name, n, gj, wj)
			}
			// Hover every access: each '[' and each diagnostic's start.
			var at []Position
			for i, line := range strings.Split(texts[n], "\n") {
				for j := 0; j < len(line); j++ {
					if line[j] == '[' {
						at = append(at, Position{i, j})
					}
				}
			}
			for _, d := range want {
				at = append(at, d.Range.Start)
			}
			for _, pos := range at {
				if g, w := inc.hover(uris[n], pos), fresh.hover(furis[n], pos); g != w {
					t.Errorf("after %s, hover at %s:%d:%d:\n incremental %s\n       fresh %s", st.name, n, pos.Line+1, pos.Character+1, g, w)
				}
			}
		}
		fresh.c.shutdown()
	}
	inc.c.shutdown()

	if n := strings.Count(log.String(), "an edit inside a comment"); n < 3 {
		t.Errorf("%d analyses reused whole after edits inside comments, want the three that allow it", n)
	}
	// Edits that changed a line's length took it back from slack.
	if !regexp.MustCompile(`lines patched [1-9]`).MatchString(log.String()) {
		t.Errorf("no analysis of a text with slack taken")
	}
	// The session did reuse analyses, and re-analyzed some kernels too.
	re := regexp.MustCompile(`host functions interpreted (\d+), reused (\d+); kernels interpreted (\d+), reused (\d+); predicted (\d+), reused (\d+)`)
	var sums [6]int
	for _, m := range re.FindAllStringSubmatch(log.String(), -1) {
		for i := range sums {
			n, _ := strconv.Atoi(m[i+1])
			sums[i] += n
		}
	}
	for i, n := range sums {
		if n == 0 {
			t.Errorf("host functions interpreted %d, reused %d; kernels interpreted %d, reused %d; predicted %d, reused %d: want some of each (%d is 0)",
				sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], i)
		}
	}
}
