// y = s * x in half precision, one element per thread; a local header, cuda_fp16 and
// cooperative groups. Written for kforecast's tests.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
#include "scale_common.h"

#define SCALE_THREADS 256

namespace cg = cooperative_groups;

__global__ void scale_half(const __half *x, __half *y, float s, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + block.thread_rank();
  if (i < n) {
    y[i] = scale_one(x[i], s);
  }
}

void run_scale(float s) {
  int n = 1 << 24;
  __half *x, *y;
  cudaMalloc(&x, n * sizeof(__half));
  cudaMalloc(&y, n * sizeof(__half));
  scale_half<<<(n + SCALE_THREADS - 1) / SCALE_THREADS, SCALE_THREADS>>>(x, y, s, n);
  cudaDeviceSynchronize();
}

int main() {
  run_scale(2.0f);
  return 0;
}
