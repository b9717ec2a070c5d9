// SPDX-License-Identifier: Apache-2.0
// Double-precision math as CUDA's library compiles it (sin, cos, exp, pow: extended-precision
// integer arithmetic with carry chains, add.cc/addc/mad.cc/madc, in the argument reduction),
// checked against the host's libm to 1e-12 relative.
#include <cmath>
#include <cstdio>

__global__ void math(const double* x, double* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sin(x[i]) + cos(x[i]) + exp(fmod(x[i], 30.0)) + pow(fmod(x[i], 100.0), 1.5);
}

int main() {
  const int n = 256;
  double hx[n], hy[n];
  // Some arguments huge: sin and cos reduce them with the multiword product (the carry chains).
  for (int i = 0; i < n; ++i) hx[i] = std::fabs(0.37 * i - 20) + 0.1 + (i % 7 == 0 ? std::ldexp(1.0, 40 + i) : 0);
  double *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  math<<<2, 128>>>(x, y, n);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const double r = std::sin(hx[i]) + std::cos(hx[i]) + std::exp(std::fmod(hx[i], 30.0)) + std::pow(std::fmod(hx[i], 100.0), 1.5);
    if (std::fabs(r - hy[i]) > 1e-12 * (1 + std::fabs(r))) {
      if (bad++ < 3) std::printf("x = %.17g: %.17g, the host %.17g\n", hx[i], hy[i], r);
    }
  }
  std::printf(bad ? "FAIL: %d wrong\n" : "PASS\n", bad);
  return bad != 0;
}
