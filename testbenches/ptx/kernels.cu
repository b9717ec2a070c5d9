// SPDX-License-Identifier: Apache-2.0
// Small kernels beyond the workloads, for the executor tests: shared-memory scan, histogram with
// shared then global atomics, tiled matrix multiply, a warp-aggregated atomic counter, and control
// flow that diverges and reconverges in every way nvcc emits.
#include <cstdio>

// Inclusive scan of one block (Hillis-Steele, double-buffered in shared memory).
extern "C" __global__ void scan(const int* in, int* out, int n) {
  __shared__ int buf[2][256];
  int t = threadIdx.x, cur = 0;
  buf[0][t] = t < n ? in[t] : 0;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (t < n) out[t] = buf[cur][t];
}

extern "C" __global__ void histogram(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[64];
  for (int i = threadIdx.x; i < 64; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % 64], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 64; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

#define TILE 16
extern "C" __global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    ta[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? a[row * n + k0 + threadIdx.x] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? b[(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

// Each selected thread gets a unique slot; one atomic per warp (the HWWL paper's software
// baseline optimisation).
extern "C" __global__ void aggregated_counter(const int* keep, int* counter, int* slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool want = i < n && keep[i];
  unsigned mask = __ballot_sync(0xffffffff, want);
  int lane = threadIdx.x % 32, leader = __ffs(mask) - 1, base = 0;
  if (mask && lane == leader) base = atomicAdd(counter, __popc(mask));
  base = __shfl_sync(0xffffffff, base, leader < 0 ? 0 : leader);
  if (want) slots[i] = base + __popc(mask & ((1u << lane) - 1));
}

__device__ __noinline__ int classify(int v) {
  switch (v % 5) {
    case 0: return 10;
    case 1: return v * 2;
    case 2: if (v > 50) return -1; return 7;
    case 3: return v - 100;
    default: return 0;
  }
}

// Nested if/else, a loop with break and continue, an early return, divergent trip counts, a
// switch in a device function, and warp votes under a partial mask.
extern "C" __global__ void control(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i], r = 0;
  if (v & 1) {
    if (v & 2) r = 1; else r = 2;
  } else {
    r = (v & 4) ? 3 : 4;
  }
  int sum = 0;
  for (int k = 0; k < v % 37; ++k) {
    if (k % 3 == 0) continue;
    if (sum > 200) break;
    sum += k;
  }
  int c = classify(v);
  unsigned partial = 0;
  if (threadIdx.x % 32 < 20) partial = __ballot_sync(0x000fffff, v % 3 == 0);
  out[i * 4 + 0] = r;
  out[i * 4 + 1] = sum;
  out[i * 4 + 2] = c;
  out[i * 4 + 3] = (int)partial;
}

extern "C" __global__ void contention(unsigned* counters, int iterations) {
  for (int k = 0; k < iterations; ++k) {
    atomicAdd(&counters[0], 1u);
    atomicMax(&counters[1], blockIdx.x * blockDim.x + threadIdx.x);
    unsigned old = counters[2], assumed;
    do {  // a CAS loop: every thread increments once per iteration
      assumed = old;
      old = atomicCAS(&counters[2], assumed, assumed + 1);
    } while (old != assumed);
  }
}
