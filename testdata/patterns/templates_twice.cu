// A template kernel instantiated twice with the same cause: one finding
// naming the other instance, and what it costs there (doubles: the same
// 32 sectors, ideal 8).
template <typename T>
__global__ void scale(T* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
.*under 1 other launch configuration or template instance it costs 32 sectors/request, ideal 8"
}

void run(float* f, double* d, int n) {
    scale<float><<<64, 256>>>(f, n);
    scale<double><<<64, 256>>>(d, n);
}
