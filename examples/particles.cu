// Particles: an array of structs makes each lane skip over 32 bytes to
// read 4, so a warp fetches 8 sectors of which 1 holds what it needs. A
// structure of arrays reads each field contiguously.
#include <cuda_runtime.h>

struct Particle {
    float x, y, z;
    float vx, vy, vz;
    float mass;
    int id;
};

__global__ void advance_aos(Particle* p, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].x += p[i].vx * dt;
        p[i].y += p[i].vy * dt;
        p[i].z += p[i].vz * dt;
    }
}

struct Particles {
    float *x, *y, *z;
    float *vx, *vy, *vz;
};

__global__ void advance_soa(Particles p, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p.x[i] += p.vx[i] * dt;
        p.y[i] += p.vy[i] * dt;
        p.z[i] += p.vz[i] * dt;
    }
}

void step(Particle* d_aos, Particles d_soa, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    advance_aos<<<blocks, threads>>>(d_aos, n, 0.01f);
    advance_soa<<<blocks, threads>>>(d_soa, n, 0.01f);
}
