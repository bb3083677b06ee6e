// SGEMM, step 4: the library's, for comparison (row-major C = A B as cuBLAS's
// column-major C^T = B^T A^T).
#include <cublas_v2.h>

void run_sgemm(int M, int N, int K, float alpha, float *A, float *B, float beta,
               float *C) {
  static cublasHandle_t handle = nullptr;
  if (handle == nullptr) {
    cublasCreate(&handle);
  }
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K,
              &beta, C, N);
}
