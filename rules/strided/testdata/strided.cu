__global__ void stride2(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * 2]; // want "load in\[i \* 2\]: neighbouring lanes are 8 bytes apart.*8 sectors/request, ideal 4 \(50%\); lanes step by 2 floats"
}
__global__ void by_param(const double* in, double* out, int s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i * s]; // want "load in\[i \* s\]: .*32 sectors/request, ideal 8 \(25%\); lanes step by s doubles.*assuming s = 4096, as no launch gives it"
}
// Negative: contiguous, and 8-byte elements fully used.
__global__ void full(const double* in, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}
// Negative: a broadcast.
__global__ void bcast(const float* in, float* out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x];
}
// A tree reduction in global memory: the loop doubles the lanes' step.
__global__ void tree(int* g) {
    int* d = g + blockIdx.x * blockDim.x;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int index = 2 * stride * threadIdx.x;
        if (index < blockDim.x) d[index] += d[index + stride]; // want "load d\[index\]: the distance between neighbouring lanes changes with the loop, 2\^\(i\+1\) ints \(i counts the iterations of the loop at line 21\).*sequential addressing" "load d\[index \+ stride\]: the distance" "store d\[index\]: the distance"
        __syncthreads();
    }
}
// Neighbouring lanes, of which the guard lets every 2*stride-th through:
// the work, not the layout, spreads them.
__global__ void neighbored(int* g) {
    int* d = g + blockIdx.x * blockDim.x;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if (threadIdx.x % (2 * stride) == 0) d[threadIdx.x] += d[threadIdx.x + stride]; // want "load d\[threadIdx.x\]: lanes are contiguous but .*(lets only some lanes through|lane passes the guards).*give the work of each step to neighbouring lanes" "load d\[threadIdx.x \+ stride\]: lanes are contiguous but" "store d\[threadIdx.x\]: lanes are contiguous but"
        __syncthreads();
    }
}
void launch(float* a, float* b, double* c, double* d, int* e) {
    tree<<<64, 256>>>(e);
    neighbored<<<64, 256>>>(e);
    stride2<<<64, 256>>>(a, b);
    full<<<64, 256>>>(c, d);
    bcast<<<64, 256>>>(a, b);
}
// A type no file defines (its header not found): its lanes are 1000
// elements apart, a sector each at any size; info, naming the type.
__global__ void unknown_type(const cufftComplex* in, cufftComplex* out) {
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    out[x * 1000 + y] = in[y * 1000 + x]; // want "store out\[x \* 1000 \+ y\]: neighbouring lanes are 1000 cufftComplex elements apart, a sector or more at any size of it.*no file cudalint read defines cufftComplex.*the figures take it as 4 bytes"
}
void launch_unknown(cufftComplex* a, cufftComplex* b) {
    unknown_type<<<dim3(32, 125), dim3(32, 8)>>>(a, b);
}
