// The benchmark driver: every version is run through run_sgemm at one size.
void run_sgemm(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C);

int bench(float *A, float *B, float *C) {
  const int m = 4096, n = 4096, k = 4096;
  run_sgemm(m, n, k, 1.0f, A, B, 0.0f, C);
  return 0;
}
