// SPDX-License-Identifier: Apache-2.0
// Data-driven BFS and SSSP written once against the worklist interface (worklist.cuh): compiled
// as is, on the software worklist (variant `wl`); through wl_hwwl.cu, on the HWWL (variant `hwwl`).
#include "worklist.cuh"

#define INF 0xffffffffu

// Each thread pulls until its kernel's work is done; a vertex's level is claimed by CAS, so each
// vertex enters the worklist once.
extern "C" __global__ void bfs_wl(const unsigned* row, const unsigned* col, unsigned* level, WL_PARAMS) {
  for (;;) {
    const unsigned v = WL_PULL();
    if (v == WL_DONE) break;
    if (v >= WL_REFILL) continue;  // WAIT or REFILL: pull again
    const unsigned next = level[v] + 1;
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      const unsigned u = col[e];
      if (atomicCAS(&level[u], INF, next) == INF) WL_PUSH(u);
    }
  }
}

// BFS for a single-buffered worklist, whose kernel mixes levels: a vertex's level is lowered by
// atomicMin and the vertex pushed each time it improves (SSSP with unit weights).
extern "C" __global__ void bfs_wl_relax(const unsigned* row, const unsigned* col, unsigned* level, WL_PARAMS) {
  for (;;) {
    const unsigned v = WL_PULL();
    if (v == WL_DONE) break;
    if (v >= WL_REFILL) continue;
    const unsigned next = level[v] + 1;
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      const unsigned u = col[e];
      if (atomicMin(&level[u], next) > next) WL_PUSH(u);
    }
  }
}

// A vertex is pushed once per improving edge.
extern "C" __global__ void sssp_wl(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                   WL_PARAMS) {
  for (;;) {
    const unsigned v = WL_PULL();
    if (v == WL_DONE) break;
    if (v >= WL_REFILL) continue;
    const unsigned d = dist[v];
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      const unsigned u = col[e], nd = d + w[e];
      if (atomicMin(&dist[u], nd) > nd) WL_PUSH(u);
    }
  }
}
