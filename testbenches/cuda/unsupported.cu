// SPDX-License-Identifier: Apache-2.0
// Calls an API irrgpu does not provide: the run must stop naming it, never carry on silently.
#include <cstdio>

__global__ void nothing() {}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  nothing<<<1, 32>>>();
  std::printf("name %s\n", p.name);
  return 0;
}
