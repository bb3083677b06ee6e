#include <cuda_runtime.h>
#include "kernels.cu"

int main() {
  const int M = 8192, N = 8192;
  float *A, *x, *y;
  cudaMalloc(&A, sizeof(float) * M * N);
  cudaMalloc(&x, sizeof(float) * N);
  cudaMalloc(&y, sizeof(float) * M);
  matvec<<<(M * 32 + 255) / 256, 256>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
  return 0;
}
