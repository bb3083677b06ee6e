// Single-precision GEMM, C = alpha * A * B + beta * C (row-major), 2D block tiling:
// each block computes a BM x BN tile of C, each thread a TM x TN sub-tile held in
// registers. Written for kforecast's tests in the style common to public tutorials.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemm2DBlocktiling(int M, int N, int K, float alpha, const float *A, const float *B, float beta,
                                   float *C) {
  constexpr uint numThreads = (BM * BN) / (TM * TN);
  static_assert(numThreads >= BK && numThreads % BK == 0, "a row of As per BK threads");
  static_assert(numThreads >= BN && numThreads % BN == 0, "a row of Bs per BN threads");
  static_assert(BM % (numThreads / BK) == 0 && BK % (numThreads / BN) == 0, "whole tiles");
  static_assert((BM * BK + BK * BN) * sizeof(float) <= 48 * 1024, "static shared memory");
  assert(numThreads == blockDim.x);

  const uint cRow = blockIdx.y;
  const uint cCol = blockIdx.x;
  const uint threadCol = threadIdx.x % (BN / TN);
  const uint threadRow = threadIdx.x / (BN / TN);

  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;

  const uint innerRowA = threadIdx.x / BK;
  const uint innerColA = threadIdx.x % BK;
  const uint strideA = numThreads / BK;
  const uint innerRowB = threadIdx.x / BN;
  const uint innerColB = threadIdx.x % BN;
  const uint strideB = numThreads / BN;

  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};

  for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
    for (uint offset = 0; offset < BM; offset += strideA) {
      As[(innerRowA + offset) * BK + innerColA] = A[(innerRowA + offset) * K + innerColA];
    }
    for (uint offset = 0; offset < BK; offset += strideB) {
      Bs[(innerRowB + offset) * BN + innerColB] = B[(innerRowB + offset) * N + innerColB];
    }
    __syncthreads();
    A += BK;
    B += BK * N;
    for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (uint i = 0; i < TM; ++i) {
        regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
      }
      for (uint i = 0; i < TN; ++i) {
        regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
      }
      for (uint resM = 0; resM < TM; ++resM) {
        for (uint resN = 0; resN < TN; ++resN) {
          threadResults[resM * TN + resN] += regM[resM] * regN[resN];
        }
      }
    }
    __syncthreads();
  }
  for (uint resM = 0; resM < TM; ++resM) {
    for (uint resN = 0; resN < TN; ++resN) {
      const uint at = (threadRow * TM + resM) * N + threadCol * TN + resN;
      C[at] = alpha * threadResults[resM * TN + resN] + beta * C[at];
    }
  }
}

void runSgemm2DBlocktiling(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
  const uint BK = 8;
  if (M >= 128 and N >= 128) {
    const uint TM = 4;
    const uint TN = 4;
    const uint BM = 64;
    const uint BN = 64;
    dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
  } else {
    // Small matrices: smaller tiles, so that enough blocks run.
    const uint TM = 4;
    const uint TN = 4;
    const uint BM = 32;
    const uint BN = 32;
    dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
  }
}

int main() {
  const int M = 2048, N = 2048, K = 2048;
  float *A = nullptr, *B = nullptr, *C = nullptr;
  cudaMalloc((void **)&A, sizeof(float) * M * K);
  cudaMalloc((void **)&B, sizeof(float) * K * N);
  cudaMalloc((void **)&C, sizeof(float) * M * N);
  runSgemm2DBlocktiling(M, N, K, 1.0f, A, B, 0.0f, C);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    fprintf(stderr, "sgemm failed: %s\n", cudaGetErrorString(err));
    return EXIT_FAILURE;
  }
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  return 0;
}
