package parser

import "testing"

// A C cast to a qualified type of a namespace no file declares
// ((std::ptrdiff_t)stride: tiny-cuda-nn's MatrixView) is a cast; a
// parenthesized qualified name that no operand follows is an
// expression.
func TestQualifiedCast(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a[i * (std::ptrdiff_t)s]", "a[i * (std::ptrdiff_t)s]"},
		{"(ns::T*)p", "(ns::T*)p"},
		{"(ns::k) + 1", "ns::k + 1"},
		{"(ns::f)(x)", "ns::f(x)"},
	}
	for _, tt := range tests {
		f := Parse("t.cu", []byte("__global__ void g(float* a, int i, long s, float* p, int x) { auto v = "+tt.src+"; }"), Config{})
		if len(f.Notes) > 0 {
			t.Errorf("%s: notes %v", tt.src, f.Notes)
			continue
		}
		d := f.Funcs[0].Body.Stmts[0].(*DeclStmt)
		if got := Format(d.Decl.Declarators[0].Init); got != tt.want {
			t.Errorf("%s: read as %s, want %s", tt.src, got, tt.want)
		}
	}
}
