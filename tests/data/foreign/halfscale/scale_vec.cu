// y = s * x in half precision, two elements per thread through __half2; a local
// header, cuda_fp16 and cooperative groups. Written for kforecast's tests.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include "scale_common.h"

#define SCALE_THREADS 256

namespace cg = cooperative_groups;

__global__ void scale_half(const __half *x, __half *y, float s, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = 2 * (blockIdx.x * blockDim.x + block.thread_rank());
  if (i + 1 < n) {
    __half2 v = *reinterpret_cast<const __half2 *>(x + i);
    __half2 f = __float2half2_rn(s);
    *reinterpret_cast<__half2 *>(y + i) = __hmul2(v, f);
  } else if (i < n) {
    y[i] = scale_one(x[i], s);
  }
}

void run_scale(float s) {
  int n = 1 << 24;
  __half *x, *y;
  cudaMalloc(&x, n * sizeof(__half));
  cudaMalloc(&y, n * sizeof(__half));
  scale_half<<<(n / 2 + SCALE_THREADS - 1) / SCALE_THREADS, SCALE_THREADS>>>(x, y, s, n);
  cudaDeviceSynchronize();
}

int main() {
  run_scale(2.0f);
  return 0;
}
