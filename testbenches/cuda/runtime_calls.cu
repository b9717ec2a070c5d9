// SPDX-License-Identifier: Apache-2.0
// The runtime calls ordinary programs and the libraries make, beyond a plain malloc-copy-launch:
// managed memory, unified-address copies, 2D and 3D copies and sets, pitched allocations, the
// occupancy family, stream waits and queries, host functions, the extensible launch, pointer
// attributes. Each result checked on the host; the structures' layouts held against the
// toolkit's header, as irrgpu's runtime declares them (models/cudart/cudart.cpp).
#include <cstddef>
#include <cstdio>
#include <vector>

static_assert(sizeof(cudaMemcpy3DParms) == 160 && offsetof(cudaMemcpy3DParms, dstPtr) == 96 &&
              offsetof(cudaMemcpy3DParms, extent) == 128 && offsetof(cudaMemcpy3DParms, kind) == 152, "cudaMemcpy3DParms");
static_assert(offsetof(cudaLaunchConfig_t, dynamicSmemBytes) == 24 && offsetof(cudaLaunchConfig_t, stream) == 32 &&
              offsetof(cudaLaunchConfig_t, numAttrs) == 48, "cudaLaunchConfig_t");
static_assert(offsetof(cudaPointerAttributes, devicePointer) == 8 && offsetof(cudaPointerAttributes, hostPointer) == 16, "cudaPointerAttributes");

__global__ void add_one(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

int failures = 0;
void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok" : "WRONG", what);
  failures += !ok;
}
void host_fn(void* flag) { *static_cast<int*>(flag) = 1; }

int main() {
  const int n = 300;
  // Managed memory: written by the host, updated by a kernel, read by the host.
  int* m = nullptr;
  check(cudaMallocManaged(&m, n * sizeof(int)) == cudaSuccess, "cudaMallocManaged");
  for (int i = 0; i < n; ++i) m[i] = i;
  add_one<<<(n + 127) / 128, 128>>>(m, n);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && m[i] == i + 1;
  check(ok, "a kernel on managed memory");
  cudaPointerAttributes a{};
  cudaPointerGetAttributes(&a, m);
  check(a.type == cudaMemoryTypeManaged, "cudaPointerGetAttributes (managed)");

  // cudaMemcpyDefault between device memory and managed and host memory.
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, m, n * sizeof(int), cudaMemcpyDefault);
  add_one<<<(n + 127) / 128, 128>>>(d, n);
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDefault);
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && h[i] == i + 2;
  check(ok, "cudaMemcpyDefault");
  cudaPointerGetAttributes(&a, d);
  check(a.type == cudaMemoryTypeDevice, "cudaPointerGetAttributes (device)");

  // A pitched 2D block: rows of 10 ints set, copied in and out with a gap between rows.
  std::size_t pitch = 0;
  int* p = nullptr;
  cudaMallocPitch(reinterpret_cast<void**>(&p), &pitch, 10 * sizeof(int), 4);
  check(pitch >= 10 * sizeof(int), "cudaMallocPitch");
  std::vector<int> grid(4 * 12, -1), back(4 * 12, 0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 10; ++c) grid[r * 12 + c] = r * 100 + c;
  cudaMemset2D(p, pitch, 0, 10 * sizeof(int), 4);
  cudaMemcpy2D(p, pitch, grid.data(), 12 * sizeof(int), 10 * sizeof(int), 4, cudaMemcpyHostToDevice);
  cudaMemcpy2D(back.data(), 12 * sizeof(int), p, pitch, 10 * sizeof(int), 4, cudaMemcpyDeviceToHost);
  ok = true;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 12; ++c) ok = ok && back[r * 12 + c] == (c < 10 ? r * 100 + c : 0);
  check(ok, "cudaMemset2D and cudaMemcpy2D");

  // 3D: a 4 x 3 x 2 box of ints out of a pitched allocation, to host memory.
  cudaPitchedPtr box;
  cudaMalloc3D(&box, make_cudaExtent(4 * sizeof(int), 3, 2));
  std::vector<int> cube(24), cube_back(24, 0);
  for (int i = 0; i < 24; ++i) cube[i] = 1000 + i;
  cudaMemcpy3DParms up{};
  up.srcPtr = make_cudaPitchedPtr(cube.data(), 4 * sizeof(int), 4, 3);
  up.dstPtr = box;
  up.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
  up.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&up);
  cudaMemcpy3DParms down = up;
  down.srcPtr = box;
  down.dstPtr = make_cudaPitchedPtr(cube_back.data(), 4 * sizeof(int), 4, 3);
  down.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&down);
  check(cube == cube_back, "cudaMalloc3D and cudaMemcpy3D");

  // Occupancy: the template's forms reach the C entry points with and without flags.
  int blocks = 0, min_grid = 0, best = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, add_one, 128, 0, cudaOccupancyDefault);
  check(blocks > 0, "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
  int wide = 0;  // the test compares this line between the functional and the timed run (one rule)
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&wide, add_one, 640, 4096);
  std::printf("occupancy: %d blocks of 128 threads, %d of 640 threads with 4 KB\n", blocks, wide);
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, add_one);
  check(best > 0 && min_grid > 0, "cudaOccupancyMaxPotentialBlockSize");
  std::size_t dyn = 0;
  cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, add_one, 2, 128);
  check(dyn > 0, "cudaOccupancyAvailableDynamicSMemPerBlock");
  check(cudaFuncSetAttribute(add_one, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024) == cudaSuccess, "cudaFuncSetAttribute");

  // Two streams ordered by an event; a host function after them; the extensible launch.
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t e;
  cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  add_one<<<(n + 127) / 128, 128, 0, s1>>>(d, n);
  cudaEventRecord(e, s1);
  cudaStreamWaitEvent(s2, e, 0);
  add_one<<<(n + 127) / 128, 128, 0, s2>>>(d, n);
  int flag = 0;
  cudaLaunchHostFunc(s2, host_fn, &flag);
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((n + 127) / 128);
  cfg.blockDim = dim3(128);
  cfg.stream = s2;
  cudaLaunchKernelEx(&cfg, add_one, d, n);
  cudaStreamSynchronize(s2);
  check(cudaStreamQuery(s1) == cudaSuccess && cudaEventQuery(e) == cudaSuccess, "cudaStreamQuery, cudaEventQuery");
  cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  ok = flag == 1;
  for (int i = 0; i < n; ++i) ok = ok && h[i] == i + 5;
  check(ok, "cudaStreamWaitEvent, cudaLaunchHostFunc, cudaLaunchKernelEx");

  std::size_t free_bytes = 0, total = 0;
  cudaMemGetInfo(&free_bytes, &total);
  check(total > 0 && free_bytes < total, "cudaMemGetInfo");
  cudaFree(m);
  cudaFree(d);
  cudaFree(p);
  cudaFree(box.ptr);
  check(cudaGetLastError() == cudaSuccess, "no error left");
  std::printf(failures ? "FAIL\n" : "PASS\n");
  return failures;
}
