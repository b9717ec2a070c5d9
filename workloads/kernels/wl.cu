// SPDX-License-Identifier: Apache-2.0
// BFS, SSSP, Boruvka's find-min, SP's survey sweep and Barnes-Hut's phases, data-driven, written once against the worklist API (worklist.cuh):
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

// Boruvka's find-min (LonestarGPU's, as graphmem.cu's lsmst_find_min: the weight tested before the
// neighbour's root is chased) over a worklist of vertices: a vertex offers its lightest edge to
// another component to its component's root and stays in the worklist while it has one; once all
// its edges are inside its component it leaves for good, as components only merge. The host links
// the components and compresses `comp` to roots between rounds (graphmem.cu's lsmst_* kernels).
__device__ __forceinline__ unsigned mst_root(const unsigned* comp, unsigned v) {
  while (comp[v] != v) v = comp[v];
  return v;
}

extern "C" __global__ void mst_find_min_wl(const unsigned* row, const unsigned* col, const unsigned* w, const unsigned* eid,
                                           const unsigned* comp, unsigned long long* cmin, WL_PARAMS) {
  for (;;) {
    const unsigned v = WL_PULL();
    if (v == WL_DONE) break;
    if (v >= WL_REFILL) continue;
    const unsigned boss = mst_root(comp, v);
    unsigned long long best = 0xffffffffffffffffull;
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      const unsigned wt = w[e];
      if (wt > (unsigned)(best >> 32)) continue;
      if (mst_root(comp, col[e]) != boss) {
        const unsigned long long key = (unsigned long long)wt << 32 | eid[e];
        if (key < best) best = key;
      }
    }
    if (best == 0xffffffffffffffffull) continue;  // every edge inside the component: done for good
    if (best < cmin[boss]) atomicMin(&cmin[boss], best);
    WL_PUSH(v);
  }
}

// Survey propagation's sweep over a worklist of clauses (sp.cuh): a clause whose surveys moved
// more than SP_EPSILON queues the open clauses that share a variable with it, each once a round
// (`queued`, cleared as the clause is pulled). sp_seed_wl queues every open clause.
#include "sp.cuh"

extern "C" __global__ void sp_update_wl(const unsigned* crow, const unsigned* lit, const unsigned* vrow, const unsigned* occ,
                                        const unsigned* eclause, const unsigned* csat, const unsigned* val, float* eta,
                                        unsigned* queued, WL_PARAMS) {
  for (;;) {
    const unsigned a = WL_PULL();
    if (a == WL_DONE) break;
    if (a >= WL_REFILL) continue;
    queued[a] = 0;
    if (csat[a] || sp_update(a, crow, lit, vrow, occ, eclause, csat, val, eta) <= SP_EPSILON) continue;
    for (unsigned e = crow[a]; e < crow[a + 1]; ++e) {
      const unsigned v = lit[e] >> 1;
      if (val[v]) continue;
      for (unsigned o = vrow[v]; o < vrow[v + 1]; ++o) {
        const unsigned b = eclause[occ[o]];
        if (b != a && !csat[b] && atomicExch(&queued[b], 1u) == 0) WL_PUSH(b);
      }
    }
  }
}

extern "C" __global__ void sp_seed_wl(const unsigned* csat, unsigned* queued, unsigned m, WL_PARAMS) {
  const unsigned a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a < m && !csat[a] && atomicExch(&queued[a], 1u) == 0) WL_PUSH(a);
}

// Barnes-Hut's build, summary, sort and force over worklists (bh.cuh): a body whose insertion met
// a lock is pushed back for the next round; a summarised cell whose parent's last child cell it
// was pushes the parent (bh_seed_summary counts the child cells and pushes the cells with none); a
// sorted cell pushes its child cells (the host seeds the root); the force pulls bodies in tree order
// (bh_seed_sorted).
#include "bh.cuh"

extern "C" __global__ void bh_build_wl(BhTree t, float cx, float cy, float cz, float h, WL_PARAMS) {
  for (;;) {
    const unsigned b = WL_PULL();
    if (b == WL_DONE) break;
    if (b >= WL_REFILL) continue;
    if (!bh_insert(t, b, cx, cy, cz, h)) WL_PUSH(b);
  }
}

extern "C" __global__ void bh_seed_summary(BhTree t, unsigned* pending, WL_PARAMS) {
  const unsigned c = t.n + blockIdx.x * blockDim.x + threadIdx.x;
  if (c - t.n >= *t.ncells) return;
  unsigned cells = 0;
  for (unsigned o = 0; o < 8; ++o) {
    const unsigned k = t.child[8 * (c - t.n) + o];
    cells += k != BH_EMPTY && k >= t.n;
  }
  pending[c - t.n] = cells;
  if (!cells) WL_PUSH(c);
}

extern "C" __global__ void bh_summarise_wl(BhTree t, unsigned* pending, WL_PARAMS) {
  for (;;) {
    const unsigned c = WL_PULL();
    if (c == WL_DONE) break;
    if (c >= WL_REFILL) continue;
    bh_summarise(t, c);
    if (c != t.n) {
      const unsigned p = t.parent[c - t.n];
      if (atomicSub(&pending[p - t.n], 1u) == 1u) WL_PUSH(p);
    }
  }
}

extern "C" __global__ void bh_sort_wl(BhTree t, WL_PARAMS) {
  for (;;) {
    const unsigned c = WL_PULL();
    if (c == WL_DONE) break;
    if (c >= WL_REFILL) continue;
    const unsigned cells = bh_sort(t, c);
    for (unsigned o = 0; o < 8; ++o)
      if (cells >> o & 1) WL_PUSH(t.child[8 * (c - t.n) + o]);
  }
}

extern "C" __global__ void bh_seed_sorted(BhTree t, WL_PARAMS) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < t.n) WL_PUSH(t.sorted[i]);
}

extern "C" __global__ void bh_force_wl(BhTree t, float* ax, float* ay, float* az, WL_PARAMS) {
  for (;;) {
    const unsigned b = WL_PULL();
    if (b == WL_DONE) break;
    if (b >= WL_REFILL) continue;
    bh_force(t, b, ax, ay, az);
  }
}

// Delaunay mesh refinement's rounds over worklists (dmr.cuh): dmr_seed_wl queues every bad
// triangle; dmr_cavity_wl pulls a queued triangle and, if it is still bad, marks its cavity and
// passes it on to dmr_refine_wl, which re-triangulates it (queueing the new triangles that are bad)
// or queues it again when another cavity won. `queued` keeps a triangle in the worklist once.
#include "dmr.cuh"

__device__ __forceinline__ void dmr_queue(unsigned* queued, unsigned t, WL_PARAMS) {
  if (atomicExch(&queued[t], 1u) == 0) WL_PUSH(t);
}

extern "C" __global__ void dmr_seed_wl(DmrMesh m, unsigned triangles, unsigned* queued, WL_PARAMS) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < triangles && dmr_bad(m, t)) dmr_queue(queued, t, WL_ARGS);
}

extern "C" __global__ void dmr_cavity_wl(DmrMesh m, unsigned round, unsigned* queued, WL_PARAMS) {
  for (;;) {
    const unsigned t = WL_PULL();
    if (t == WL_DONE) break;
    if (t >= WL_REFILL) continue;
    queued[t] = 0;
    if (dmr_cavity(m, t, (unsigned long long)round << 32 | (0xffffffffu - t))) WL_PUSH(t);
  }
}

extern "C" __global__ void dmr_refine_wl(DmrMesh m, unsigned round, unsigned* queued, WL_PARAMS) {
  for (;;) {
    const unsigned t = WL_PULL();
    if (t == WL_DONE) break;
    if (t >= WL_REFILL) continue;
    const unsigned made = dmr_refine(m, t, (unsigned long long)round << 32 | (0xffffffffu - t));
    if (!made) {
      dmr_queue(queued, t, WL_ARGS);  // lost a triangle to another cavity: again next round
      continue;
    }
    bool kept = true;  // t outside its own cavity (a border split) stays bad
    for (unsigned j = 0; j < made; ++j) {
      const unsigned s = m.cav[DMR_SLOTS * t + j];
      kept = kept && s != t;
      if (dmr_bad(m, s)) dmr_queue(queued, s, WL_ARGS);
    }
    if (kept && dmr_bad(m, t)) dmr_queue(queued, t, WL_ARGS);
  }
}
