package interp

import (
	"testing"

	"github.com/cudalint/cudalint/parser/lex"
)

// Code cudalint cannot see that is given a pointer to global memory is a
// note, so that a kernel whose accesses all happen there is never listed
// as fully analyzed with no access: a constructor, a method of an object
// of a class it does not know (CUB's BlockLoad(...).Load(p, r)), a
// function it has no body for. What it can see, or what is given no
// global pointer, is no note.
func TestGlobalPointerPassed(t *testing.T) {
	tests := []struct {
		name, body, subject string
	}{
		{"a constructor of a class it cannot see", `Loader l(p, 4); l.run();`, "Loader"},
		{"a brace constructor", `Loader l{p};`, "Loader"},
		{"a method of an object of an unknown class", `BlockLoad(tmp).Load(p, regs);`, "Load"},
		{"a method of a parameter of an unknown class", `o.load(p);`, "load"},
		{"a function without a body", `fill(p, threadIdx.x);`, "fill"},
		{"a method given no pointer", `o.sync();`, ""},
		{"a constructor given no pointer", `Loader l(4);`, ""},
		{"a class it knows, whose method it follows", `Known k; k.set(p);`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `struct Known { __device__ void set(float* q) { q[threadIdx.x] = 0; } };
__global__ void k(float* p, Obj o) {
  int tmp = 0; float regs[4];
  ` + tt.body + `
}`
			run := runKernel(t, src)
			var got []string
			for _, n := range run.Notes {
				if n.Kind == lex.NoteGlobalPointerPassed {
					got = append(got, n.Subject)
				}
			}
			switch {
			case tt.subject == "" && len(got) > 0:
				t.Errorf("notes about %v, want none", got)
			case tt.subject != "" && (len(got) != 1 || got[0] != tt.subject):
				t.Errorf("notes about %v, want one about %s", got, tt.subject)
			}
			if tt.subject != "" && run.Unresolved == 0 {
				t.Error("the kernel passes for fully analyzed")
			}
		})
	}
}
