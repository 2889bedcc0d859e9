package parser

import (
	"slices"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

// A part of a statement the parser cannot read is never dropped in
// silence: a for loop that loses its condition, or a switch that loses a
// case value, is analyzed differently, and the note says so where it
// happened.
func TestUnreadStatementPartsAreNoted(t *testing.T) {
	tests := []struct {
		name, stmt string
		col        int32 // where the note must be, on line 2
		msg        string
	}{
		{"for condition", "for (int j = 0; j < 4 ?: 3; j++) a[j] = 0;", 21, "for condition not understood: "},
		{"for step", "for (int j = 0; j < 4; j += ?) a[j] = 0;", 28, "for step not understood: "},
		{"case value", "switch (n) { case ?: a[0] = 1; break; }", 23, "case value not understood: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "__global__ void k(float *a, int n) {\n    "+tt.stmt+"\n}\n")
			for _, n := range f.Notes {
				if n.Pos.Line == 2 && n.Pos.Col == tt.col && strings.HasPrefix(n.Msg, tt.msg) {
					return
				}
			}
			t.Errorf("%s: notes %v, want %q... at 2:%d", tt.stmt, f.Notes, tt.msg, tt.col)
		})
	}
}

// Host code is skipped by design: what it cannot read is not noted.
func TestUnreadHostStatementPartsAreNotNoted(t *testing.T) {
	f := parse(t, "void h(float *a) {\n    for (int j = 0; j < 4 ?: 3; j += ?) a[j] = 0;\n}\n")
	if len(f.Notes) != 0 {
		t.Errorf("notes in host code: %v", f.Notes)
	}
}

// ...unless what it cannot read launches a kernel: the launch is lost,
// and the note names it where it is, so that the kernel's "no launch
// found" is not all a user learns.
func TestUnreadHostLaunchIsNoted(t *testing.T) {
	f := parse(t, "void h(float *a, float *b) {\n    k<<<1, 32>>>(a ?: b, 4);\n}\n")
	for _, n := range f.Notes {
		if n.Kind == lex.NoteLaunchNotUnderstood && n.Subject == "k" && n.Pos.Line == 2 && strings.HasPrefix(n.Msg, "launch of k not understood") {
			return
		}
	}
	t.Errorf("notes %v, want one naming the launch of k at line 2", f.Notes)
}

// A host statement calling a template, f<T>(...), is read like a call
// without arguments in angles: it may launch (cudaLaunchKernel<F>(f,
// grid, block, ...), apex's batch norm) or call a launching helper.
func TestHostTemplateCallIsRead(t *testing.T) {
	for _, stmt := range []string{"cudaLaunchKernel<F>(f, g, b, args, 0, 0);", "launch<int, 4>(a);"} {
		f := parse(t, "void h(float *a) {\n    "+stmt+"\n}\n")
		body := f.Funcs[0].Body
		if len(body.Stmts) != 1 {
			t.Errorf("%s: %d statements read, want 1", stmt, len(body.Stmts))
			continue
		}
		if _, ok := body.Stmts[0].(*ExprStmt); !ok {
			t.Errorf("%s: read as %T, want an expression statement", stmt, body.Stmts[0])
		}
	}
}

// A try block is the code a run without exceptions executes: the launch
// in main's try is found (tiny-cuda-nn's samples launch from there), and
// its handlers, which run only when something throws, are consumed and
// left out, whatever they hold.
func TestTryBlock(t *testing.T) {
	tests := []struct {
		name, body string
		launches   int // launches of k found in the try block
	}{
		{"one handler", "try { k<<<8, 128>>>(r); } catch (std::exception& e) { return 1; }", 1},
		{"two handlers, one launching", "try { k<<<8, 128>>>(r); k<<<4, 64>>>(r); } catch (const E& e) { } catch (...) { k<<<1, 1>>>(r); }", 2},
		{"nested", "try { try { k<<<8, 128>>>(r); } catch (...) { } } catch (...) { }", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "int main() {\n    float* r;\n    "+tt.body+"\n    return 0;\n}\n")
			if len(f.Notes) != 0 {
				t.Fatalf("notes %v", f.Notes)
			}
			n := 0
			Inspect(f.Funcs[0].Body, func(x Node) bool {
				if _, ok := x.(*Launch); ok {
					n++
				}
				return true
			})
			if n != tt.launches {
				t.Errorf("%d launches found, want %d", n, tt.launches)
			}
		})
	}
}

// A macro that opens a block (CUDA_1D_KERNEL_LOOP(j, n) { ... } with
// its header not read) is one statement skipped, up to the block's end:
// the declaration after it is read, not swallowed up to its ';'. What a
// skipped statement seems to declare is listed (BadStmt.Declares), so
// the analysis does not take it for a parameter.
func TestMacroBlockAndDeclaredNames(t *testing.T) {
	f := Parse("m.cu", []byte(`__global__ void k(float* p, int n) {
  LOOP(j, n) { p[j] = 0; }
  int high = n + threadIdx.x;
  int off = high ?: 3, *q = p;
}`), Config{})
	stmts := f.Funcs[0].Body.Stmts
	if len(stmts) != 3 {
		t.Fatalf("%d statements, want 3: the macro's block, the declaration after it, the one not understood", len(stmts))
	}
	if _, ok := stmts[0].(*BadStmt); !ok {
		t.Errorf("statement 1 is %T, want the macro's block skipped", stmts[0])
	}
	if d, ok := stmts[1].(*DeclStmt); !ok || d.Decl.Declarators[0].Name != "high" {
		t.Errorf("statement 2 is %#v, want the declaration of high", stmts[1])
	}
	bad, ok := stmts[2].(*BadStmt)
	if !ok {
		t.Fatalf("statement 3 is %T, want one not understood", stmts[2])
	}
	if want := []string{"off", "q"}; !slices.Equal(bad.Declares, want) {
		t.Errorf("it declares %v, want %v", bad.Declares, want)
	}
}

// Template arguments in an expression may be negative numbers and sizeof
// (PyTorch's IndexToOffset<int64_t, int, -1>::get(i, info), DeepSpeed's
// load_global<sizeof(int32_t)>(dst, src)): the call is a call, not a
// statement skipped or a comparison chain.
func TestTemplateCallArguments(t *testing.T) {
	for _, call := range []string{
		"IndexToOffset<int64_t, int, -1>::get(t, n)",
		"load_global<sizeof(int)>(p, t)",
	} {
		t.Run(call, func(t *testing.T) {
			f := Parse("m.cu", []byte("__global__ void k(float* p, int n) { int t = threadIdx.x; int off = "+call+"; p[off] = 0; }"), Config{})
			stmts := f.Funcs[0].Body.Stmts
			d, ok := stmts[1].(*DeclStmt)
			if !ok {
				t.Fatalf("statement 2 is %T, want a declaration", stmts[1])
			}
			if _, ok := d.Decl.Declarators[0].Init.(*Call); !ok {
				t.Errorf("off's initializer is %T, want a call", d.Decl.Declarators[0].Init)
			}
		})
	}
}

// A host call through a namespace (FORWARD::render(grid, block, ...)) is
// kept: the function may launch with the shape it is given. One into the
// standard library (std::sort(..., lambda)) is not.
func TestHostQualifiedCallKept(t *testing.T) {
	f := Parse("m.cu", []byte(`void top(float* o, int W) {
  FWD::run(dim3(W / 16, W / 16), dim3(16, 16), o);
  a::b::run(o);
  std::sort(o, o + W, [](float x, float y) { return x < y; });
}`), Config{})
	stmts := f.Funcs[0].Body.Stmts
	var calls []string
	for _, s := range stmts {
		if e, ok := s.(*ExprStmt); ok {
			if c, ok := e.X.(*Call); ok {
				calls = append(calls, c.Fun.(*Ident).Name)
			}
		}
	}
	if want := []string{"FWD::run", "a::b::run"}; !slices.Equal(calls, want) {
		t.Errorf("host calls kept %v, want %v", calls, want)
	}
}
