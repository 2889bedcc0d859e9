package driver

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/cudalint/cudalint/rules/impact"
	"github.com/cudalint/cudalint/rules/lint"
)

// Severity by share (docs/severity.md): a warning needs its fix to save
// at least 5% of its kernel's time, and a cause folded from several
// accesses counts them together. The figures below are the memory terms
// worked by hand; the instructions the kernels issue (a few an
// iteration) add a little time that no fix removes, so the printed
// shares sit a point under them.
func TestSeverityByShare(t *testing.T) {
	const launch = "\nvoid h(float* a, float* b) { k<<<65536, 256>>>(a, b); }\n"
	tests := []struct {
		name, src string
		want      lint.Severity
		message   string // a substring of the message
	}{
		{"a strided store alone: all of its kernel", `__global__ void k(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * t] = in[t];
}` + launch, lint.Warning, "fixing it: up to 2.3x for this kernel (57% of its time)"},
		// 200 coalesced loads of 4 sectors per thread, one store of 16:
		// the fix saves 12 of 816 sectors, 1.5% (printed 2%).
		{"an epilogue store beside a loop of loads", `__global__ void k(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
    for (int j = 0; j < 200; j++) acc += in[j * 16384 + t];
    out[4 * t] = acc;
}` + launch, lint.Info, "(1% of its time, under the 5% a warning needs)"},
		// Three loads of 32 sectors (ideal 4), each in a sector of its own
		// (lanes 128 bytes apart, the loads 32 bytes apart), beside 200 of
		// 4: each saves 28 of 900 DRAM sectors (3.1%), together 84 (9.3%),
		// and 31 L1 lines each of 293 (10% in all).
		{"a folded cause counts together", `__global__ void k(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
    for (int j = 0; j < 200; j++) acc += in[j * 16384 + t];
    out[t] = acc + in[t * 32 + 0] + in[t * 32 + 8] + in[t * 32 + 16];
}` + launch, lint.Warning, "(10% of its time)"},
		// The same three loads 4 bytes apart, in the one sector each lane's
		// first load brings into the L1: DRAM moves 32 sectors for the three
		// (measured alike: probes6), which fixed would be 12; 20 of 836
		// sectors (2.4%); the L1 still serves their 3 x 8 lines, where 3
		// would do (3% in all).
		{"loads the L1 serves move their sectors once", `__global__ void k(const float* in, float* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0;
    for (int j = 0; j < 200; j++) acc += in[j * 16384 + t];
    out[t] = acc + in[t * 8 + 0] + in[t * 8 + 1] + in[t * 8 + 2];
}` + launch, lint.Info, "(2% of its time, under the 5% a warning needs)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": tt.src})
			rep := Run(Options{Paths: []string{dir}})
			var got []*lint.Finding
			for _, f := range rep.Findings {
				if f.Rule.ID == "strided-access" {
					got = append(got, f)
				}
			}
			if len(got) != 1 {
				for _, f := range rep.Findings {
					t.Log(f.Message)
				}
				t.Fatalf("%d strided-access findings, want 1", len(got))
			}
			if f := got[0]; f.Severity != tt.want || !strings.Contains(f.Message, tt.message) {
				t.Errorf("%v: %s\nwant %v, with %q", f.Severity, f.Message, tt.want, tt.message)
			}
		})
	}
}

// The same access under two launches is two costs, not one cause: the
// folded finding keeps the worst launch's impact, never their sum.
func TestImpactOfTwoLaunchesIsNotSummed(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"k.cu": `__global__ void k(float* a) { a[8 * threadIdx.x] = 0; }
void h(float* a) { k<<<65536, 256>>>(a); k<<<65536, 256>>>(a); }
`})
	rep := Run(Options{Paths: []string{dir}})
	if len(rep.Findings) != 1 {
		t.Fatalf("%d findings, want 1", len(rep.Findings))
	}
	// w requests of 32 sectors in 8 lines where 4 in 1 would do (a warp
	// each), and two instructions a warp (8 * threadIdx.x, the store):
	// one launch's figures, where the sum of two would double the
	// requests against one start-up and the test could tell; the excess
	// is one launch's.
	const w = 65536 * 8
	imp := rep.Findings[0].Figures.Impact
	spread := impact.SpreadOf(65536, 256)
	asIs := impact.KernelCost{DRAM: w * 32, L1: w * 8, Instructions: w * 2, Spread: spread}.Seconds()
	fixed := impact.KernelCost{DRAM: w * 4, L1: w, Instructions: w * 2, Spread: spread}.Seconds()
	if imp == nil || math.Abs(imp.EstimatedSpeedup-asIs/fixed) > 0.001 || imp.ExcessBytesPerLaunch != w*28*32 {
		t.Errorf("impact %+v, want speedup %.3f and %d excess bytes", imp, asIs/fixed, w*28*32)
	}
}

// A kernel no launch reaches, in a file that launches others, is info and
// says so: dead code, or launched where cudalint cannot see, and priced
// under a made-up block. A file with no launch keeps its warnings, even
// where another file of the run launches kernels.
func TestUnlaunchedKernelIsInfo(t *testing.T) {
	const dead = "__global__ void dead(float* a) { a[32 * threadIdx.x] = 0; }\n"
	const live = "__global__ void live(float* a) { a[threadIdx.x] = 0; }\nvoid h(float* a) { live<<<65536, 256>>>(a); }\n"
	for _, tt := range []struct {
		name, src string
		want      lint.Severity
		says      bool
	}{
		{"beside host code that launches another kernel", dead + live, lint.Info, true},
		{"in a file of kernels alone", dead, lint.Warning, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			// Another program's launches say nothing of this file's kernels.
			write(t, dir, map[string]string{"k.cu": tt.src, "other/o.cu": live})
			rep := Run(Options{Paths: []string{dir}})
			if len(rep.Findings) != 1 {
				t.Fatalf("%d findings, want 1", len(rep.Findings))
			}
			f := rep.Findings[0]
			if f.Severity != tt.want || strings.Contains(f.Message, "no launch in the analyzed files reaches dead") != tt.says {
				t.Errorf("%v: %s", f.Severity, f.Message)
			}
		})
	}
}

// A kernel that calls the device allocator spends its time there: its
// warnings are info, saying why.
func TestAllocatorCallMakesInfo(t *testing.T) {
	tests := []struct {
		name, body string
		want       lint.Severity
	}{
		{"a strided load before cudaFree", "float* p = ps[8 * t]; cudaFree(p);", lint.Info},
		{"the same load alone", "out[t] = *ps[8 * t];", lint.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": "__global__ void k(float** ps, float* out) {\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    " + tt.body + "\n}\nvoid h(float** a, float* b) { k<<<65536, 256>>>(a, b); }\n"})
			rep := Run(Options{Paths: []string{dir}})
			for _, f := range rep.Findings {
				if f.Rule.ID != "strided-access" {
					continue
				}
				if f.Severity != tt.want || (tt.want == lint.Info && !strings.Contains(f.Message, "k calls cudaFree(), which takes far longer than its memory accesses")) {
					t.Errorf("%v: %s", f.Severity, f.Message)
				}
				return
			}
			t.Fatal("no strided-access finding")
		})
	}
}

// A cost resting on a name no file defines, beside an include not found,
// is info naming the include: the header most likely defines the name.
func TestMissingIncludeMakesInfo(t *testing.T) {
	tests := []struct {
		name, include string
		want          lint.Severity
	}{
		{"the include is missing", `#include "utils.h"`, lint.Info},
		{"no include", "", lint.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": tt.include + "\n__global__ void k(const float* in, float* out) {\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    out[t] = in[t * WARP_SIZE];\n}\nvoid h(float* a, float* b) { k<<<65536, 256>>>(a, b); }\n"})
			rep := Run(Options{Paths: []string{dir}})
			for _, f := range rep.Findings {
				if f.Rule.ID != "strided-access" {
					continue
				}
				if f.Severity != tt.want || (tt.want == lint.Info && !strings.Contains(f.Message, `WARP_SIZE is defined in no file cudalint read, and utils.h (line 1) was not found: give its folder with -I DIR`)) {
					t.Errorf("%v: %s", f.Severity, f.Message)
				}
				return
			}
			t.Fatal("no strided-access finding")
		})
	}
}

// A kernel that spends its time in a loop of arithmetic is not bound by
// memory: its warnings are info, naming the loop. A loop that touches
// memory, or does little, is no such loop.
func TestComputeLoopMakesInfo(t *testing.T) {
	escape := "float x = 0, y = 0; int i = 0;\n    do { float xx = x * x - y * y + cx; y = 2.0f * x * y + cy; x = xx; i = i + 1; float r = x * x + y * y; if (r > 4.0f * 1.0f + 0.0f * r) break; x = x * 1.0f + 0.0f; y = y * 1.0f + 0.0f; } while (i < n);\n    "
	tests := []struct {
		name, body string
		compute    bool
	}{
		{"an escape-time loop, then a strided store", escape + "out[8 * t] = i;", true},
		{"a loop that reads memory", "float s = 0; for (int j = 0; j < n; j++) s += in[j * 64 + t] * 2.0f + 1.0f - 3.0f * s + s * s - s / 2.0f + s * 0.5f - 1.0f + s * s * s - s;\n    out[8 * t] = s;", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": "__global__ void k(const float* in, float* out, float cx, float cy, int n) {\n    int t = blockIdx.x * blockDim.x + threadIdx.x;\n    " + tt.body + "\n}\nvoid h(float* a, float* b, int n) { k<<<65536, 256>>>(a, b, 0.5f, 0.5f, n); }\n"})
			rep := Run(Options{Paths: []string{dir}})
			for _, f := range rep.Findings {
				if f.Rule.ID != "strided-access" || f.Prediction.Access.Op.String() != "store" {
					continue
				}
				said := strings.Contains(f.Message, "k computes in the loop at k.cu:4")
				if said != tt.compute || (tt.compute && f.Severity != lint.Info) {
					t.Errorf("%v: %s", f.Severity, f.Message)
				}
				return
			}
			t.Fatal("no strided-access finding on the store")
		})
	}
}

func TestIsWarmup(t *testing.T) {
	for name, want := range map[string]bool{
		"warmup": true, "warm_up": true, "warmUpGpu": true, "gpuWarmup": true, "WarmupKernel": true, "warmup2": true,
		"GPUWarmup": true, "CUDAWarmUp": true, "warmupKernel2": true,
		"warmstart": false, "swarmup": false, "reduceNeighbored": false, "warm": false, "upwarm": false,
	} {
		if got := isWarmup(name); got != want {
			t.Errorf("isWarmup(%q) = %v, want %v", name, got, want)
		}
	}
}

// A warm-up kernel's warnings are info, saying why; the kernel it warms
// up for keeps them.
func TestWarmupKernelIsInfo(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"k.cu": `__global__ void warmup(float* a) { a[32 * threadIdx.x] = 0; }
__global__ void reduce(float* a) { a[32 * threadIdx.x] = 0; }
void h(float* a) { warmup<<<65536, 256>>>(a); reduce<<<65536, 256>>>(a); }
`})
	rep := Run(Options{Paths: []string{dir}})
	got := map[string]lint.Severity{}
	for _, f := range rep.Findings {
		got[f.Prediction.Access.Kernel.Name] = f.Severity
		if f.Prediction.Access.Kernel.Name == "warmup" && !strings.Contains(f.Message, "warmup is by its name a warm-up launch") {
			t.Errorf("warmup's finding does not say why it is info: %s", f.Message)
		}
	}
	if got["warmup"] != lint.Info || got["reduce"] != lint.Warning {
		t.Errorf("severities %v, want warmup info, reduce warning", got)
	}
}

// A transpose's loads of one array at one stride (an unrolled column
// read, four rows a thread) are one cause: one finding, priced together,
// naming the other three.
func TestTransposeFoldsOneStride(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"k.cu": `__global__ void t4(float* a, float* b, int nx, int ny) {
    int ix = threadIdx.x + blockDim.x * blockIdx.x * 4;
    int iy = threadIdx.y + blockDim.y * blockIdx.y;
    int row = ix + iy * nx, col = ix * ny + iy;
    b[row] = a[col];
    b[row + 1 * blockDim.x] = a[col + ny * 1 * blockDim.x];
    b[row + 2 * blockDim.x] = a[col + ny * 2 * blockDim.x];
    b[row + 3 * blockDim.x] = a[col + ny * 3 * blockDim.x];
}
void h(float* a, float* b) { t4<<<dim3(32, 128), dim3(32, 32)>>>(a, b, 4096, 4096); }
`})
	rep := Run(Options{Paths: []string{dir}})
	var got []*lint.Finding
	for _, f := range rep.Findings {
		if f.Rule.ID == "uncoalesced-transpose" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0].Message, "3 more accesses to a with the same lane stride") {
		for _, f := range rep.Findings {
			t.Log(f.Rule.ID, f.Message)
		}
		t.Fatalf("%d uncoalesced-transpose findings, want 1 naming the other 3 loads", len(got))
	}
}

// A kernel that moves memory through inline assembly the model does not
// follow (a bulk asynchronous copy here; an implicit GEMM's gathers in
// torchsparse) leaves that traffic out of its cost, so a warning's share
// of it means nothing: info, naming the assembly. Assembly that moves no
// memory (a tensor-core mma) does not.
func TestUnpricedAssemblyIsInfo(t *testing.T) {
	const kernel = `__device__ void frag(unsigned* r, unsigned addr) {
    asm volatile(%s : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__global__ void k(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r[4];
    frag(r, i);
    out[i * 32] = in[i] + r[0];
}
void h(float* a, float* b) { k<<<1024, 256>>>(a, b); }
`
	tests := []struct {
		name, template string
		want           lint.Severity
	}{
		{"bulk copy", `"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"`, lint.Info},
		{"mma", `"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"`, lint.Warning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"k.cu": fmt.Sprintf(kernel, tt.template)})
			rep := Run(Options{Paths: []string{dir}})
			var found *lint.Finding
			for _, f := range rep.Findings {
				if f.Rule.ID == "strided-access" {
					found = f
				}
			}
			if found == nil {
				t.Fatal("no strided-access finding")
			}
			says := strings.Contains(found.Message, "also moves memory through inline assembly at k.cu:2")
			if found.Severity != tt.want || says != (tt.want == lint.Info) {
				t.Errorf("%v: %s\nwant %v", found.Severity, found.Message, tt.want)
			}
		})
	}
}
