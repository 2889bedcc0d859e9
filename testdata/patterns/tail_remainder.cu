// A remainder: only the lanes past a bound run it (llm.c's
// prepare_softmax_blockwide3 sums the last, partial chunk of 8 of a row
// of V in the one thread whose chunk crosses V). The model evaluates such
// a guard at sizes that let some lane through instead of taking it as
// true: one lane per block, one sector per request, nothing to report,
// while the kernel's real strided access still warns.
__global__ void softmax_tail(const float* x, float* out, int V) {
    int i = (V + 7) / 8 + threadIdx.x - blockDim.x;
    float s = 0.0f;
    while ((i + 1) * 8 > V) {
        for (int k = 0; k < 8; ++k) {
            if (i * 8 + k >= V) break;
            s += x[i * 8 + k];
        }
        i -= blockDim.x;
    }
    s += x[threadIdx.x * V]; // want warning strided-access "neighbouring lanes are"
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A remainder no lane reaches at the sizes tried (only blocks wider than
// n run it): the figures count every lane, and the finding is info.
__global__ void past_the_block(float* a, int n) {
    if (threadIdx.x > n) a[threadIdx.x * 8] = 0.0f; // want info strided-access "8.0x the bytes.*performed only by lanes past the bound n .a remainder.: no lane passes at the sizes tried.*so few requests pay this"
}

void run(const float* x, float* out, float* a, int V, int n) {
    softmax_tail<<<64, 1024>>>(x, out, V);
    past_the_block<<<64, 1024>>>(a, n);
}
