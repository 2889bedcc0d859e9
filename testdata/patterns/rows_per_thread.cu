// A row per thread, walked in two loops (llm.c's softmax kernel1): one
// decomposition scatters both loops' loads of the array, so one finding
// stands for them, and their shares count together.
__global__ void softmax_rows(float* out, const float* in, int T, int NH) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + (idx % NH) * T * T + (idx / NH) * T;
    float m = 0.0f, s = 0.0f;
    for (int a = 0; a < T; a++) m = fmaxf(m, p[a]); // want warning decomposed-index "load p\[a\]: neighbouring lanes differ in .* % NH.*1 more access to in with the same index mapping in this kernel \(load p\[b\] at line 9\)"
    for (int b = 0; b < T; b++) s += p[b] - m;
    out[idx] = s;
}
void run(float* a, float* b) { softmax_rows<<<96, 256>>>(a, b, 1024, 12); }
