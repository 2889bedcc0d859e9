package driver

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// helpersCuh is a header of helpers a kernel file calls.
const helpersCuh = `__device__ float get(const float* a, int i) { return a[i]; }
__device__ float get2(const float* a, int i) { return get(a, i) * 2.0f; }
`

// A helper's access is reported at the call of the kernel that reaches
// it, with the helper's lines as related places: one finding per call at
// its own cost, one for calls that cost the same.
func TestHelperFindingsAtCallSites(t *testing.T) {
	tests := []struct {
		name, kernel string
		want         []string // per finding: "line: message part | related base:line ..."
	}{
		{"two calls at two costs: two findings, each with its numbers", `#include "helpers.cuh"
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = get(in, 4 * i);
    float y = get(in, 8 * i);
    out[i] = x + y;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{
			"4: load a[i] in get() at helpers.cuh:1: neighbouring lanes are 16 bytes apart | k.cu:8 helpers.cuh:1",
			"5: load a[i] in get() at helpers.cuh:1: neighbouring lanes are 32 bytes apart | k.cu:8 helpers.cuh:1",
		}},
		{"two calls at one cost: one finding naming the other call", `#include "helpers.cuh"
__global__ void k(const float* in, const float* w, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = get(in, i + 1);
    float y = get(w, i + 1);
    out[i] = x + y;
}
void h(float* a, float* c, float* b) { k<<<64, 256>>>(a, c, b); }
`, []string{
			"4: load a[i] in get() at helpers.cuh:1: lanes are contiguous but; the same through 1 other call of get() in this kernel (line 5) | k.cu:8 helpers.cuh:1 k.cu:5",
		}},
		{"a nested helper: the chain is related", `#include "helpers.cuh"
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = get2(in, 4 * i);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{
			"4: load a[i] in get() at helpers.cuh:1 through get2(): neighbouring lanes | k.cu:6 helpers.cuh:2 helpers.cuh:1",
		}},
		{"no launch: two accesses one call reaches, each its own finding", `#include "helpers.cuh"
__device__ float both(const float* a, const float* b, int i) { return a[i] + b[2 * i]; }
__global__ void k(const float* in, const float* w, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = both(in, w, 4 * i);
}
`, []string{
			"5: load a[i] in both() at k.cu:2: neighbouring lanes are 16 bytes apart | k.cu:2",
			"5: load b[2 * i] in both() at k.cu:2: neighbouring lanes are 32 bytes apart | k.cu:2",
		}},
		{"references one call binds, read and written alike: one finding", `__device__ void swap2(float& x, float& y) { float t = x; x = y; y = t; }
__global__ void k(float* a, float* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    swap2(a[4 * i], b[4 * i]);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{
			"4: load x in swap2() at k.cu:1: neighbouring lanes are 16 bytes apart; 3 more accesses of swap2() through this kernel's calls cost the same | k.cu:6 k.cu:1 k.cu:1 k.cu:1 k.cu:1",
		}},
		{"an ignore at the helper's access covers every call", `#include "helpers2.cuh"
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = get(in, 4 * i) + get(in, 8 * i);
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, nil},
		{"an ignore at a call covers that call alone", `#include "helpers.cuh"
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // cudalint:ignore strided-access this one is read once
    float x = get(in, 4 * i);
    float y = get(in, 8 * i);
    out[i] = x + y;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{
			"6: load a[i] in get() at helpers.cuh:1: neighbouring lanes are 32 bytes apart | k.cu:9 helpers.cuh:1",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{
				".git/HEAD":    "ref: refs/heads/main\n",
				"helpers.cuh":  helpersCuh,
				"helpers2.cuh": "// cudalint:ignore strided-access a layout of the caller's choice\n" + helpersCuh,
				"k.cu":         tt.kernel,
			})
			// The kernel's file named alone: the header is context, and a
			// finding at a call in k.cu is k.cu's.
			rep := Run(Options{Paths: []string{filepath.Join(dir, "k.cu")}, Root: dir})
			var got []string
			for _, f := range rep.Findings {
				if f.Prediction == nil {
					t.Errorf("%s: no prediction behind the finding", f.Message)
				}
				pos := rep.Fset.Position(f.Pos)
				if filepath.Base(pos.Filename) != "k.cu" {
					t.Errorf("finding in %s: %s", pos, f.Message)
				}
				var rel []string
				for _, r := range f.Related {
					rp := rep.Fset.Position(r.Pos)
					rel = append(rel, fmt.Sprintf("%s:%d", filepath.Base(rp.Filename), rp.Line))
				}
				got = append(got, fmt.Sprintf("%d: %s | %s", pos.Line, f.Message, strings.Join(rel, " ")))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d findings, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				head, rel, _ := strings.Cut(w, " | ")
				msg, _, _ := strings.Cut(head, "; ")
				gotHead, gotRel, _ := strings.Cut(got[i], " | ")
				if !strings.HasPrefix(gotHead, msg) || gotRel != rel {
					t.Errorf("finding %d:\n%s\nwant it to start %q with related %q", i, got[i], msg, rel)
				}
				if _, tail, ok := strings.Cut(head, "; "); ok && !strings.Contains(gotHead, tail) {
					t.Errorf("finding %d:\n%s\nwant it to say %q", i, got[i], tail)
				}
			}
		})
	}
}
