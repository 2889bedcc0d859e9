// Minimal stand-in for the CUDA headers so clang can check CUDA syntax
// without a CUDA installation: the qualifiers, the builtin variables and
// the runtime calls PolyBench uses.
#include <stddef.h>
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ inline
struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ dim3 blockDim, gridDim;
typedef int cudaError_t;
typedef struct CUstream_st* cudaStream_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
struct cudaDeviceProp { char name[256]; int major, minor; };
cudaError_t cudaMalloc(void** p, size_t n);
template <class T> cudaError_t cudaMalloc(T** p, size_t n) { return cudaMalloc((void**)p, n); }
cudaError_t cudaFree(void* p);
cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind k);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaSetDevice(int);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp*, int);
cudaError_t cudaGetLastError(void);
const char* cudaGetErrorString(cudaError_t);
extern "C" unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shmem = 0, cudaStream_t s = 0);
extern "C" cudaError_t cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
#include <math.h>
extern "C" cudaError_t cudaConfigureCall(dim3 g, dim3 b, size_t shmem = 0, cudaStream_t s = 0);
