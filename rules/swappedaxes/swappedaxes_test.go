package swappedaxes

import (
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunWithSuggestedFixes(t, "testdata", Analyzer) }

// A 2D kernel with its axes swapped; %LAUNCH% is replaced per case.
const swapped = `__global__ void sw(const float* in, float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[x * w + y] = in[x * w + y];
}
`

const swappedFixed = `__global__ void sw(const float* in, float* out, int w) {
    int x = blockIdx.y * blockDim.y + threadIdx.y;
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    out[x * w + y] = in[x * w + y];
}
`

func withLaunch(kernel, launch string) string {
	return kernel + "void host(float* a, float* b, int w, int h) {\n    " + launch + "\n}\n"
}

// The fix is offered only when the launches make the swap a pure
// transposition and the text it edits is the kernel's own; otherwise the
// finding says why not.
func TestFixSafety(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		// fixed is the kernel file after the fix, "" when no fix is offered;
		// whyNot then matches the message's reason.
		fixed  string
		whyNot string
	}{
		{"square launch", map[string]string{"k.cu": withLaunch(swapped, "sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024);")},
			withLaunch(swappedFixed, "sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024);"), ""},
		{"image grid", map[string]string{"k.cu": withLaunch(swapped, "sw<<<dim3((1920 + 15) / 16, (1080 + 15) / 16), dim3(16, 16)>>>(a, b, 1920);")},
			"", `launch at k.cu:7 uses grid 120x68, not square`},
		{"grid from run time sizes", map[string]string{"k.cu": withLaunch(swapped, "sw<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(a, b, w);")},
			"", `launch at k.cu:7 gives no constant grid`},
		{"flat block", map[string]string{"k.cu": withLaunch(swapped, "sw<<<dim3(64, 64), dim3(32, 8)>>>(a, b, 1024);")},
			"", `block 32x8, not square`},
		{"one square launch, one not", map[string]string{"k.cu": withLaunch(swapped, "sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024); sw<<<dim3(64, 32), dim3(16, 16)>>>(a, b, 1024);")},
			"", `grid 64x32, not square`},
		{"no launch", map[string]string{"k.cu": swapped},
			"", `no launch in the analyzed files gives its grid and block`},
		{"index macro shared with a 1D kernel", map[string]string{"k.cu": withLaunch(`#define TILE_IDX (blockIdx.x * blockDim.x + threadIdx.x)
__global__ void sw(float* v, int w) {
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    v[TILE_IDX * w + col] = 0;
}
__global__ void flat(float* v) { v[TILE_IDX] = 1; }
`, "sw<<<dim3(64, 64), dim3(16, 16)>>>(a, 1024); flat<<<64, 256>>>(a);")},
			"", `blockIdx.x comes from macro TILE_IDX, whose body other code may use`},
		{"macro argument written in the kernel", map[string]string{"k.cu": withLaunch(`#define AT(p, i) p[i]
__global__ void sw(float* v, int w) {
    AT(v, threadIdx.x * w + threadIdx.y) = 0;
}
`, "sw<<<dim3(1, 1), dim3(32, 32)>>>(a, 1024);")},
			withLaunch(`#define AT(p, i) p[i]
__global__ void sw(float* v, int w) {
    AT(v, threadIdx.y * w + threadIdx.x) = 0;
}
`, "sw<<<dim3(1, 1), dim3(32, 32)>>>(a, 1024);"), ""},
		{"a branch not compiled", map[string]string{"k.cu": withLaunch(`__global__ void sw(float* v, int w) {
#ifdef OTHER
    int r = threadIdx.y;
#else
    int r = threadIdx.x;
#endif
    v[r * w + threadIdx.y] = 0;
}
`, "sw<<<dim3(1, 1), dim3(32, 32)>>>(a, 1024);")},
			"", `threadIdx.y at line 3 is not compiled as written`},
		{"helper reads the index", map[string]string{"k.cu": withLaunch(`__device__ int lane() { return threadIdx.x; }
__global__ void sw(float* v, int w) {
    v[threadIdx.x * w + threadIdx.y] = lane();
}
`, "sw<<<dim3(1, 1), dim3(32, 32)>>>(a, 1024);")},
			"", `it calls lane, which reads the thread or block index itself`},
		{"kernel in a header, launched by its includer", map[string]string{
			"k.cuh": swapped,
			"k.cu":  withLaunch(`#include "k.cuh"`+"\n", "sw<<<dim3(64, 64), dim3(16, 16)>>>(a, b, 1024);")},
			swappedFixed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, fset := findings(t, tt.files)
			if len(fs) == 0 {
				t.Fatal("no swapped-axes finding")
			}
			for _, f := range fs {
				if tt.fixed == "" {
					if len(f.SuggestedFixes) > 0 {
						t.Errorf("fix offered: %+v", f.SuggestedFixes[0])
					}
					if !regexp.MustCompile(`; --fix leaves it: .*` + tt.whyNot).MatchString(f.Message) {
						t.Errorf("message %q does not say why not (%q)", f.Message, tt.whyNot)
					}
					continue
				}
				if len(f.SuggestedFixes) != 1 || strings.Contains(f.Message, "not fixed") {
					t.Fatalf("no fix: %s", f.Message)
				}
				if got := apply(t, fset, f.SuggestedFixes[0]); got != tt.fixed {
					t.Errorf("fixed:\n%s\nwant:\n%s", got, tt.fixed)
				}
			}
		})
	}
}

// findings runs the rule over files written to a temporary folder.
func findings(t *testing.T, files map[string]string) ([]analysis.Diagnostic, *token.FileSet) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".cu") {
			paths = append(paths, p)
		}
	}
	t.Chdir(dir) // the root includes may read from is the working directory's
	fset := token.NewFileSet()
	r, err := accesses.Load(&analysis.Pass{Analyzer: accesses.Analyzer, Fset: fset, OtherFiles: paths}, accesses.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []analysis.Diagnostic
	pass := &analysis.Pass{Analyzer: Analyzer, Fset: fset, OtherFiles: paths,
		ResultOf: map[*analysis.Analyzer]any{accesses.Analyzer: r, impact.Analyzer: impact.Of(r)},
		Report:   func(d analysis.Diagnostic) { out = append(out, d) }}
	if _, err := Analyzer.Run(pass); err != nil {
		t.Fatal(err)
	}
	return out, fset
}

// apply returns the one file a fix edits, edited.
func apply(t *testing.T, fset *token.FileSet, fix analysis.SuggestedFix) string {
	t.Helper()
	edits := append([]analysis.TextEdit(nil), fix.TextEdits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	name := fset.Position(edits[0].Pos).Filename
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		start, end := fset.Position(e.Pos), fset.Position(e.End)
		if start.Filename != name || end.Filename != name {
			t.Fatalf("one fix edits %s and %s", name, start.Filename)
		}
		b.Write(src[last:start.Offset])
		b.Write(e.NewText)
		last = end.Offset
	}
	b.Write(src[last:])
	return b.String()
}
