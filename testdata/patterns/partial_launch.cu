// What a launch says when it does not say everything: a block whose x is
// constant and whose y is a run-time value still fixes how warps are
// formed (here along a column: every lane its own row; the load and the
// store on one line share that cause: one finding), and a pointer
// the launch passes as NULL turns its branch off, however it is tested.
#define NULL 0

__global__ void column_copy(float* out, const float* in, int n) {
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.x;
    out[y * n + x] = in[y * n + x]; // want warning strided-access "store out.*block 1x256, blockDim.y assumed \(the launch at partial_launch.cu:\d+ gives no constant for it\).*; load in\[y \* n \+ x\] on this line steps alike: together 64 sectors per request where 8 would do"
}

__global__ void scale_bias(float* out, const float* in, const float* bias, const float* gate, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (bias != NULL) v += bias[i * 4];
    if (NULL != gate) v *= gate[i * 4];
    if (!gate) v *= 2.0f;
    out[i] = v;
}

void run(float* out, const float* in, int n, int rows) {
    dim3 block(1, rows);
    dim3 grid(n, 1);
    column_copy<<<grid, block>>>(out, in, n);
    scale_bias<<<n / 256, 256>>>(out, in, NULL, nullptr, n);
}
