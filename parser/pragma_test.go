package parser

import (
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

// TestMacroPragmas: a pragma a macro expands to (#define PRAGMA_UNROLL
// #pragma unroll, as nvcc reads it, or _Pragma("unroll 4")) is no
// statement: an unroll reaches the loop after it, with its count, as a
// #pragma unroll line does, and any other pragma is dropped.
func TestMacroPragmas(t *testing.T) {
	tests := []struct {
		name, defs, use string
		want            Unroll
	}{
		{"#pragma unroll in a macro", "#define PRAGMA_UNROLL #pragma unroll", "PRAGMA_UNROLL", lex.UnrollFull},
		{"#pragma unroll 4 in a macro", "#define PRAGMA_UNROLL_4 #pragma unroll 4", "PRAGMA_UNROLL_4", 4},
		{"#pragma unroll 1 in a macro keeps the loop rolled", "#define NO_UNROLL #pragma unroll 1", "NO_UNROLL", 1},
		{"_Pragma(\"unroll\")", "#define PRAGMA_UNROLL _Pragma(\"unroll\")", "PRAGMA_UNROLL", lex.UnrollFull},
		{"_Pragma(\"unroll 2\") written in place", "", `_Pragma("unroll 2")`, 2},
		{"_Pragma with a count it cannot read", "", `_Pragma("unroll N")`, lex.UnrollOther},
		{"another pragma in a macro: dropped, no unroll", "#define NOWARN #pragma nv_diag_suppress 177", "NOWARN", lex.UnrollNone},
		{"no pragma", "", "", lex.UnrollNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.defs+`
__global__ void k(float* p) {
  `+tt.use+`
  for (int i = 0; i < 8; i++) p[i] = 0;
}`)
			fn := funcNamed(f, "k")
			if fn == nil || fn.Body == nil {
				t.Fatal("kernel k not parsed")
			}
			for _, n := range f.Notes {
				t.Errorf("note %s", n.Msg)
			}
			if len(fn.Body.Stmts) != 1 {
				t.Fatalf("%d statements, want the loop alone", len(fn.Body.Stmts))
			}
			loop, ok := fn.Body.Stmts[0].(*For)
			if !ok {
				t.Fatalf("statement is %T, want the loop", fn.Body.Stmts[0])
			}
			if loop.Unroll != tt.want {
				t.Errorf("unroll %d, want %d", loop.Unroll, tt.want)
			}
		})
	}
}

// TestTemplateTypedParameters: a comma inside a parameter's template
// arguments (Array<T, N>& dst) does not split the parameter list, in a
// function's parameters and in a template's.
func TestTemplateTypedParameters(t *testing.T) {
	tests := []struct {
		name, src string
		params    []string
	}{
		{"a class template instance by reference", `
template<typename T, int N> __device__ void Load(Array<T, N>& dst, const T* src) {}`, []string{"dst", "src"}},
		{"nested instances", `
template<typename T> __device__ void f(const Pair<Array<T, 4>, int>& a, Map<int, float> b, int c) {}`, []string{"a", "b", "c"}},
		{"a comparison in a default argument is no template", `
__device__ void g(int a, bool b = 1 < 2, int c = 3) {}`, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "template<class A, int B> struct Array { A x[B]; };\n"+tt.src)
			for _, n := range f.Notes {
				t.Errorf("note %s", n.Msg)
			}
			var fn *Func
			for _, g := range f.Funcs {
				fn = g
			}
			if fn == nil || len(fn.Params) != len(tt.params) {
				t.Fatalf("params %v, want %v", fn, tt.params)
			}
			for i, p := range fn.Params {
				if p.Name != tt.params[i] {
					t.Errorf("param %d is %q, want %q", i, p.Name, tt.params[i])
				}
			}
		})
	}
	f := parse(t, "template<typename T, typename Tr = Traits<T, 4>, int N = 2> struct S { T v[N]; };")
	var s *Struct
	for _, x := range f.Structs {
		if x.Name == "S" {
			s = x
		}
	}
	if s == nil || len(s.Template) != 3 || s.Template[1].Name != "Tr" || s.Template[2].Name != "N" {
		t.Fatalf("template parameters of S: %+v", s)
	}
}
