// A template kernel instantiated twice with the same cause: one finding
// naming the other instance.
template <typename T>
__global__ void scale(T* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[8 * i] *= 2; // want warning strided-access "load and store a\[8 \* i\].*the same under 1 other launch configuration"
}

void run(float* f, double* d, int n) {
    scale<float><<<64, 256>>>(f, n);
    scale<double><<<64, 256>>>(d, n);
}
