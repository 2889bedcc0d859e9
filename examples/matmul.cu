// Naive matrix multiply, C = A * B, N x N. With threadIdx.x on the row,
// the A loads and the C store walk down columns; with threadIdx.x on the
// column, B and C are read and written along rows and A is a broadcast.
#include <cuda_runtime.h>

#define N 1024

__global__ void matmul_rows_on_x(const float* A, const float* B, float* C) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
}

__global__ void matmul(const float* A, const float* B, float* C) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < N; ++k)
        acc += A[row * N + k] * B[k * N + col];
    C[row * N + col] = acc;
}

void multiply(const float* A, const float* B, float* C) {
    dim3 block(16, 16);
    dim3 grid(N / 16, N / 16);
    matmul_rows_on_x<<<grid, block>>>(A, B, C);
    matmul<<<grid, block>>>(A, B, C);
}
