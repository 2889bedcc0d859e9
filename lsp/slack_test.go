package lsp

import (
	"os"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

// tokensAlike reports where ana's tokens differ from src's in kind,
// spelling, line or column, and whether shifts map each of ana's offsets
// to src's.
func tokensAlike(t *testing.T, src, ana []byte, shifts []shift) {
	t.Helper()
	var na, nb lex.Notes
	a, b := lex.Scan("f.cu", src, &na), lex.Scan("f.cu", ana, &nb)
	if len(a) != len(b) {
		t.Fatalf("%d tokens, analyzed %d", len(a), len(b))
	}
	r := &result{shifts: shifts}
	for i := range a {
		x, y := a[i], b[i]
		if x.Kind != y.Kind || x.Text != y.Text || x.Pos.Line != y.Pos.Line || x.Pos.Col != y.Pos.Col || x.Space != y.Space || x.BOL != y.BOL {
			t.Fatalf("token %d: %q at %d:%d, analyzed %q at %d:%d", i, x.Text, x.Pos.Line, x.Pos.Col, y.Text, y.Pos.Line, y.Pos.Col)
		}
		if got := r.off(int(y.Pos.Offset)); got != int(x.Pos.Offset) {
			t.Fatalf("token %d %q: offset %d maps to %d, want %d", i, x.Text, y.Pos.Offset, got, x.Pos.Offset)
		}
	}
}

// Typing keeps the analyzed text's length, its tokens the buffer's.
func TestSlackTyping(t *testing.T) {
	raw, err := os.ReadFile("testdata/incremental/main.cu")
	if err != nil {
		t.Fatal(err)
	}
	d := &document{src: raw}
	type edit struct {
		name, old, new string
		kept           bool // the analyzed text keeps its length
	}
	for _, e := range []edit{
		{"a digit typed in a kernel", "r * 1024 + c", "r * 10245 + c", true},
		{"another", "r * 10245 + c", "r * 102456 + c", true},
		{"deleted", "r * 102456 + c", "r * 10 + c", true},
		{"a launch's block", "dim3 block(16, 16);", "dim3 block(32, 16);", true},
		// main() ends the file: no line after it has slack.
		{"a word typed in the last function", "launch_all(nullptr,", "launch_all(/* x */ nullptr,", false},
		{"a line added", "    __syncthreads();\n", "    __syncthreads();\n    __syncthreads();\n", false},
		// The comment gave its slack to the edits before: the edit
		// touches their patch, and the analyzed text is the buffer again.
		{"a patched comment typed in", "// load", "// load it", false},
		{"a digit typed after", "r * 10 + c", "r * 100 + c", true},
		{"the last line's code", "return 0;", "return 10;", false},
	} {
		if !strings.Contains(string(d.src), e.old) {
			t.Fatalf("%s: %q is not in the text", e.name, e.old)
		}
		old, before := d.src, len(d.analyzedText())
		d.src = []byte(strings.Replace(string(d.src), e.old, e.new, 1))
		d.retarget(old)
		if kept := len(d.analyzedText()) == before; kept != e.kept {
			t.Errorf("%s: length kept %v, want %v (patches %+v)", e.name, kept, e.kept, d.patches)
		}
		tokensAlike(t, d.src, d.analyzedText(), shiftsOf(d.patches))
	}
}

// Which line ends may give or take slack.
func TestSlackLines(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		eligible  []bool
	}{
		{"statements, a comment, a blank", "int a;\n// two\n\nint b;  \n", []bool{true, true, true, true}},
		{"an open bracket", "f(a,\n  // x\n  b);\n", []bool{false, false, false}},
		{"a block comment", "/* a\n b */ int c;\n", []bool{false, false}},
		{"a directive and its comment", "#define A 1 // x\n// y\n", []bool{false, true}},
		{"a splice", "#define A \\\n  1;\nint b;\n", []bool{false, false, true}},
		{"a quote", "char c = ';'; // x\n", []bool{false}},
		{"a cudalint comment", "int a; // cudalint:ignore strided-access\n", []bool{false}},
		{"code after a brace", "if (a) {\n  // x\n}\nint b = c +\n  // y\n  d;\n", []bool{false, true, false, false, false, true}},
	} {
		sc := newLineScanner([]byte(tc.src))
		var got []bool
		for {
			ln, ok := sc.next()
			if !ok {
				break
			}
			got = append(got, ln.eligible)
		}
		if len(got) != len(tc.eligible) {
			t.Errorf("%s: %d lines, want %d", tc.name, len(got), len(tc.eligible))
			continue
		}
		for i := range got {
			if got[i] != tc.eligible[i] {
				t.Errorf("%s: line %d eligible %v, want %v", tc.name, i+1, got[i], tc.eligible[i])
			}
		}
	}
}

// What a cut may take from a line's end.
func TestCuttable(t *testing.T) {
	for _, tc := range []struct {
		cut    string
		before byte
		ok     bool
	}{
		{" types", 's', true},
		{"CUDA/cuBLAS it's \"x\"", ' ', true},
		{"", 'x', true},
		{"a */", ' ', false}, // a block comment's end, were the line in one
		{"/ b", '*', false},  // the same, split
		{"x", '\\', false},   // a splice left behind
		{"/ b", ' ', true},
	} {
		if got := cuttable([]byte(tc.cut), tc.before); got != tc.ok {
			t.Errorf("cut %q after %q: %v, want %v", tc.cut, tc.before, got, tc.ok)
		}
	}
}

// Keystrokes all over real files keep the analyzed text's tokens the
// buffer's: each inserts or deletes a byte at a place drawn in turn (the
// checkouts in /work/proj; skipped without them).
func TestSlackKeystrokes(t *testing.T) {
	for _, path := range []string{"/work/proj/llm.c/train_gpt2.cu", "/work/proj/llm.c/llmc/layernorm.cuh", "/work/proj/ggml/src/ggml-cuda/ggml-cuda.cu"} {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Skipf("%s: %v", path, err)
		}
		d := &document{src: raw}
		patched := 0
		seed := uint32(1)
		for k := 0; k < 100; k++ {
			seed = seed*1664525 + 1013904223
			at := int(seed>>8) % len(d.src)
			old := d.src
			var next []byte
			if seed&1 == 0 {
				next = append(append(append([]byte(nil), old[:at]...), 'x'), old[at:]...)
			} else {
				next = append(append([]byte(nil), old[:at]...), old[at+1:]...)
			}
			d.src = next
			d.retarget(old)
			if len(d.patches) > 0 {
				patched++
			}
			tokensAlike(t, d.src, d.analyzedText(), shiftsOf(d.patches))
		}
		if patched == 0 {
			t.Errorf("%s: no keystroke took slack", path)
		}
	}
}
