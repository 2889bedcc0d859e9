package analyzer

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/parser"
)

// A bug met while analyzing one kernel (here forced through panicHook)
// is reported as a typed InternalError, costs that kernel (or only the
// launch configuration it struck) and never the others, and is not
// mixed into the kernel's notes.
func TestInternalErrorsAreTypedAndContained(t *testing.T) {
	const src = `
__global__ void bad(float* a) { a[threadIdx.x] = 0; }
__global__ void good(float* a) { a[threadIdx.x] = 1; }
__global__ void two(float* a) { a[threadIdx.x * 2] = 2; }
void h(float* p) { bad<<<1, 32>>>(p); good<<<1, 32>>>(p); two<<<1, 32>>>(p); two<<<1, 64>>>(p); }
`
	tests := []struct {
		name      string
		hook      func(stage string, fn *parser.Func, cfg *LaunchConfig)
		kernel    string // the kernel the error names
		line      int32
		config    string // part of InternalError.Config
		survivors map[string]int
	}{
		{"interpretation", func(stage string, fn *parser.Func, _ *LaunchConfig) {
			if stage == "interpret" && fn.Name == "bad" {
				panic("boom")
			}
		}, "bad", 2, "", map[string]int{"a[threadIdx.x]": 1, "a[threadIdx.x * 2]": 2}},
		{"one launch configuration", func(stage string, fn *parser.Func, cfg *LaunchConfig) {
			if stage == "predict" && fn.Name == "two" && cfg.Block[0] == 64 {
				panic("boom")
			}
		}, "two", 4, "block 64 from launch", map[string]int{"a[threadIdx.x]": 2, "a[threadIdx.x * 2]": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			panicHook = tt.hook
			defer func() { panicHook = nil }()
			r := analyze(t, src, Options{})
			if len(r.InternalErrors) != 1 {
				t.Fatalf("%d internal errors, want 1: %v", len(r.InternalErrors), r.InternalErrors)
			}
			e := r.InternalErrors[0]
			if e.Kernel != tt.kernel || e.Pos.Line != tt.line || e.Panic != "boom" || !strings.Contains(e.Config, tt.config) {
				t.Errorf("got %+v; want kernel %s at line %d, panic boom, config %q", e, tt.kernel, tt.line, tt.config)
			}
			if !strings.Contains(e.Frame, "internal_test.go:") {
				t.Errorf("frame %q: want the hook's line in internal_test.go", e.Frame)
			}
			for expr, want := range tt.survivors {
				if got := len(find(r, expr, interp.Store)); got != want {
					t.Errorf("%s: %d predictions, want %d", expr, got, want)
				}
			}
			for _, k := range r.Kernels {
				for _, n := range k.Notes {
					if strings.Contains(n.Msg, "internal error") {
						t.Errorf("note %q: internal errors are typed, not notes", n.Msg)
					}
				}
			}
		})
	}
}
