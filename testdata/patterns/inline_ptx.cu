// Inline PTX wrappers, as LLM-kernel teaching code writes them (macros
// around asm volatile): the accesses are the asm's memory instructions,
// at the addresses its operands hold, of the widths its opcodes give.
#include <cstdint>
#define CP_ASYNC_CG(dst, src, bytes) \
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))
#define CP_ASYNC_COMMIT_GROUP() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))
#define LDMATRIX_X4(R0, R1, R2, R3, addr)                                          \
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" \
               : "=r"(R0), "=r"(R1), "=r"(R2), "=r"(R3)                           \
               : "r"(addr))

// A 64x16 tile of halves copied in 16-byte pieces (coalesced), then read
// as 8x8 matrices: rows of 32 bytes put two of each phase's eight rows
// on the same banks, 8 wavefronts where 4 would do.
__global__ void tile_ldmatrix(const uint16_t* A, uint32_t* out, int K) {
  __shared__ __align__(16) uint16_t s[64][16];
  int tid = threadIdx.x, lane = tid % 32;
  int row = tid / 2, col = (tid % 2) * 8;
  uint32_t dst = __cvta_generic_to_shared(&s[row][col]);
  CP_ASYNC_CG(dst, &A[(blockIdx.x * 64 + row) * K + col], 16);
  CP_ASYNC_COMMIT_GROUP();
  CP_ASYNC_WAIT_GROUP(0);
  __syncthreads();
  uint32_t acc = 0;
  for (int rep = 0; rep < 64; rep++) {
    uint32_t r0, r1, r2, r3;
    uint32_t a = __cvta_generic_to_shared(&s[(tid / 32) * 16 + lane % 16][(lane / 16) * 8]);
    LDMATRIX_X4(r0, r1, r2, r3, a); // want info shared-bank-conflict "ldmatrix.sync.aligned.x4.m8n8.shared.b16 \[a\]: .*8 wavefronts/request, ideal 4"
    acc += r0 ^ r1 ^ r2 ^ r3;
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// The same, its rows padded to 48 bytes: each phase's matrix rows hit
// distinct banks, but the copy's 16-byte pieces, two a row, now do not
// tile 128 bytes: lanes 1 and 6 of each phase share banks 4-7.
__global__ void tile_ldmatrix_padded(const uint16_t* A, uint32_t* out, int K) {
  __shared__ __align__(16) uint16_t s[64][24];
  int tid = threadIdx.x, lane = tid % 32;
  int row = tid / 2, col = (tid % 2) * 8;
  uint32_t dst = __cvta_generic_to_shared(&s[row][col]);
  CP_ASYNC_CG(dst, &A[(blockIdx.x * 64 + row) * K + col], 16); // want info shared-bank-conflict "cp.async.cg.shared.global.L2::128B \[dst\]: .*8 wavefronts/request, ideal 4"
  CP_ASYNC_COMMIT_GROUP();
  CP_ASYNC_WAIT_GROUP(0);
  __syncthreads();
  uint32_t acc = 0;
  for (int rep = 0; rep < 64; rep++) {
    uint32_t r0, r1, r2, r3;
    uint32_t a = __cvta_generic_to_shared(&s[(tid / 32) * 16 + lane % 16][(lane / 16) * 8]);
    LDMATRIX_X4(r0, r1, r2, r3, a);
    acc += r0 ^ r1 ^ r2 ^ r3;
  }
  out[blockIdx.x * blockDim.x + tid] = acc;
}

// A float4 load through ld.global.nc whose lanes are a row apart: each
// lane's 16 bytes are a sector of their own.
__global__ void column_nc(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a, b, c, d;
  asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(in + i * 1024)); // want info strided-access "ld.global.nc.v4.f32 \[in \+ i \* 1024\]: neighbouring lanes are 4096 bytes apart.*32 sectors/request, ideal 16"
  out[i] = a + b + c + d;
}

void launch(const uint16_t* A, uint32_t* o, const float* in, float* out) {
  tile_ldmatrix<<<64, 128>>>(A, o, 16);
  tile_ldmatrix_padded<<<64, 128>>>(A, o, 16);
  column_nc<<<64, 256>>>(in, out);
}
