package cpp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

func texts(toks []lex.Token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Text
	}
	return strings.Join(parts, " ")
}

func TestPreprocess(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		defines map[string]string
		want    string
	}{
		{"object macro", "#define N 256\nint a[N];", nil, "int a [ 256 ] ;"},
		{"function macro", "#define IDX(r, c) ((r) * W + (c))\nx = IDX(y, x);", nil, "x = ( ( y ) * W + ( x ) ) ;"},
		{"nested arguments", "#define F(a, b) a + b\nF((1, 2), g(3, 4))", nil, "( 1 , 2 ) + g ( 3 , 4 )"},
		{"name without arguments", "#define F(a) a\nint F;", nil, "int F ;"},
		{"stringize", "#define S(x) #x\nS(a + b)", nil, `"a + b"`},
		{"paste", "#define CAT(a, b) a ## b\nCAT(foo, 42)", nil, "foo42"},
		{"variadic", "#define V(f, ...) f(__VA_ARGS__)\nV(g, 1, 2)", nil, "g ( 1 , 2 )"},
		{"multi-line", "#define TWO \\\n  2\nTWO", nil, "2"},
		{"undef", "#define A 1\n#undef A\nA", nil, "A"},
		{"self reference stops", "#define X X + 1\nX", nil, "X + 1"},
		{"mutual reference stops", "#define A B\n#define B A\nA B", nil, "A B"},
		{"if arithmetic", "#if 2 * 3 > 5 && !0\nyes\n#else\nno\n#endif", nil, "yes"},
		{"elif chain", "#define BS 128\n#if BS == 64\na\n#elif BS == 128\nb\n#else\nc\n#endif", nil, "b"},
		{"defined forms", "#if defined(A) || defined B\nyes\n#endif\n#ifdef A\nA\n#endif\n#ifndef C\nnoC\n#endif", map[string]string{"B": ""}, "yes noC"},
		{"nested false", "#if 0\n#if 1\na\n#endif\nb\n#else\nc\n#endif", nil, "c"},
		{"command-line define", "int x = SIZE;", map[string]string{"SIZE": "1024"}, "int x = 1024 ;"},
		{"cuda predefined", "#ifdef __CUDACC__\ncuda\n#endif\n#if __CUDA_ARCH__ >= 700\nvolta\n#endif\n#if CUDART_VERSION >= 2020\nrt\n#endif", nil, "cuda volta rt"},
		{"system include skipped", "#include <cuda_runtime.h>\nint a;", nil, "int a ;"},
		{"pragma dropped", "#pragma unroll\nfor", nil, "for"},
		{"crlf and bom", "\xEF\xBB\xBF#define N 4\r\nint a[N];\r\n", nil, "int a [ 4 ] ;"},
		{"comments", "a /* b */ c // d\ne", nil, "a c e"},
		{"literals", `s = "a\"b"; c = 'x'; f = 1.5e-3f; h = 0x1Fu;`, nil, `s = "a\"b" ; c = 'x' ; f = 1.5e-3f ; h = 0x1Fu ;`},
		{"chevrons", "k<<<g, b>>>(x);", nil, "k <<< g , b >>> ( x ) ;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pp := Preprocess("t.cu", []byte(tt.src), Config{Defines: tt.defines})
			if got := texts(pp.Tokens); got != tt.want {
				t.Errorf("got  %q\nwant %q\nnotes %v", got, tt.want, pp.Notes)
			}
		})
	}
}

// Positions survive macro expansion: body tokens stand at the invocation,
// argument tokens at their own place.
func TestPreprocessPositions(t *testing.T) {
	src := "#define IDX(r, c) ((r) * W + (c))\nout[IDX(y,\n        x)] = 0;\n"
	pp := Preprocess("p.cu", []byte(src), Config{})
	find := func(text string) lex.Token {
		for _, tok := range pp.Tokens {
			if tok.Text == text {
				return tok
			}
		}
		t.Fatalf("no token %q", text)
		return lex.Token{}
	}
	for _, c := range []struct {
		text      string
		line, col int
		macro     bool
	}{
		{"out", 2, 1, false},
		{"W", 2, 5, true},  // from the body: at the invocation IDX
		{"y", 2, 9, false}, // an argument: where the user wrote it
		{"x", 3, 9, false},
	} {
		tok := find(c.text)
		if int(tok.Pos.Line) != c.line || int(tok.Pos.Col) != c.col || (tok.Macro != nil) != c.macro {
			t.Errorf("%s at %v (macro %v), want %d:%d (macro %v)", c.text, tok.Pos, tok.Macro != nil, c.line, c.col, c.macro)
		}
	}
	if w := find("W"); w.Macro == nil || w.Macro.Name != "IDX" || w.Macro.Def.Line != 1 {
		t.Errorf("W's macro origin = %+v, want IDX defined on line 1", w.Macro)
	}
}

func TestPreprocessIncludes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("common.cuh", "#pragma once\n#define BLOCK 256\nstruct P { float x; };\n")
	write("cycle_a.cuh", "#include \"cycle_b.cuh\"\na\n")
	write("cycle_b.cuh", "#include \"cycle_a.cuh\"\nb\n")
	main := write("main.cu", "#include \"common.cuh\"\n#include \"common.cuh\"\n#include \"missing.cuh\"\nint n = BLOCK;\n#include \"cycle_a.cuh\"\n")
	src, _ := os.ReadFile(main)
	pp := Preprocess(main, src, Config{})
	got := texts(pp.Tokens)
	if !strings.HasPrefix(got, "struct P { float x ; } ; int n = 256 ;") {
		t.Errorf("tokens: %s", got)
	}
	if strings.Count(got, "struct P") != 1 {
		t.Errorf("#pragma once ignored: %s", got)
	}
	var sawMissing, sawCycle bool
	for _, n := range pp.Notes {
		sawMissing = sawMissing || (strings.Contains(n.Msg, "missing.cuh") && n.Pos.Line == 3)
		sawCycle = sawCycle || strings.Contains(n.Msg, "nested more than")
	}
	if !sawMissing || !sawCycle {
		t.Errorf("notes %v: want a missing include at line 3 and an include-depth note", pp.Notes)
	}
	if len(pp.Includes) != 3 {
		t.Errorf("includes %v, want common, cycle_a, cycle_b", pp.Includes)
	}
}

// Hostile macros are bounded: an exponential expansion stops at the limit
// with a note instead of exhausting memory.
func TestPreprocessExpansionLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("#define M0 x x\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, "#define M%d M%d M%d\n", i, i-1, i-1)
	}
	b.WriteString("M39\n")
	pp := Preprocess("bomb.cu", []byte(b.String()), Config{})
	if len(pp.Tokens) > 2*maxExpandedTokens {
		t.Errorf("%d tokens: the limit did not hold", len(pp.Tokens))
	}
	if len(pp.Notes) == 0 || !strings.Contains(pp.Notes[0].Msg, "expansion") {
		t.Errorf("notes %v: want the expansion limit reported", pp.Notes)
	}
}

func TestPreprocessErrors(t *testing.T) {
	tests := []struct {
		src, want string
		line      int
	}{
		{"#if 1\nint a;\n", "unterminated #if", 1},
		{"#endif\n", "#endif without #if", 1},
		{"int a;\n#error stop here\n", "#error stop here", 2},
		{"x = F(1, 2\n", "unterminated argument list", 0},
		{"s = \"abc\n", "unterminated string", 1},
		{"/* never closed", "unterminated comment", 1},
		{"#if 1 +\n#endif\n", "cannot evaluate #if", 1},
	}
	for _, tt := range tests {
		src := tt.src
		if strings.Contains(src, "F(") {
			src = "#define F(a, b) a\n" + src
			tt.line = 2
		}
		pp := Preprocess("e.cu", []byte(src), Config{})
		found := false
		for _, n := range pp.Notes {
			if strings.Contains(n.Msg, tt.want) && int(n.Pos.Line) == tt.line && n.Pos.File == "e.cu" {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: notes %v, want %q at line %d", tt.src, pp.Notes, tt.want, tt.line)
		}
	}
}

// #include <name> reads the project's own file when the includer's folder
// has it (projects build with -I.); a system header is skipped silently.
func TestPreprocessAngleIncludes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kernel.cu"), []byte("#define BLOCK_SIZE 16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.cu")
	src := []byte("#include <stdio.h>\n#include <kernel.cu>\nint n = BLOCK_SIZE;\n")
	pp := Preprocess(main, src, Config{})
	if got := texts(pp.Tokens); got != "int n = 16 ;" {
		t.Errorf("tokens: %s", got)
	}
	if len(pp.Notes) != 0 || len(pp.Includes) != 1 {
		t.Errorf("notes %v, includes %v: want kernel.cu read and no note for stdio.h", pp.Notes, pp.Includes)
	}
}
