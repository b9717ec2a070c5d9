// SPDX-License-Identifier: Apache-2.0
// cudaGetDeviceProperties agrees with cudaDeviceGetAttribute field by field: compiled against the
// toolkit's own cudaDeviceProp, it checks the layout irrgpu's runtime writes.
#include <cstdio>

int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 3;
  struct {
    const char* name;
    long long field;
    cudaDeviceAttr attr;
  } checks[] = {
      {"warpSize", p.warpSize, cudaDevAttrWarpSize},
      {"multiProcessorCount", p.multiProcessorCount, cudaDevAttrMultiProcessorCount},
      {"maxThreadsPerBlock", p.maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock},
      {"sharedMemPerBlock", static_cast<long long>(p.sharedMemPerBlock), cudaDevAttrMaxSharedMemoryPerBlock},
      {"regsPerBlock", p.regsPerBlock, cudaDevAttrMaxRegistersPerBlock},
      {"maxThreadsDim[0]", p.maxThreadsDim[0], cudaDevAttrMaxBlockDimX},
      {"maxGridSize[0]", p.maxGridSize[0], cudaDevAttrMaxGridDimX},
      {"major", p.major, cudaDevAttrComputeCapabilityMajor},
      {"minor", p.minor, cudaDevAttrComputeCapabilityMinor},
      {"l2CacheSize", p.l2CacheSize, cudaDevAttrL2CacheSize},
      {"maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor},
      {"regsPerMultiprocessor", p.regsPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor},
      {"maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor, cudaDevAttrMaxBlocksPerMultiprocessor},
  };
  for (const auto& c : checks) {
    int v = -1;
    cudaDeviceGetAttribute(&v, c.attr, 0);
    if (c.field != v || v <= 0) {
      std::printf("FAIL %s = %lld, the attribute %d\n", c.name, c.field, v);
      return 1;
    }
  }
  std::printf("PASS device_props: %s, %d SMs, warp %d\n", p.name, p.multiProcessorCount, p.warpSize);
  return 0;
}
