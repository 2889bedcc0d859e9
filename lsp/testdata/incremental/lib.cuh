#pragma once
#define TILE 32
struct Particle { float x, y, z, w; };
typedef float real;

__device__ real load(const real* a, int i) { return a[i]; }
__device__ void store(real* a, int i, real v) { a[i] = v; }

template <typename T>
__global__ void scale(T* out, const T* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i * 2] = in[i] * 2;
}

__global__ void particles(Particle* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p[i].x + p[i].y;
}
