package impact

import (
	"go/token"
	"math"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/cudalint/cudalint/analyzer"
	"github.com/cudalint/cudalint/analyzer/interp"
	"github.com/cudalint/cudalint/rules/accesses"
	"github.com/cudalint/cudalint/rules/lint"
)

// loadSource models one CUDA file of source src and sums its kernels'
// costs.
func loadSource(t *testing.T, src string) (*accesses.Result, *Costs) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "k.cu")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := accesses.Load(&analysis.Pass{Analyzer: accesses.Analyzer, Fset: token.NewFileSet(), OtherFiles: []string{path}}, accesses.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res, Of(res)
}

// A kernel's cost per launch, worked by hand: every access's requests
// (blocks x warps x trips) times its sectors or wavefronts per request.
func TestKernelCost(t *testing.T) {
	tests := []struct {
		name, src           string
		sectors, wavefronts float64
		assumed             bool
	}{
		// 64 blocks x 8 warps = 512 requests per access, 4 sectors each.
		{"copy", `__global__ void k(const float* a, float* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[i]; }
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`, 2 * 512 * 4, 0, false},
		// A loop of 10 iterations: 5120 requests of 16 sectors.
		{"strided loop", `__global__ void k(float* a) { for (int j = 0; j < 10; j++) a[4 * threadIdx.x + 1024 * j] = 0; }
void h(float* a) { k<<<64, 256>>>(a); }`, 5120 * 16, 0, false},
		// A column of a 32x32 tile: 512 requests of 32 wavefronts; the
		// global load 512 requests of 4 sectors.
		{"shared column", `__global__ void k(const float* a) { __shared__ float t[32][32]; int i = blockIdx.x * blockDim.x + threadIdx.x; t[threadIdx.x][threadIdx.x / 32] = a[i]; }
void h(float* a) { k<<<64, 256>>>(a); }`, 512 * 4, 512 * 32, false},
		// A load no iteration changes, in a loop that stores nothing:
		// nvcc loads it once before the loop, so 512 requests of 32
		// sectors, whatever n; the store 512 of 4.
		{"hoisted load", `__global__ void k(const float* a, float* b, int n) { float s = 0; for (int j = 0; j < n; j++) s += a[32 * threadIdx.x] * j; b[blockIdx.x * blockDim.x + threadIdx.x] = s; }
void h(float* a, float* b, int n) { k<<<64, 256>>>(a, b, n); }`, 512*32 + 512*4, 0, true},
		// The grid comes from the host at run time: assumed.
		{"grid at run time", `__global__ void k(const float* a, float* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[i]; }
void h(float* a, float* b, int g) { k<<<g, 256>>>(a, b); }`, -1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, costs := loadSource(t, tt.src)
			if len(res.Analysis.Predictions) == 0 {
				t.Fatal("no predictions")
			}
			k, ok := costs.Kernel(res.Analysis.Predictions[0])
			if !ok {
				t.Fatal("no kernel cost")
			}
			if tt.sectors >= 0 && k.Sectors != tt.sectors {
				t.Errorf("sectors per launch %v, want %v", k.Sectors, tt.sectors)
			}
			if k.Wavefronts != tt.wavefronts || k.Assumed != tt.assumed {
				t.Errorf("wavefronts %v, assumed %v; want %v, %v", k.Wavefronts, k.Assumed, tt.wavefronts, tt.assumed)
			}
		})
	}
}

// A finding's impact, worked by hand for a load of stride 4 and a
// coalesced store, w requests each (a warp each, 65536 blocks of 8: a
// launch whose start-up is a sliver of it): the kernel moves w x (16 +
// 4) sectors, the fix removes w x 12 of them: 60% of the time, 2.5x.
func TestImpact(t *testing.T) {
	res, costs := loadSource(t, `__global__ void k(const float* a, float* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[4 * i]; }
void h(float* a, float* b) { k<<<65536, 256>>>(a, b); }`)
	for _, p := range res.Analysis.Predictions {
		imp, ok := costs.Impact(p)
		if !ok {
			t.Fatalf("%s: no impact", p.Access.Expr)
		}
		// DRAM moves the 20 sectors; the L1 serves 4 lines for the load
		// and 1 for the store; each warp issues 5 instructions (the
		// index's two operations, 4 * i, the load and the store).
		const w = 65536 * 8
		const instructions = w * 5
		spread := SpreadOf(65536, 256)
		want := lint.Impact{KernelSectorsPerLaunch: w * 20, EstimatedSpeedup: 1, KernelDRAMSectors: w * 20, KernelL1Wavefronts: w * 5,
			KernelInstructionsPerLaunch: instructions, KernelInstructions: instructions,
			KernelSpreadL1: spread.L1, KernelSpreadIssue: spread.Issue, KernelSpreadWaves: spread.Waves}
		if p.Access.Expr == "a[4 * i]" {
			asIs := KernelCost{DRAM: w * 20, L1: w * 5, Instructions: instructions, Spread: spread}.Seconds()
			fixed := KernelCost{DRAM: w * 8, L1: w * 2, Instructions: instructions, Spread: spread}.Seconds()
			want.ExcessBytesPerLaunch, want.Share, want.EstimatedSpeedup = w*12*32, round(1-fixed/asIs), round(asIs/fixed)
			want.ExcessDRAMSectors, want.ExcessL1Wavefronts = w*12, w*3
		}
		imp.SavedSeconds = 0
		if imp != want {
			t.Errorf("%s: impact %+v, want %+v", p.Access.Expr, imp, want)
		}
	}
}

// The time model weighs shared wavefronts against global bytes: a
// 32-way conflict beside a coalesced copy (w requests each way, 4
// sectors; 1 wavefront for the row store, 32 for the column load).
func TestImpactOfSharedConflict(t *testing.T) {
	res, costs := loadSource(t, `__global__ void k(const float* a, float* b) {
    __shared__ float t[32][32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[threadIdx.x / 32][threadIdx.x % 32] = a[i];
    __syncthreads();
    b[i] = t[threadIdx.x % 32][threadIdx.x / 32];
}
void h(float* a, float* b) { k<<<65536, 256>>>(a, b); }`)
	// DRAM: 512 requests each way of 4 sectors; the L1: a line per
	// global request, and the shared wavefronts; 11 instructions a warp
	// (the index's two operations, a shift and a mask each side, the
	// barrier, four accesses).
	const w = 65536 * 8
	dram := 2 * w * 4.0
	const instructions = w * 11
	spread := SpreadOf(65536, 256)
	asIs := KernelCost{DRAM: dram, L1: 2*w + w*(1+32), Instructions: instructions, Spread: spread}.Seconds()
	fixed := KernelCost{DRAM: dram, L1: 2*w + w*(1+1), Instructions: instructions, Spread: spread}.Seconds()
	found := false
	for _, p := range res.Analysis.Predictions {
		if p.Access.Expr != "t[threadIdx.x % 32][threadIdx.x / 32]" {
			continue
		}
		found = true
		imp, ok := costs.Impact(p)
		if !ok {
			t.Fatal("no impact")
		}
		if imp.KernelWavefrontsPerLaunch != w*33 || imp.ExcessWavefrontsPerLaunch != w*31 {
			t.Errorf("wavefronts %d, excess %d; want %d, %d", imp.KernelWavefrontsPerLaunch, imp.ExcessWavefrontsPerLaunch, w*33, w*31)
		}
		if want := asIs / fixed; math.Abs(imp.EstimatedSpeedup-want) > 0.001 {
			t.Errorf("speedup %v, want %.3f", imp.EstimatedSpeedup, want)
		}
		if want := 1 - fixed/asIs; math.Abs(imp.Share-want) > 0.001 {
			t.Errorf("share %v, want %.3f", imp.Share, want)
		}
	}
	if !found {
		t.Fatal("no prediction for the column load")
	}
}

// Findings of one cause count together against their kernel.
// Excess past the largest int64 (sizes assumed large in nested loops)
// is kept, not saturated, and folds of it add up.
func TestExcessPastInt64(t *testing.T) {
	k := KernelCost{Sectors: 4e18, DRAM: 4e18, L1: 1e18}
	one := New(k, Excess{Sectors: 3e18, DRAM: 3e18}, true)
	if one.ExcessBytesPerLaunch != 3e18*32 {
		t.Errorf("excess %g bytes, want %g", one.ExcessBytesPerLaunch, 3e18*32)
	}
	half := New(k, Excess{Sectors: 1.5e18, DRAM: 1.5e18}, true)
	if both := Combined([]*lint.Impact{&half, &half}); both.ExcessBytesPerLaunch != one.ExcessBytesPerLaunch {
		t.Errorf("two halves fold to %g bytes, want %g", both.ExcessBytesPerLaunch, one.ExcessBytesPerLaunch)
	}
}

func TestCombined(t *testing.T) {
	// Sizes at which the launch's start-up rounds away.
	const g = 1e7
	k := KernelCost{Sectors: 1000 * g, DRAM: 1000 * g}
	a, b := New(k, Excess{Sectors: 300 * g, DRAM: 300 * g}, false), New(k, Excess{Sectors: 200 * g, DRAM: 200 * g}, true)
	got := Combined([]*lint.Impact{&a, &b})
	if got.Share != 0.5 || got.EstimatedSpeedup != 2 || !got.Assumed || got.ExcessBytesPerLaunch != 500*32*g {
		t.Errorf("combined %+v, want share 0.5, speedup 2, assumed, %g bytes", got, 500*32*g)
	}
	other := New(KernelCost{Sectors: 50 * g, DRAM: 50 * g}, Excess{Sectors: 40 * g, DRAM: 40 * g}, false)
	if got := Combined([]*lint.Impact{&a, &other}); got.Share != 0.3 {
		t.Errorf("another kernel's impact counted: share %v, want 0.3", got.Share)
	}
	if Combined([]*lint.Impact{nil, &a}) != nil {
		t.Error("a first finding without impact got one")
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		imp     lint.Impact
		demoted bool
		want    string
	}{
		{lint.Impact{EstimatedSpeedup: 4.321, Share: 0.769}, false, "fixing it: up to 4.3x for this kernel (77% of its time)"},
		{lint.Impact{EstimatedSpeedup: 1.0204, Share: 0.02}, true, "fixing it: up to 1.02x for this kernel (2% of its time, under the 5% a warning needs)"},
		{lint.Impact{EstimatedSpeedup: 1, Share: 0.001, Assumed: true}, false, "fixing it: under 1.01x for this kernel (under 1% of its time, at the assumed sizes)"},
	}
	for _, tt := range tests {
		if got := Text(&tt.imp, tt.demoted); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}

// The share rule of docs/severity.md: a warning needs its fix to save at
// least 5% of its kernel's memory time; errors and info stay.
func TestShareSeverity(t *testing.T) {
	share := func(s float64) *lint.Impact { return &lint.Impact{Share: s, EstimatedSpeedup: 1 / (1 - s)} }
	tests := []struct {
		name string
		by   lint.Severity // the rule's grade by cost
		imp  *lint.Impact
		want lint.Severity
	}{
		{"a transpose's column store: most of the kernel", lint.Warning, share(0.78), lint.Warning},
		{"at the bound", lint.Warning, share(0.05), lint.Warning},
		{"just under the bound", lint.Warning, share(0.049), lint.Info},
		{"an epilogue store beside a loop of loads", lint.Warning, share(0.001), lint.Info},
		{"no impact known: the cost decides", lint.Warning, nil, lint.Warning},
		{"a fault whatever it costs", lint.Error, share(0.01), lint.Error},
		{"info stays info", lint.Info, share(0.9), lint.Info},
	}
	for _, tt := range tests {
		if got := ShareSeverity(tt.by, tt.imp); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A fix that covers several accesses (four scalar loads that one float4
// load replaces) removes their excess together: 512 requests each of 16
// sectors where 4 would do, beside a coalesced store: (64 + 4) / (16 + 4).
func TestImpactWithCovered(t *testing.T) {
	res, costs := loadSource(t, `__global__ void k(const float* a, float* b) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3];
}
void h(float* a, float* b) { k<<<64, 256>>>(a, b); }`)
	var loads []*analyzer.Prediction
	for _, p := range res.Analysis.Predictions {
		if p.Access.Op == interp.Load {
			loads = append(loads, p)
		}
	}
	if len(loads) != 4 {
		t.Fatalf("%d loads, want 4", len(loads))
	}
	// The L1 serves a[4*i + 1..3] from the sectors a[4*i] brought in
	// (measured: probes6, time6.txt): DRAM moves 16 + 4 sectors per
	// request pair, the four loads together use 16 of them, so fixing
	// them saves no DRAM time; and the four are a 16-byte record each
	// thread reads whole, whose lines the L1 serves as a float4's
	// (measured 1.00x, the vector pair of testdata/truth/timing): the
	// fix saves nothing.
	one, _ := costs.Impact(loads[0])
	all, _ := costs.Impact(loads[0], loads[1:]...)
	k, _ := costs.Kernel(loads[0])
	// Each warp issues 17 instructions: the index's two operations, the
	// four addresses' four, the three additions, the five accesses.
	const instructions = 512 * 17
	want := round(KernelSeconds(MemorySeconds(512*20, 512*(4+1)), instructions) / KernelSeconds(MemorySeconds(512*20, 512*(4+1)), instructions))
	if k.Sectors != (16+4)*512 || k.DRAM != (16+4)*512 || all.EstimatedSpeedup != want || all.ExcessBytesPerLaunch != 0 || one.EstimatedSpeedup > all.EstimatedSpeedup {
		t.Errorf("kernel %+v, one load %+v, all four %+v; want 10240 sectors and %.3fx", k, one, all, want)
	}
}

// DRAM moves once the sectors a thread's accesses of one record share:
// a float3 loaded in three 4-byte pieces at a 36-byte lane stride (each
// piece's request touches 32 sectors, the three together 36), and a
// record written whole in three stores (triple_slow of
// testdata/truth/timing, measured within 1% of its planar twin). Worked
// by hand: a warp's 36 sectors, 12 per piece, or 12 for the three stores'
// 12-byte records; the kernel's DRAM per launch, 64 blocks x 8 warps.
func TestRecordDRAM(t *testing.T) {
	const launch = "\nvoid h(float3* in, float* out) { k<<<64, 256>>>(in, out); }\n"
	tests := []struct {
		name, src string
		dram      float64 // DRAM sectors per launch, of the kernel's global accesses
		tolerance float64
	}{
		{"float3 pieces", "__global__ void k(const float3* in, float* out) { int i = blockIdx.x * 256 + threadIdx.x; float3 v = in[3 * i]; out[i] = v.x + v.y + v.z; }" + launch,
			512 * (3*12 + 4), 512 * 1.5},
		{"three stores of a record", "__global__ void k(const float3* in, float* out) { int i = blockIdx.x * 256 + threadIdx.x; out[3 * i] = 0; out[3 * i + 1] = 1; out[3 * i + 2] = 2; }" + launch,
			512 * 12, 512 * 0.5},
		// gsplat's write_vec3: one float3 stored through a cast, three
		// STG.32 of 12 sectors each, merged to their 12 (f3store of
		// testdata/truth/timing: 1.00x its planes).
		{"one float3 store through a cast", "__global__ void k(const float3* in, float* out) { int i = blockIdx.x * 256 + threadIdx.x; reinterpret_cast<float3*>(out)[i] = make_float3(0, 1, 2); }" + launch,
			512 * 12, 512 * 0.5},
		// Eight stores of a 32-byte record: lanes a sector apart write
		// apart (st8: 6.4x the L2 write sectors of its planes, 6.2x the
		// time), each priced at its 32 sectors.
		{"eight stores of a 32-byte record", "__global__ void k(const float3* in, float* out) { int i = blockIdx.x * 256 + threadIdx.x; out[8*i] = 0; out[8*i+1] = 1; out[8*i+2] = 2; out[8*i+3] = 3; out[8*i+4] = 4; out[8*i+5] = 5; out[8*i+6] = 6; out[8*i+7] = 7; }" + launch,
			512 * 8 * 32, 512 * 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, c := loadSource(t, tt.src)
			k, ok := c.Kernel(res.Analysis.Predictions[0])
			if !ok {
				t.Fatal("no kernel cost")
			}
			if math.Abs(k.DRAM-tt.dram) > tt.tolerance {
				t.Errorf("DRAM %.0f sectors per launch, want %.0f ± %.0f", k.DRAM, tt.dram, tt.tolerance)
			}
		})
	}
}
