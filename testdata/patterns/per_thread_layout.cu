// A per-thread-contiguous layout, state[tid * K + j]: one finding for the
// array, not one per line.
__global__ void rk4(float* state, const float* k, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float a = state[t * 8 + 0]; // want warning strided-access "load state\[t \* 8 \+ 0\]: neighbouring lanes are 32 bytes apart.*3 more accesses to state"
    float b = state[t * 8 + 1];
    float c = state[t * 8 + 2];
    float d = state[t * 8 + 3];
    k[t] + a + b + c + d;
}

void run(float* s, const float* k, int n) { rk4<<<65536, 256>>>(s, k, n); }
