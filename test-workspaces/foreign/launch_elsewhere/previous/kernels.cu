// Row-wise matrix-vector product, a thread per row; launched from main.cu.
__global__ void matvec(const float *A, const float *x, float *y, int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float acc = 0.0f;
    for (int c = 0; c < N; ++c) acc += A[row * N + c] * x[c];
    y[row] = acc;
  }
}
