// y = A x for a row-major M x N matrix: one thread per row. Written for kforecast's
// tests: the sizes live only in the launching function (several declarators in one
// declaration) and in its cudaMalloc calls.
#include <cuda_runtime.h>

__global__ void matvec(const float *A, const float *x, float *y, int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float sum = 0.0f;
    for (int j = 0; j < N; ++j) {
      sum += A[(size_t)row * N + j] * x[j];
    }
    y[row] = sum;
  }
}

void run_matvec() {
  const int M = 8192, N = 8192;
  float *A, *x, *y;
  cudaMalloc(&A, sizeof(float) * M * N);
  cudaMalloc(&x, sizeof(float) * N);
  cudaMalloc(&y, sizeof(float) * M);
  const int threads = 256;
  matvec<<<(M + threads - 1) / threads, threads>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
  cudaFree(A);
  cudaFree(x);
  cudaFree(y);
}
