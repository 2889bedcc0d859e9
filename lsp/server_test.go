package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// matmul is examples/matmul.cu: a swapped-axes store with a fix, and a
// strided load.
func matmul(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../examples/matmul.cu")
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

func byCode(p PublishDiagnosticsParams, code string) *Diagnostic {
	for i := range p.Diagnostics {
		if p.Diagnostics[i].Code == code {
			return &p.Diagnostics[i]
		}
	}
	return nil
}

func TestSession(t *testing.T) {
	dir := t.TempDir()
	src := matmul(t)
	path := writeFile(t, dir, "matmul.cu", src)
	c := newClient(t)
	caps := c.initialize(nil)
	if caps["positionEncoding"] != "utf-16" || caps["hoverProvider"] != true {
		t.Fatalf("capabilities: %v", caps)
	}
	uri := c.open(path, src)

	// Diagnostics on open.
	p := c.diagnostics(uri)
	if len(p.Diagnostics) != 2 {
		t.Fatalf("want 2 diagnostics, got %+v", p.Diagnostics)
	}
	sw := byCode(p, "swapped-axes")
	if sw == nil {
		t.Fatalf("no swapped-axes diagnostic: %+v", p.Diagnostics)
	}
	// The store runs once per thread beside the kernel's loop of loads:
	// under 1% of its time, so info (docs/severity.md).
	if sw.Source != "cudalint" || sw.Severity != SeverityInformation || sw.CodeDescription == nil ||
		!strings.HasSuffix(sw.CodeDescription.Href, "swapped-axes.md") {
		t.Errorf("diagnostic fields: %+v", sw)
	}
	// C[row * N + col] = acc; on line 14 (13 from 0), column 5.
	if sw.Range.Start != (Position{13, 4}) || sw.Range.End != (Position{13, 20}) {
		t.Errorf("range %+v, want 13:4-13:20", sw.Range)
	}
	if len(sw.RelatedInformation) != 1 || sw.RelatedInformation[0].Location.Range.Start.Line != 28 ||
		!strings.Contains(sw.RelatedInformation[0].Message, "block 16x16 from this launch") {
		t.Errorf("related information: %+v", sw.RelatedInformation)
	}
	if fp, _ := sw.Data.(map[string]any)["fingerprint"].(string); len(fp) != 32 {
		t.Errorf("data: %v, want a fingerprint", sw.Data)
	}

	// Hover on the store.
	var h Hover
	c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{13, 6}}, &h)
	for _, want := range []string{"store", "C[row * N + col]", "sectors/request: **16.00**, ideal 4.00", "efficiency **25%**",
		"lane stride: 4096 bytes", "block 16x16 from launch at matmul.cu:29", "first warp: ▂·▂",
		"fixing it: under 1.01x for this kernel"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	if h.Contents.Kind != "markdown" {
		t.Errorf("hover kind %q", h.Contents.Kind)
	}
	// Hover on nothing.
	m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{0, 0}})
	if m.Error != nil || string(m.Result) != "null" {
		t.Errorf("hover on a comment: %s %v", m.Result, m.Error)
	}

	// Code actions on the store's line.
	var actions []CodeAction
	c.result("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": Range{Position{13, 8}, Position{13, 8}}, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	titles := map[string]CodeAction{}
	for _, a := range actions {
		titles[a.Title] = a
	}
	fix, ok := titles["swap the roles of x and y in matmul_rows_on_x"]
	if !ok || !fix.IsPreferred || fix.Kind != "quickfix" || len(fix.Diagnostics) != 1 {
		t.Fatalf("no preferred swap fix among %+v", actions)
	}
	for _, want := range []string{"Ignore swapped-axes on this line", "Ignore swapped-axes in this file"} {
		if _, ok := titles[want]; !ok {
			t.Errorf("no %q action", want)
		}
	}
	fixed := apply(t, src, fix.Edit.Changes[uri], c.enc)
	if !strings.Contains(fixed, "void matmul_rows_on_x(const float* A, const float* B, float* C) {\n    int row = blockIdx.y * blockDim.y + threadIdx.y;\n    int col = blockIdx.x * blockDim.x + threadIdx.x;") {
		t.Fatalf("the fix did not swap the axes:\n%s", fixed)
	}

	// An edit: the unsaved buffer is analyzed, the finding is gone.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": fixed}}})
	p = c.diagnostics(uri)
	if p.Version == nil || *p.Version != 2 || len(p.Diagnostics) != 0 {
		t.Errorf("after the fix: version %v, %+v", p.Version, p.Diagnostics)
	}

	// An incremental edit that puts a suppression above the load, which
	// the fix made a broadcast: the ignore suppresses nothing.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"range": Range{Position{12, 0}, Position{12, 0}}, "text": "        // cudalint:ignore strided-access\n"}}})
	p = c.diagnostics(uri)
	if un := byCode(p, "unused-ignore"); len(p.Diagnostics) != 1 || un == nil || un.Range.Start != (Position{12, 8}) {
		t.Errorf("after the ignore: %+v", p.Diagnostics)
	}

	// Close clears.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if p = c.diagnostics(uri); len(p.Diagnostics) != 0 || p.Diagnostics == nil {
		t.Errorf("after close: %+v", p.Diagnostics)
	}
	c.shutdown()
}

func TestIgnoreActionsAndFixAll(t *testing.T) {
	dir := t.TempDir()
	src := matmul(t)
	path := writeFile(t, dir, "matmul.cu", src)
	c := newClient(t)
	c.initialize(nil)
	uri := c.open(path, src)
	c.diagnostics(uri)
	actionsAt := func(line int, only ...string) map[string]CodeAction {
		var actions []CodeAction
		ctx := map[string]any{"diagnostics": []any{}}
		if len(only) > 0 {
			ctx["only"] = only
		}
		c.result("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": Range{Position{line, 0}, Position{line, 0}}, "context": ctx}, &actions)
		out := map[string]CodeAction{}
		for _, a := range actions {
			out[a.Title] = a
		}
		return out
	}
	version := 1
	change := func(text string) PublishDiagnosticsParams {
		version++
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{map[string]any{"text": text}}})
		return c.diagnostics(uri)
	}

	// Ignore on this line: the comment goes above, indented alike.
	a := actionsAt(12)["Ignore strided-access on this line"]
	text := apply(t, src, a.Edit.Changes[uri], c.enc)
	if !strings.Contains(text, "        // cudalint:ignore strided-access\n        acc += A[row * N + k]") {
		t.Fatalf("ignore comment:\n%s", text)
	}
	if p := change(text); byCode(p, "strided-access") != nil || len(p.Diagnostics) != 1 {
		t.Errorf("after ignoring on the line: %+v", p.Diagnostics)
	}

	// Ignore in this file.
	a = actionsAt(14)["Ignore swapped-axes in this file"]
	text = apply(t, text, a.Edit.Changes[uri], c.enc)
	if !strings.HasPrefix(text, "// cudalint:file-ignore swapped-axes\n") {
		t.Fatalf("file-ignore:\n%s", text)
	}
	if p := change(text); len(p.Diagnostics) != 0 {
		t.Errorf("after ignoring in the file: %+v", p.Diagnostics)
	}

	// An ignore that suppresses nothing, and its removal.
	text = strings.Replace(text, "    float acc = 0.0f;\n", "    float acc = 0.0f; // cudalint:ignore aos-field\n", 1)
	p := change(text)
	un := byCode(p, "unused-ignore")
	if un == nil {
		t.Fatalf("no unused-ignore: %+v", p.Diagnostics)
	}
	a = actionsAt(un.Range.Start.Line)["Remove the unused cudalint comment"]
	if a.Edit == nil {
		t.Fatal("no removal action")
	}
	text = apply(t, text, a.Edit.Changes[uri], c.enc)
	if !strings.Contains(text, "    float acc = 0.0f;\n") || strings.Contains(text, "aos-field") {
		t.Errorf("removal:\n%s", text)
	}
	if p := change(text); len(p.Diagnostics) != 0 {
		t.Errorf("after the removal: %+v", p.Diagnostics)
	}

	// Fix all, asked for by kind, on the original.
	change(src)
	all := actionsAt(0, "source.fixAll")
	fa, ok := all["Apply every cudalint fix in this file"]
	if !ok || fa.Kind != KindFixAll || len(all) != 1 {
		t.Fatalf("fix-all: %+v", all)
	}
	text = apply(t, src, fa.Edit.Changes[uri], c.enc)
	if p := change(text); byCode(p, "swapped-axes") != nil {
		t.Errorf("after fix-all: %+v", p.Diagnostics)
	}
	c.shutdown()
}

func TestBadRequests(t *testing.T) {
	c := newClient(t)
	// Before initialize: an error, not a crash.
	if m := c.call("textDocument/hover", map[string]any{}); m.Error == nil || m.Error.Code != -32002 {
		t.Errorf("before initialize: %+v", m)
	}
	c.initialize(nil)
	// Not JSON: a parse error with id null.
	ch := c.response("null")
	c.writeRaw(`{"jsonrpc": "2.0", "id": 99, "method": `)
	if m := c.await(ch, "garbage"); m.Error == nil || m.Error.Code != -32700 {
		t.Errorf("garbage: %+v", m)
	}
	// JSON, but not a message.
	ch = c.response("null")
	c.writeRaw(`[1, 2]`)
	if m := c.await(ch, "not a message"); m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("not a message: %+v", m)
	}
	if m := c.call("no/such/method", nil); m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("unknown method: %+v", m)
	}
	if m := c.call("textDocument/hover", 5); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("bad params: %+v", m)
	}
	if m := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere.cu"},
		"range": Range{}, "context": map[string]any{}}); m.Error != nil || string(m.Result) != "[]" {
		t.Errorf("code action on a file not open: %s %+v", m.Result, m.Error)
	}
	if m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "http://x"}}); m.Error != nil {
		t.Errorf("hover on a non-file URI: %+v", m.Error)
	}
	if m := c.call("initialize", map[string]any{"capabilities": map[string]any{}}); m.Error == nil {
		t.Error("a second initialize succeeded")
	}
	if m := c.call("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"run": "sometimes"}}); m.Error == nil {
		t.Error("a bad setting was accepted")
	}
	// Still alive, and the spec's shutdown: requests after it are errors.
	c.result("shutdown", nil, nil)
	if m := c.call("textDocument/hover", map[string]any{}); m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("after shutdown: %+v", m)
	}
	c.notify("exit", nil)
	if code := <-c.done; code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.notify("exit", nil)
	if code := <-c.done; code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
}

// TestUTF16 checks columns on a line with characters outside ASCII and
// outside the Basic Multilingual Plane, in each encoding.
func TestPositionEncodings(t *testing.T) {
	src := strings.Replace(matmul(t), "    C[row * N + col] = acc;\n    }", "", 1)
	src = strings.Replace(src, "    C[row * N + col] = acc;\n}\n\n__global__ void matmul(", "    /* é😀 */ C[row * N + col] = acc;\n}\n\n__global__ void matmul(", 1)
	for _, tc := range []struct {
		offer []string
		enc   string
		col   int
	}{
		{nil, "utf-16", 4 + 9 + 1},                      // "/* é😀 */ " is 9 UTF-16 units, plus the space
		{[]string{"utf-16", "utf-32"}, "utf-32", 4 + 9}, // 8 code points, plus the space
		{[]string{"utf-8", "utf-16"}, "utf-8", 4 + 13},  // 12 bytes, plus the space
	} {
		dir := t.TempDir()
		path := writeFile(t, dir, "m.cu", src)
		c := newClient(t)
		caps := c.initialize(nil, tc.offer...)
		if caps["positionEncoding"] != tc.enc {
			t.Errorf("offered %v: chose %v, want %s", tc.offer, caps["positionEncoding"], tc.enc)
		}
		uri := c.open(path, src)
		sw := byCode(c.diagnostics(uri), "swapped-axes")
		if sw == nil || sw.Range.Start != (Position{13, tc.col}) || sw.Range.End != (Position{13, tc.col + 16}) {
			t.Errorf("%s: range %+v, want 13:%d", tc.enc, sw, tc.col)
		}
		// A hover at the diagnostic's start finds the access.
		var h Hover
		c.result("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": sw.Range.Start}, &h)
		if !strings.Contains(h.Contents.Value, "C[row * N + col]") || h.Range == nil || *h.Range != sw.Range {
			t.Errorf("%s: hover %+v", tc.enc, h)
		}
		// An incremental edit after the emoji lands where it should.
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
			"contentChanges": []any{map[string]any{"range": Range{Position{13, tc.col}, Position{13, tc.col}}, "text": "// "}}})
		if p := c.diagnostics(uri); byCode(p, "swapped-axes") != nil {
			t.Errorf("%s: the edit did not comment the store out: %+v", tc.enc, p.Diagnostics)
		}
		c.shutdown()
	}
}

// TestHeaderAndConfig: an open file is re-analyzed when a header it
// includes changes (in its buffer, or on disk) and when its
// configuration changes; settings come from initializationOptions and
// didChangeConfiguration.
func TestHeaderAndConfig(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	hdr := writeFile(t, dir, "stride.cuh", "#define STRIDE 1\n")
	src := "#include \"stride.cuh\"\n__global__ void k(float* a) {\n    a[(blockIdx.x * blockDim.x + threadIdx.x) * STRIDE] = 0;\n}\nvoid h(float* a) { k<<<64, 256>>>(a); }\n"
	path := writeFile(t, dir, "k.cu", src)
	c := newClient(t)
	c.initialize(map[string]any{"params": map[string]any{"unused": 3}, "run": "onType"})
	uri := c.open(path, src)
	if p := c.diagnostics(uri); len(p.Diagnostics) != 0 {
		t.Fatalf("stride 1: %+v", p.Diagnostics)
	}
	// The header's unsaved buffer changes: k.cu is analyzed again.
	huri := c.open(hdr, "#define STRIDE 1\n")
	c.diagnostics(huri)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": huri, "version": 2},
		"contentChanges": []any{map[string]any{"text": "#define STRIDE 32\n"}}})
	if p := c.diagnostics(uri); byCode(p, "strided-access") == nil {
		t.Fatalf("stride 32 in the header's buffer: %+v", p.Diagnostics)
	}
	// Closing the header reads the disk again: stride 1.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": huri}})
	if p := c.diagnostics(uri); len(p.Diagnostics) != 0 {
		t.Fatalf("after closing the header: %+v", p.Diagnostics)
	}
	// The header changes on disk.
	writeFile(t, dir, "stride.cuh", "#define STRIDE 8\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(hdr), "type": 2}}})
	if p := c.diagnostics(uri); byCode(p, "strided-access") == nil {
		t.Fatalf("stride 8 on disk: %+v", p.Diagnostics)
	}
	// A configuration appears that disables the rule.
	cfg := writeFile(t, dir, ".cudalint.yaml", "disable: [strided-access]\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(cfg), "type": 1}}})
	if p := c.diagnostics(uri); len(p.Diagnostics) != 0 {
		t.Fatalf("with the rule disabled: %+v", p.Diagnostics)
	}
	// A broken configuration is an error diagnostic, not silence.
	writeFile(t, dir, ".cudalint.yaml", "disable: [no-such-rule]\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": pathToURI(cfg), "type": 2}}})
	if p := c.diagnostics(uri); len(p.Diagnostics) != 1 || p.Diagnostics[0].Severity != SeverityError ||
		!strings.Contains(p.Diagnostics[0].Message, "no-such-rule") {
		t.Fatalf("with a broken configuration: %+v", p.Diagnostics)
	}
	os.Remove(cfg)
	// Settings: a config path, then a minimum severity above warning.
	other := writeFile(t, dir, "other.yaml", "params: {}\n")
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"cudalint": map[string]any{"configPath": other}}})
	if p := c.diagnostics(uri); byCode(p, "strided-access") == nil {
		t.Fatalf("with configPath: %+v", p.Diagnostics)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"severity": "error"}})
	if p := c.diagnostics(uri); len(p.Diagnostics) != 0 {
		t.Fatalf("with severity error: %+v", p.Diagnostics)
	}
	// On save only: edits publish nothing until the save.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"run": "onSave"}})
	if p := c.diagnostics(uri); byCode(p, "strided-access") == nil {
		t.Fatalf("run on save: %+v", p.Diagnostics)
	}
	fixed := strings.Replace(src, "* STRIDE]", "]", 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": fixed}}})
	time.Sleep(200 * time.Millisecond) // ten debounce intervals
	select {
	case m := <-c.notes:
		t.Fatalf("published on type with run: onSave: %s", m.Params)
	default:
	}
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if p := c.diagnostics(uri); len(p.Diagnostics) != 0 || *p.Version != 2 {
		t.Fatalf("after the save: %+v", p)
	}
	c.shutdown()
}
