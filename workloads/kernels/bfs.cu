// SPDX-License-Identifier: Apache-2.0
// BFS after LonestarGPU: a topology-driven kernel over every vertex per level, and data-driven
// kernels over a double-buffered worklist: plain (fixed or worklist-sized grid), with
// warp-aggregated pushes, and with block-level atomic-reduced pushes (a prefix sum in shared
// memory, one atomic per block).
#define INF 0xffffffffu
#define FULL 0xffffffffu

extern "C" __global__ void bfs_topology(const unsigned* row, const unsigned* col, unsigned* level, unsigned cur,
                                        unsigned n, int* changed) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != cur) return;
  for (unsigned e = row[v]; e < row[v + 1]; ++e) {
    unsigned u = col[e];
    if (level[u] == INF) {
      level[u] = cur + 1;
      *changed = 1;
    }
  }
}

// Grid-stride over the worklist, so the host may launch a fixed grid (`data`) or one sized to the
// worklist (`data_vkc`, variable kernel configuration).
extern "C" __global__ void bfs_data(const unsigned* row, const unsigned* col, unsigned* level, const unsigned* in,
                                    unsigned in_count, unsigned* out, unsigned* out_count) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < in_count; i += gridDim.x * blockDim.x) {
    unsigned v = in[i], next = level[v] + 1;
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      unsigned u = col[e];
      if (atomicCAS(&level[u], INF, next) == INF) out[atomicAdd(out_count, 1u)] = u;
    }
  }
}

extern "C" __global__ void bfs_data_warp(const unsigned* row, const unsigned* col, unsigned* level, const unsigned* in,
                                         unsigned in_count, unsigned* out, unsigned* out_count) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  bool valid = i < in_count;
  unsigned v = valid ? in[i] : 0, beg = valid ? row[v] : 0, end = valid ? row[v + 1] : 0, next = valid ? level[v] + 1 : 0;
  for (unsigned e = beg; __any_sync(FULL, e < end); ++e) {
    bool push = false;
    unsigned u = 0;
    if (e < end) {
      u = col[e];
      push = atomicCAS(&level[u], INF, next) == INF;
    }
    unsigned mask = __ballot_sync(FULL, push), base = 0;
    if (mask) {
      unsigned leader = __ffs(mask) - 1;
      if (lane == leader) base = atomicAdd(out_count, __popc(mask));
      base = __shfl_sync(FULL, base, leader);
      if (push) out[base + __popc(mask & ((1u << lane) - 1))] = u;
    }
  }
}

extern "C" __global__ void bfs_data_block(const unsigned* row, const unsigned* col, unsigned* level, const unsigned* in,
                                          unsigned in_count, unsigned* out, unsigned* out_count) {
  __shared__ unsigned scan[256];
  __shared__ unsigned base;
  __shared__ int more;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  bool valid = i < in_count;
  unsigned v = valid ? in[i] : 0, e = valid ? row[v] : 0, end = valid ? row[v + 1] : 0, next = valid ? level[v] + 1 : 0;
  for (;;) {
    if (t == 0) more = 0;
    __syncthreads();
    if (e < end) more = 1;
    __syncthreads();
    if (!more) break;
    unsigned u = 0, push = 0;
    if (e < end) {
      u = col[e++];
      push = atomicCAS(&level[u], INF, next) == INF;
    }
    scan[t] = push;
    __syncthreads();
    for (unsigned off = 1; off < blockDim.x; off <<= 1) {  // inclusive prefix sum
      unsigned add = t >= off ? scan[t - off] : 0;
      __syncthreads();
      scan[t] += add;
      __syncthreads();
    }
    if (t == blockDim.x - 1 && scan[t]) base = atomicAdd(out_count, scan[t]);
    __syncthreads();
    if (push) out[base + scan[t] - 1] = u;
    __syncthreads();
  }
}
