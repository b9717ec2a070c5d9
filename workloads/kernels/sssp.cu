// SPDX-License-Identifier: Apache-2.0
// SSSP after LonestarGPU: topology-driven Bellman-Ford rounds over every vertex, and data-driven
// relaxation over a double-buffered worklist (plain and with warp-aggregated pushes).
#define INF 0xffffffffu
#define FULL 0xffffffffu

extern "C" __global__ void sssp_topology(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                         unsigned n, int* changed) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned d = dist[v];
  if (d == INF) return;
  for (unsigned e = row[v]; e < row[v + 1]; ++e) {
    unsigned nd = d + w[e];
    if (atomicMin(&dist[col[e]], nd) > nd) *changed = 1;
  }
}

extern "C" __global__ void sssp_data(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                     const unsigned* in, unsigned in_count, unsigned* out, unsigned* out_count) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < in_count; i += gridDim.x * blockDim.x) {
    unsigned v = in[i], d = dist[v];
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      unsigned u = col[e], nd = d + w[e];
      if (atomicMin(&dist[u], nd) > nd) out[atomicAdd(out_count, 1u)] = u;
    }
  }
}

extern "C" __global__ void sssp_data_warp(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                          const unsigned* in, unsigned in_count, unsigned* out, unsigned* out_count) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  bool valid = i < in_count;
  unsigned v = valid ? in[i] : 0, beg = valid ? row[v] : 0, end = valid ? row[v + 1] : 0, d = valid ? dist[v] : 0;
  for (unsigned e = beg; __any_sync(FULL, e < end); ++e) {
    bool push = false;
    unsigned u = 0;
    if (e < end) {
      u = col[e];
      unsigned nd = d + w[e];
      push = atomicMin(&dist[u], nd) > nd;
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
