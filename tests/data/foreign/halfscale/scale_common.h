// A local header of the halfscale test kernels.
#pragma once
#include <cuda_fp16.h>

__device__ __forceinline__ __half scale_one(__half v, float s) {
  return __float2half(__half2float(v) * s);
}
