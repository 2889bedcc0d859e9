package interp

import (
	"testing"

	"github.com/cudalint/cudalint/parser"
)

// A loop's discovery pass runs the step alone where the body cannot
// change what the loop carries; each way a body can change k keeps the
// pass whole.
func TestBodyLeaves(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{"the body reads k", "a[k] = k * 2;", true},
		{"an array element assigned", "acc[k] += a[k];", true},
		{"k assigned", "a[k] = 0; k += 2;", false},
		{"k stepped", "a[k++] = 0;", false},
		{"k passed to a call (a reference parameter?)", "bump(k);", false},
		{"k's address taken", "int* p = &k; *p = 3;", false},
		{"a lambda (capturing k by reference?)", "auto f = [&] { k = 1; }; f();", false},
		{"an asm output", `asm("mov.u32 %0, 1;" : "=r"(k));`, false},
		{"k in a statement the parser skipped", "k <<= ?;", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parser.Parse("t.cu", []byte("__global__ void g(int* a, float* acc) { int k = 0; for (; k < 8; k++) { "+tt.body+" } }"), parser.Config{})
			var loop *parser.For
			parser.EachStmt(f.Funcs[0].Body, func(s parser.Stmt) {
				if l, ok := s.(*parser.For); ok {
					loop = l
				}
			})
			if loop == nil {
				t.Fatal("no loop parsed")
			}
			if got := bodyLeaves([]string{"k"}, loop.Body); got != tt.want {
				t.Errorf("bodyLeaves = %v, want %v", got, tt.want)
			}
		})
	}
}
