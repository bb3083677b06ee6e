// Row-wise matrix-vector product, a warp per row (coalesced reads of A); launched from main.cu.
__global__ void matvec(const float *A, const float *x, float *y, int M, int N) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp < M) {
    float acc = 0.0f;
    for (int c = lane; c < N; c += 32) acc += A[warp * N + c] * x[c];
    for (int offset = 16; offset > 0; offset /= 2) acc += __shfl_down_sync(0xffffffff, acc, offset);
    if (lane == 0) y[warp] = acc;
  }
}
