package analyzer

import (
	"strings"
	"testing"
)

// TestGuardPinsParameter: an access that runs only where a guard says
// param == c has param at c, not at the size assumed for a parameter no
// launch gives (FasterTransformer's is_vec == 1 ? scale[tid * is_vec]).
// A guard that does not pin it (!=, <, a negated equality) leaves the
// assumption.
func TestGuardPinsParameter(t *testing.T) {
	tests := []struct {
		name, guard string
		sectors     float64 // per request of the load of in
		assumed     bool    // is_vec still assumed
	}{
		{"equal to one", "is_vec == 1", 4, false},
		{"one, in a conjunction", "is_vec == 1 && threadIdx.x < n", 4, false},
		{"zero, by negation", "!is_vec", 1, false},
		{"not equal", "is_vec != 1", 32, true},
		{"below", "is_vec < 2", 32, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `__global__ void k(float* out, const float* in, int is_vec, int n) {
  if (` + tt.guard + `) out[blockIdx.x * 256 + threadIdx.x] = in[threadIdx.x * is_vec];
}
void h(float* a, const float* b, int v, int n) { k<<<64, 256>>>(a, b, v, n); }`
			r := analyze(t, src, Options{})
			found := false
			for _, p := range r.Predictions {
				if !strings.HasPrefix(p.Access.Expr, "in[") {
					continue
				}
				found = true
				if !p.Known || p.Sectors != tt.sectors {
					t.Errorf("%s: known %v, %.2f sectors/request, want %.0f", p.Access.Expr, p.Known, p.Sectors, tt.sectors)
				}
				assumed := false
				for _, a := range p.Assumptions {
					assumed = assumed || a.Name == "is_vec"
				}
				if assumed != tt.assumed {
					t.Errorf("is_vec assumed: %v, want %v (%v)", assumed, tt.assumed, p.Assumptions)
				}
			}
			if !found {
				t.Fatal("no load of in")
			}
		})
	}
}

// TestSkippedDeclarationIsUnknown: a variable a statement not understood
// declares (int off = X<long, -1>::get(t);) is unknown where it is
// used, not a uniform parameter assumed large (which priced out[off * 2]
// at one sector, 100%). A name it only reads stays what it was.
func TestSkippedDeclarationIsUnknown(t *testing.T) {
	src := `__global__ void k(float* out, const float* in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int off = X<long, int, -1>::get(t);
  out[off * 2] = 0;
  out[SCALE * threadIdx.x] = 1;
}
void h(float* a, const float* b, int n) { k<<<64, 256>>>(a, b, n); }`
	r := analyze(t, src, Options{})
	for _, p := range r.Predictions {
		switch p.Access.Expr {
		case "out[off * 2]":
			if p.Known {
				t.Errorf("%s: priced at %.2f sectors/request; want unknown, off being declared by a statement not understood", p.Access.Expr, p.Sectors)
			}
		case "out[SCALE * threadIdx.x]":
			if !p.Known {
				t.Errorf("%s: unknown (%v); want SCALE assumed as a parameter", p.Access.Expr, p.Unknown)
			}
		}
	}
}

// TestHostTemplateValueArgument: a host function template over a value,
// called in place with a constant the caller holds (helper<WPB>(...),
// WPB a local constexpr), runs with the value bound: the launch inside
// takes its block from it, as helper<4>(...) does.
func TestHostTemplateValueArgument(t *testing.T) {
	for _, arg := range []string{"4", "WPB", "WPB * 2 - 4"} {
		t.Run(arg, func(t *testing.T) {
			src := `template <int WARPS> __global__ void g(float* p) { p[(blockIdx.x * WARPS + threadIdx.y) * 32 + threadIdx.x] = 0; }
template <int WARPS> void helper(float* p, cudaStream_t s) { dim3 block(32, WARPS); g<WARPS><<<64, block, 0, s>>>(p); }
void launch(float* p, cudaStream_t s) { constexpr int WPB = 4; helper<` + arg + `>(p, s); }`
			r := analyze(t, src, Options{})
			if len(r.Predictions) == 0 {
				t.Fatal("no access")
			}
			for _, p := range r.Predictions {
				if b := p.Config.Block; b[0] != 32 || b[1] != 4 {
					t.Errorf("%s: block %v, want 32x4", p.Access.Expr, b)
				}
			}
		})
	}
}

// TestArrayReferenceParameters: T (&a)[N] parameters (CUB's and apex's
// per-thread items) are read, N deduced from the array passed, and an
// overload chosen by the array's length: read(float (&)[4]) is the
// float4 load an float[4] calls, not read(float (&)[2])'s float2.
func TestArrayReferenceParameters(t *testing.T) {
	src := `__device__ void read(float (&dst)[2], const float* g, int i) { float2 t = *reinterpret_cast<const float2*>(&g[2 * i]); dst[0] = t.x; dst[1] = t.y; }
__device__ void read(float (&dst)[4], const float* g, int i) { float4 t = *reinterpret_cast<const float4*>(&g[4 * i]); dst[0] = t.x; dst[1] = t.w; }
template <int N> __device__ void load(const float* p, float (&v)[N]) {
#pragma unroll
  for (int i = 0; i < N; i++) v[i] = p[threadIdx.x * N + i];
}
__global__ void k(float* out, const float* in) {
  float a[4], b[8];
  read(a, in, threadIdx.x);
  load(in, b);
  out[threadIdx.x] = a[0] + b[7];
}
void h(float* o, const float* i) { k<<<64, 256>>>(o, i); }`
	r := analyze(t, src, Options{})
	var reads, loads int
	for _, p := range r.Predictions {
		switch {
		case strings.Contains(p.Access.Expr, "float2"):
			t.Errorf("%s: the float2 overload, for a float[4]", p.Access.Expr)
		case strings.Contains(p.Access.Expr, "float4"):
			reads++
			if p.Sectors != 16 {
				t.Errorf("%s: %.2f sectors/request, want 16 (float4 lanes)", p.Access.Expr, p.Sectors)
			}
		case strings.HasPrefix(p.Access.Expr, "p["):
			loads++
			if !p.Known {
				t.Errorf("%s: unknown (%v); want N deduced as 8", p.Access.Expr, p.Unknown)
			}
		}
	}
	if reads != 1 || loads == 0 {
		t.Errorf("%d float4 reads and %d loads through load<N>, want 1 and some", reads, loads)
	}
}
