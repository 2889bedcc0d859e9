package driver

import (
	"strings"
	"testing"

	"github.com/cudalint/cudalint/rules/lint"
)

// One root cause, one finding: a table of the causes that repeat.
func TestOneFindingPerCause(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // a substring of each finding's message, in order
		related   int      // related locations of the first finding
	}{
		{"fields of an array of structs", `struct P { float x, y, z, vx, vy, vz, m; int id; };
__global__ void k(P* p, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
}
void h(P* p) { k<<<64, 256>>>(p, 0.1f); }
`, []string{"load and store p[i].x: each lane uses 4 of the 32 bytes of struct P (field x)"}, 4},
		{"read and written by one statement", `__global__ void k(float* a) { a[4 * threadIdx.x] += 1; }
void h(float* a) { k<<<64, 256>>>(a); }
`, []string{"load and store a[4 * threadIdx.x]"}, 1},
		{"a per-thread layout", `__global__ void k(float* s, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = s[t * 8 + 0];
    float b = s[t * 8 + 1];
    float c = s[t * 8 + 2];
    out[t] = a + b + c;
}
void h(float* s, float* o) { k<<<64, 256>>>(s, o); }
`, []string{"load s[t * 8 + 0]: neighbouring lanes are 32 bytes apart"}, 3},
		{"a field read twice counts once in the total", `struct P { float x, y, z, w, a, b, c, d; };
__global__ void k(const P* p, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].x * p[i].x + p[i].y;
}
void h(P* p, float* o) { k<<<64, 256>>>(p, o); }
`, []string{"together 64 sectors per request where 8 would do"}, 2}, // nvcc loads p[i].x once: the second read is no access of its own
		{"two launches of one kernel", `__global__ void k(float* a) { a[8 * threadIdx.x] = 0; }
void h(float* a) { k<<<64, 256>>>(a); k<<<64, 128>>>(a); }
`, []string{"the same under 1 other launch configuration"}, 1},
		{"two launches at different costs say what the other costs", `__global__ void k(float* a, int s) { a[s * threadIdx.x] = 0; }
void h(float* a) { k<<<64, 256>>>(a, 8); k<<<64, 256>>>(a, 2); }
`, []string{"under 1 other launch configuration or template instance it costs 8 sectors/request, ideal 4"}, 1},
		{"instances of a template are kernels of their own", `template <int V> __global__ void k(float* a) {
    int t = threadIdx.x;
    if (V == 0) a[8 * t] = 0;
    else a[8 * t + 1] = 1;
}
void h(float* a) { k<0><<<64, 256>>>(a); k<1><<<64, 256>>>(a); }
`, []string{"store a[8 * t]", "store a[8 * t + 1]"}, 1},
		{"one line's accesses in two instances stay apart", `template <int V> __global__ void k(float* a, float* b) {
    int t = threadIdx.x;
    if (V == 0) a[8 * t] = 0; else b[8 * t] = 1;
}
void h(float* a, float* b) { k<0><<<64, 256>>>(a, b); k<1><<<64, 256>>>(a, b); }
`, []string{"store a[8 * t]", "store b[8 * t]"}, 1},
		{"two arrays on two lines are two causes", `__global__ void k(float* a, float* b) {
    int t = threadIdx.x;
    a[8 * t] = 0;
    b[8 * t] = 0;
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{"store a[8 * t]", "store b[8 * t]"}, 1},
		{"two arrays indexed alike on one line are one", `__global__ void k(float* out, const float* in) {
    int t = threadIdx.x;
    out[8 * t] = in[8 * t];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{"store out[8 * t]: neighbouring lanes are 32 bytes apart"}, 2},
		{"unlike steps on one line stay apart", `__global__ void k(float* out, const float* in) {
    int t = threadIdx.x;
    out[2 * t] = in[8 * t];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{"store out[2 * t]", "load in[8 * t]"}, 1},
		{"a float4 read float by float is one finding, no stride left", `__global__ void k(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{"load a[4 * i]: this thread also loads the 3 floats after it"}, 4},
		{"a float4 copied float by float is two vectors, not one line", `__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * i] = in[4 * i];
    out[4 * i + 1] = in[4 * i + 1];
    out[4 * i + 2] = in[4 * i + 2];
    out[4 * i + 3] = in[4 * i + 3];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{"store out[4 * i]: this thread also stores", "load in[4 * i]: this thread also loads"}, 4},
		{"three floats of four are still a stride", `__global__ void k(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }
`, []string{"load a[4 * i]: neighbouring lanes are 16 bytes apart"}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": tt.src})
			rep := Run(Options{Paths: []string{dir}})
			var got []*lint.Finding
			for _, f := range rep.Findings {
				if f.Rule.ID == "aos-field" || f.Rule.ID == "strided-access" || f.Rule.ID == "vectorizable-access" {
					got = append(got, f)
				}
			}
			if len(got) != len(tt.want) {
				for _, f := range rep.Findings {
					t.Log(f.Message)
				}
				t.Fatalf("%d findings, want %d", len(got), len(tt.want))
			}
			for i, f := range got {
				if !strings.Contains(f.Message, tt.want[i]) {
					t.Errorf("finding %d: %s\nwant it to contain %q", i, f.Message, tt.want[i])
				}
			}
			// Related: the launch that gave the block, then the folded accesses.
			if n := len(got[0].Related); n != tt.related {
				t.Errorf("%d related locations, want %d: %v", n, tt.related, got[0].Related)
			}
		})
	}
}
