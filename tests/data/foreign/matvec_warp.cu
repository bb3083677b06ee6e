// y = A x for a row-major M x N matrix: one warp per row, coalesced reads of the row,
// a shuffle reduction. Written for kforecast's tests.
#include <cuda_runtime.h>

// The sum is taken in another order than one thread per row takes it: a sum of 8192
// products differs in its last digits.
// kforecast: rtol = 1e-2; atol = 1e-3
__global__ void matvec(const float *A, const float *x, float *y, int M, int N) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row < M) {
    float sum = 0.0f;
    for (int j = lane; j < N; j += 32) {
      sum += A[(size_t)row * N + j] * x[j];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_down_sync(0xffffffff, sum, offset);
    }
    if (lane == 0) {
      y[row] = sum;
    }
  }
}

void run_matvec() {
  const int M = 8192, N = 8192;
  float *A, *x, *y;
  cudaMalloc(&A, sizeof(float) * M * N);
  cudaMalloc(&x, sizeof(float) * N);
  cudaMalloc(&y, sizeof(float) * M);
  const int threads = 256;
  matvec<<<(M * 32 + threads - 1) / threads, threads>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
  cudaFree(A);
  cudaFree(x);
  cudaFree(y);
}
