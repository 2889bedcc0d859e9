package analyzer

import (
	"testing"

	"github.com/cudalint/cudalint/analyzer/interp"
)

// Inline PTX wrappers are accesses: one row per instruction form, with
// the sectors (global) or wavefronts (shared) per request the model
// predicts and the ideal, worked out by hand from the lanes' addresses.
func TestInlinePTX(t *testing.T) {
	const launch = "\nvoid h(float* a, float* b) { k<<<64, 128>>>(a, b); }"
	tests := []struct {
		name, src, expr string
		op              interp.Op
		sectors, ideal  float64
	}{
		{"ld.global.nc.v4.f32, consecutive float4s: 512 bytes a warp", `
__global__ void k(float* in, float* out) {
  float a, b, c, d;
  const float* p = in + 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(p));
  out[threadIdx.x] = a + b + c + d;
}`, "ld.global.nc.v4.f32 [p]", interp.Load, 16, 16},
		{"ld.global.b32 with a byte offset, a lane every 64 bytes", `
__global__ void k(float* in, float* out) {
  float a;
  asm volatile("ld.global.b32 %0, [%1+4];" : "=f"(a) : "l"(in + 16 * threadIdx.x));
  out[threadIdx.x] = a;
}`, "ld.global.b32 [in + 16 * threadIdx.x]", interp.Load, 32, 4},
		{"st.global.v2.f32 through a named operand", `
__global__ void k(float* in, float* out) {
  asm volatile("st.global.v2.f32 [%[dst]], {%[x], %[y]};" :: [dst] "l"(out + 2 * threadIdx.x), [x] "f"(1.0f), [y] "f"(2.0f));
}`, "st.global.v2.f32 [out + 2 * threadIdx.x]", interp.Store, 8, 8},
		{"red.global.add.f32, one float a lane", `
__global__ void k(float* in, float* out) {
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(&out[threadIdx.x]), "f"(1.0f) : "memory");
}`, "red.global.add.f32 [&out[threadIdx.x]]", interp.Atomic, 4, 4},
		{"cp.async.cg: the global side, 16 bytes a lane", `
__global__ void k(float* in, float* out) {
  __shared__ __align__(16) float s[128 * 4];
  uint32_t dst = __cvta_generic_to_shared(&s[4 * threadIdx.x]);
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" :: "r"(dst), "l"(&in[4 * threadIdx.x]), "n"(16));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group %0;\n" :: "n"(0));
  out[threadIdx.x] = s[threadIdx.x];
}`, "cp.async.cg.shared.global.L2::128B [&in[4 * threadIdx.x]]", interp.Load, 16, 16},
		{"cp.async.cg: the shared side, 16 bytes a lane, conflict-free", `
__global__ void k(float* in, float* out) {
  __shared__ __align__(16) float s[128 * 4];
  uint32_t dst = __cvta_generic_to_shared(&s[4 * threadIdx.x]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(&in[4 * threadIdx.x]));
  out[threadIdx.x] = s[threadIdx.x];
}`, "cp.async.cg.shared.global [dst]", interp.Store, 4, 4},
		{"ld.shared.b32 from a shared address a lane every 128 bytes: 32-way", `
__global__ void k(float* in, float* out) {
  __shared__ float s[128 * 32];
  float v;
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(s)) + threadIdx.x * 128;
  asm volatile("ld.shared.b32 %0, [%1];" : "=f"(v) : "r"(a));
  out[threadIdx.x] = v;
}`, "ld.shared.b32 [a]", interp.Load, 32, 1},
		{"ldmatrix.x4 over rows of 32 bytes: two rows share banks in each phase", `
__global__ void k(float* in, float* out) {
  __shared__ __align__(16) unsigned short s[64 * 16];
  int lane = threadIdx.x % 32;
  uint32_t base = __cvta_generic_to_shared(s);
  uint32_t a = base + ((lane % 16) * 16 + (lane / 16) * 8) * sizeof(unsigned short);
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}`, "ldmatrix.sync.aligned.x4.m8n8.shared.b16 [a]", interp.Load, 8, 4},
		{"ldmatrix.x4 over padded rows of 48 bytes: conflict-free", `
__global__ void k(float* in, float* out) {
  __shared__ __align__(16) unsigned short s[64 * 24];
  int lane = threadIdx.x % 32;
  uint32_t base = __cvta_generic_to_shared(s);
  uint32_t a = base + ((lane % 16) * 24 + (lane / 16) * 8) * 2;
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
  out[threadIdx.x] = r0;
}`, "ldmatrix.sync.aligned.x4.m8n8.shared.b16 [a]", interp.Load, 4, 4},
		{"ldmatrix.x1: only lanes 0-7 read, one 128-byte matrix", `
__global__ void k(float* in, float* out) {
  __shared__ __align__(16) unsigned short s[64 * 24];
  int lane = threadIdx.x % 32;
  uint32_t a = __cvta_generic_to_shared(&s[lane * 8]);
  uint32_t r0;
  asm volatile("ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(a));
  out[threadIdx.x] = r0;
}`, "ldmatrix.sync.aligned.x1.trans.m8n8.shared.b16 [a]", interp.Load, 1, 1},
		{"a predicated copy, CUTLASS's way: lanes past n copy nothing", `
__global__ void k(float* in, float* out) {
  __shared__ __align__(16) float s[128 * 4];
  uint32_t dst = __cvta_generic_to_shared(&s[4 * threadIdx.x]);
  int ok = threadIdx.x < 16;
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n @p cp.async.cg.shared.global [%1], [%2], 16;\n}\n" :: "r"(ok), "r"(dst), "l"(&in[4 * threadIdx.x]));
  out[threadIdx.x] = s[threadIdx.x];
}`, "cp.async.cg.shared.global [&in[4 * threadIdx.x]]", interp.Load, 8, 8},
		{"mov %laneid gives the lane", `
__global__ void k(float* in, float* out) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[blockIdx.x * 32 + lane] = 0;
}`, "out[blockIdx.x * 32 + lane]", interp.Store, 4, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze(t, tt.src+launch, Options{})
			for _, k := range r.Kernels {
				for _, n := range k.Notes {
					t.Errorf("note %v", n)
				}
			}
			p := findOne(t, r, tt.expr, tt.op)
			if !p.Known || p.Sectors != tt.sectors || p.Ideal != tt.ideal {
				t.Errorf("got %.3f (ideal %.3f, known %v, %s), want %.3f (ideal %.3f)", p.Sectors, p.Ideal, p.Known, p.Reason(), tt.sectors, tt.ideal)
			}
		})
	}
}
