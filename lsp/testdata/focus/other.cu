// A file of the project that neither includes the open file nor
// launches its kernels; a comment naming named_kernel pulls nothing in.
__global__ void other(float* out, const float* in) {
    out[threadIdx.x * 8] = in[threadIdx.x * 8];
}
