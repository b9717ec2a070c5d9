// SPDX-License-Identifier: Apache-2.0
// cudaGetDeviceProperties agrees with cudaDeviceGetAttribute field by field, and
// cudaFuncGetAttributes gives a kernel's static shared memory: compiled against the toolkit's own
// structures, it checks the layouts irrgpu's runtime writes.
#include <cstdio>

__global__ void tiled(float* v) {
  __shared__ float t[64];
  t[threadIdx.x] = v[threadIdx.x];
  __syncthreads();
  v[threadIdx.x] = t[63 - threadIdx.x];
}

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
      {"concurrentKernels", p.concurrentKernels, cudaDevAttrConcurrentKernels},
      {"asyncEngineCount", p.asyncEngineCount, cudaDevAttrAsyncEngineCount},
  };
  for (const auto& c : checks) {
    int v = -1;
    cudaDeviceGetAttribute(&v, c.attr, 0);
    if (c.field != v || v <= 0) {
      std::printf("FAIL %s = %lld, the attribute %d\n", c.name, c.field, v);
      return 1;
    }
  }
  cudaFuncAttributes f;
  if (cudaFuncGetAttributes(&f, tiled) != cudaSuccess) return 3;
  if (f.sharedSizeBytes != 64 * sizeof(float) || f.numRegs <= 0 || f.maxThreadsPerBlock <= 0 || f.localSizeBytes != 0) {
    std::printf("FAIL cudaFuncGetAttributes: shared %zu, registers %d, threads %d, local %zu\n", f.sharedSizeBytes, f.numRegs,
                f.maxThreadsPerBlock, f.localSizeBytes);
    return 1;
  }
  std::printf("PASS device_props: %s, %d SMs, warp %d; tiled: %d registers, %zu B shared\n", p.name, p.multiProcessorCount,
              p.warpSize, f.numRegs, f.sharedSizeBytes);
  return 0;
}
