struct Body { float x, y, z, mass; };
struct Pair { float a, b; };
__global__ void masses(const Body* bodies, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = bodies[i].mass; // want "load bodies\[i\].mass: each lane uses 4 of the 16 bytes of struct Body \(field mass\).*16 sectors/request, ideal 4"
}
// Negative: the whole struct is copied (every byte used).
__global__ void copy(const Pair* in, Pair* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
// Negative: a struct of arrays.
struct Bodies { float* x; float* mass; };
__global__ void soa(Bodies b, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = b.mass[i];
}
void launch(Body* b, float* o, Pair* p, Pair* q, Bodies s) {
    masses<<<64, 256>>>(b, o);
    copy<<<64, 256>>>(p, q);
    soa<<<64, 256>>>(s, o);
}
// One component of a vector per lane is the same pattern.
__global__ void imag(const float2* z, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = z[i].y; // want "load z\[i\].y: each lane uses 4 of the 8 bytes of its float2 \(component y\); load the whole float2"
}
// Negative: both components read: one 8-byte load.
__global__ void both(const float2* z, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = z[i].x * z[i].y;
}
