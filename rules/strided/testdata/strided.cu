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
// A member of a record whose type no file defines: the member's type is
// not known either, and the message names none ("32 ? elements" before).
__global__ void unknown_member(float* out, const Cplx* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[32 * i].re; // want "load in\[32 \* i\]\.re: neighbouring lanes are 32 elements of a type cudalint could not resolve apart, a sector or more at any size of it.*no file cudalint read defines it \(give"
}
void launch_unknown_member(float* o, const Cplx* in) { unknown_member<<<64, 256>>>(o, in); }
// gsplat's write_vec3: a float3 per lane, stored through a cast in three
// 4-byte pieces that together write every byte of the warp's span: the
// L2 merges them (f3store of testdata/truth/timing, 1.00x its planes).
// Lanes step by one float3, not "3 float3s".
__global__ void vec3_store(float* data, const float* in) {
    long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    reinterpret_cast<float3*>(data)[i] = make_float3(in[i], 0.0f, 1.0f); // want "store reinterpret_cast<float3\*>\(data\)\[i\]: neighbouring lanes are 12 bytes apart, so each request touches 3.0x the sectors it uses, but each thread writes its whole 12-byte float3 in 3 instructions, so the L2 merges the writes.*lanes step by 1 float3;"
}
void launch_vec3_store(float* d, const float* in) { vec3_store<<<64, 256>>>(d, in); }
// Eight stores of a 32-byte record per lane: each request writes one
// lane's 4 bytes into each of its 32 sectors, which the L2 takes apart
// (st8 of testdata/truth/timing: 6.2x the time of two float4 planes),
// though DRAM moves each sector once: not "8x the bytes".
__global__ void scratch8(float* scratch, const float* in) {
    long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    float v = in[i];
    scratch[8 * i + 0] = v; // want "store scratch\[8 \* i \+ 0\]: neighbouring lanes are 32 bytes apart, so each request writes 8.0x the sectors it uses, one lane's 4 bytes in each: the thread's other stores fill those sectors, so DRAM moves each once, but the L2 takes each lane's partial write apart \(up to 8.0x the L2 write sectors, not more DRAM bytes\)"
    scratch[8 * i + 1] = v; // want "store scratch\[8 \* i \+ 1\]"
    scratch[8 * i + 2] = v; // want "store scratch\[8 \* i \+ 2\]"
    scratch[8 * i + 3] = v; // want "store scratch\[8 \* i \+ 3\]"
    scratch[8 * i + 4] = v; // want "store scratch\[8 \* i \+ 4\]"
    scratch[8 * i + 5] = v; // want "store scratch\[8 \* i \+ 5\]"
    scratch[8 * i + 6] = v; // want "store scratch\[8 \* i \+ 6\]"
    scratch[8 * i + 7] = v; // want "store scratch\[8 \* i \+ 7\]"
}
void launch_scratch8(float* s, const float* in) { scratch8<<<64, 256>>>(s, in); }
// Six stores of a 24-byte record: the L2 merges half of the excess (st6
// of testdata/truth/timing: 2.80x the L2 write sectors of the planes).
__global__ void scratch6(float* scratch, const float* in) {
    long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    float v = in[i];
    scratch[6 * i + 0] = v; // want "store scratch\[6 \* i \+ 0\]: neighbouring lanes are 24 bytes apart, so each request writes 6.0x the sectors it uses; each thread writes its whole 24-byte record in 6 accesses, but at 24 bytes a lane the L2 merges only part of the writes into each sector \(all of them up to 16 bytes a lane, none from 32\): about 50% of the excess costs L2 write sectors, not DRAM bytes"
    scratch[6 * i + 1] = v; // want "store scratch\[6 \* i \+ 1\]"
    scratch[6 * i + 2] = v; // want "store scratch\[6 \* i \+ 2\]"
    scratch[6 * i + 3] = v; // want "store scratch\[6 \* i \+ 3\]"
    scratch[6 * i + 4] = v; // want "store scratch\[6 \* i \+ 4\]"
    scratch[6 * i + 5] = v; // want "store scratch\[6 \* i \+ 5\]"
}
void launch_scratch6(float* s, const float* in) { scratch6<<<64, 256>>>(s, in); }
// A row per thread (darknet's mean_kernel): the lanes should share the
// rows, not the layout change.
__global__ void rowPerThread(const float* x, float* mean, int spatial) {
    int f = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int j = 0; j < 1024; ++j) s += x[f * 1024 + j]; // want "load x\[f \* 1024 \+ j\]: .*each thread walks a row of its own: let the lanes of a warp share each row"
    mean[f] = s;
}
void launchRows(const float* x, float* m) { rowPerThread<<<64, 256>>>(x, m, 0); }
