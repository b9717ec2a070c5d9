// SPDX-License-Identifier: Apache-2.0
// Polynomial evaluation with its coefficients in __constant__ memory (cudaMemcpyToSymbol) and a
// __device__ counter read back with cudaMemcpyFromSymbol.
#include <cstdio>
#include <vector>

__constant__ float coef[4];
__device__ unsigned evaluated;

__global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = ((coef[3] * x[i] + coef[2]) * x[i] + coef[1]) * x[i] + coef[0];
  atomicAdd(&evaluated, 1u);
}

int main() {
  const int n = 3000;
  const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = (i % 200) / 50.0f - 2.0f;
  cudaMemcpyToSymbol(coef, c, sizeof c);
  unsigned zero = 0;
  cudaMemcpyToSymbol(evaluated, &zero, sizeof zero);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  poly<<<(n + 255) / 256, 256>>>(dx, dy, n);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  unsigned count = 0;
  cudaMemcpyFromSymbol(&count, evaluated, sizeof count);
  if (count != static_cast<unsigned>(n)) {
    std::printf("FAIL evaluated %u, want %d\n", count, n);
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    const float want = ((c[3] * x[i] + c[2]) * x[i] + c[1]) * x[i] + c[0];
    if (y[i] - want > 1e-4f || want - y[i] > 1e-4f) {
      std::printf("FAIL y[%d] = %f, want %f\n", i, y[i], want);
      return 1;
    }
  }
  std::printf("PASS constant\n");
  return 0;
}
