// SPDX-License-Identifier: Apache-2.0
// The IRU paper's frontier kernels [S L188-L203]: BFS after Merrill (expand a vertex frontier into
// an edge frontier, contract it into the next vertex frontier), SSSP after Davidson (expand with
// tentative distances, compaction by atomicMin with a lookup of the winning position, the next
// frontier from the winners) and push PageRank (expand residuals into contributions, contract with
// atomicAdd). The expansions are Merrill's scan-based gather: a block scans its vertices' degrees
// in shared memory, reserves one run of the edge frontier with one atomicAdd, and its threads
// stride over the run (each finds its edge's vertex by binary search), so hub vertices do not
// serialise on one thread. A block of 256 threads takes 32 frontier vertices (EXPAND_V), so the
// grid grows with the frontier and a level's edges spread over the SMs. The contraction kernels read the edge frontier with a plain load, or, with USE_IRU
// (frontier_iru.cu), through the IRU with load_iru — the paper's one-macro instrumentation.
#ifdef USE_IRU
#include "iru.cuh"
#endif

#define INF 0xffffffffu
#define D 0.85f

#define EXPAND_V 32  // frontier vertices per block (the host launches 8 threads per vertex)

// The block's part of the gather: scan[t] = the inclusive sum of the first t + 1 degrees of its
// EXPAND_V vertices; returns the run's base in the edge frontier (its length in *total).
__device__ unsigned expand_scan(unsigned* scan, unsigned degree, unsigned* ne, unsigned* total) {
  __shared__ unsigned base;
  const unsigned t = threadIdx.x;
  if (t < EXPAND_V) scan[t] = degree;
  __syncthreads();
  for (unsigned off = 1; off < EXPAND_V; off <<= 1) {  // inclusive prefix sum
    unsigned add = t < EXPAND_V && t >= off ? scan[t - off] : 0;
    __syncthreads();
    if (t < EXPAND_V) scan[t] += add;
    __syncthreads();
  }
  if (t == EXPAND_V - 1) base = scan[t] ? atomicAdd(ne, scan[t]) : 0;
  __syncthreads();
  *total = scan[EXPAND_V - 1];
  return base;
}

// The block's vertex whose edges include the run's k-th.
__device__ unsigned expand_owner(const unsigned* scan, unsigned k) {
  unsigned lo = 0, hi = EXPAND_V - 1;
  while (lo < hi) {
    unsigned mid = (lo + hi) / 2;
    if (scan[mid] > k) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// The block's vertex this thread loads: one of the EXPAND_V, or none (nv when out of range).
__device__ unsigned expand_vertex(unsigned nv) {
  const unsigned i = blockIdx.x * EXPAND_V + threadIdx.x;
  return threadIdx.x < EXPAND_V && i < nv ? i : nv;
}

extern "C" __global__ void bfs_expand(const unsigned* row, const unsigned* col, const unsigned* vf, unsigned nv,
                                      unsigned* ef, unsigned* ne) {
  __shared__ unsigned scan[EXPAND_V], first[EXPAND_V];
  unsigned i = expand_vertex(nv), v = i < nv ? vf[i] : 0;
  if (i < nv) first[threadIdx.x] = row[v];
  unsigned total, base = expand_scan(scan, i < nv ? row[v + 1] - row[v] : 0, ne, &total);
  for (unsigned k = threadIdx.x; k < total; k += blockDim.x) {
    unsigned o = expand_owner(scan, k), e = first[o] + k - (o ? scan[o - 1] : 0);
    ef[base + k] = col[e];
  }
}

// Figure 9: the first visit labels a vertex and puts it in the next frontier (the check by a plain
// load filters most revisits; the CAS keeps the frontier free of duplicates).
extern "C" __global__ void bfs_contract(const unsigned* ef, unsigned ne, unsigned* label, unsigned distance, unsigned* vf,
                                        unsigned* nv) {
  unsigned pos = blockDim.x * blockIdx.x + threadIdx.x;
  if (pos < ne) {
    unsigned edge;
#ifdef USE_IRU
    if (!load_iru(edge)) return;
#else
    edge = ef[pos];
#endif
    if (label[edge] == INF && atomicCAS(&label[edge], INF, distance) == INF)  // irregular access (Fig. 14)
      vf[atomicAdd(nv, 1u)] = edge;
  }
}

extern "C" __global__ void sssp_expand(const unsigned* row, const unsigned* col, const unsigned* w, const unsigned* dist,
                                       const unsigned* vf, unsigned nv, unsigned* ef, unsigned* wf, unsigned* ne) {
  __shared__ unsigned scan[EXPAND_V], first[EXPAND_V], d[EXPAND_V];
  unsigned i = expand_vertex(nv), v = i < nv ? vf[i] : 0;
  if (i < nv) {
    first[threadIdx.x] = row[v];
    d[threadIdx.x] = dist[v];
  }
  unsigned total, base = expand_scan(scan, i < nv ? row[v + 1] - row[v] : 0, ne, &total);
  for (unsigned k = threadIdx.x; k < total; k += blockDim.x) {
    unsigned o = expand_owner(scan, k), e = first[o] + k - (o ? scan[o - 1] : 0);
    ef[base + k] = col[e];
    wf[base + k] = d[o] + w[e];
  }
}

// Figure 10: the IRU's min filter keeps the smallest tentative distance per vertex and its
// position, which the lookup records for the frontier kernel.
extern "C" __global__ void sssp_compaction(const unsigned* ef, const unsigned* wf, unsigned ne, unsigned* label,
                                           unsigned* lookup) {
  unsigned pos = blockDim.x * blockIdx.x + threadIdx.x;
  if (pos < ne) {
    unsigned edge, weight;
#ifdef USE_IRU
    if (!load_iru(edge, weight, pos)) return;
#else
    edge = ef[pos];
    weight = wf[pos];
#endif
    unsigned old = atomicMin(&label[edge], weight);  // irregular access (Fig. 14)
    if (old > weight) lookup[edge] = pos;
  }
}

#ifndef USE_IRU
// The compaction behind a software duplicate filter, as the paper's baseline has one [S L268]:
// Merrill's two culls kept for the minimum (our choice of filter: the paper names none). Warp
// culling, a 128-slot hash of vertices per warp in shared memory: lanes of a warp holding the same
// vertex keep only the smallest distance (ties: the smallest position), lanes whose slot another
// vertex took go through; then history culling, a plain load of the vertex's distance: an element
// no nearer than it is dropped before its atomicMin.
#define CULL_SLOTS 128
#define CULL_WARPS 8  // warps of the host's 256-thread block
extern "C" __global__ void sssp_compaction_culled(const unsigned* ef, const unsigned* wf, unsigned ne, unsigned* label,
                                                  unsigned* lookup) {
  __shared__ unsigned tag[CULL_WARPS][CULL_SLOTS];
  __shared__ unsigned long long best[CULL_WARPS][CULL_SLOTS];
  const unsigned pos = blockDim.x * blockIdx.x + threadIdx.x, w = threadIdx.x / 32;
  const bool live = pos < ne;
  const unsigned edge = live ? ef[pos] : 0, weight = live ? wf[pos] : 0, h = edge % CULL_SLOTS;
  const unsigned long long key = (unsigned long long)weight << 32 | pos;
  if (live) {
    tag[w][h] = edge;
    best[w][h] = ~0ull;
  }
  __syncwarp();
  const bool owner = live && tag[w][h] == edge;
  if (owner) atomicMin(&best[w][h], key);
  __syncwarp();
  if (!live || (owner && best[w][h] != key)) return;  // a lane of the warp has the vertex no farther
  if (label[edge] <= weight) return;               // no nearer: no atomic (irregular access (Fig. 14))
  unsigned old = atomicMin(&label[edge], weight);  // irregular access (Fig. 14)
  if (old > weight) lookup[edge] = pos;
}
#endif

// The next vertex frontier: each improved vertex once, by the position its lookup holds.
extern "C" __global__ void sssp_frontier(const unsigned* ef, unsigned ne, unsigned* lookup, unsigned* vf, unsigned* nv) {
  unsigned pos = blockDim.x * blockIdx.x + threadIdx.x;
  if (pos >= ne) return;
  unsigned edge = ef[pos];
  if (lookup[edge] == pos) {
    lookup[edge] = INF;
    vf[atomicAdd(nv, 1u)] = edge;
  }
}

// Each frontier vertex takes its residual into its rank and pushes D * r / degree along its edges.
extern "C" __global__ void pr_expand(const unsigned* row, const unsigned* col, float* rank, float* residual,
                                     const unsigned* vf, unsigned nv, unsigned* ef, float* wf, unsigned* ne) {
  __shared__ unsigned scan[EXPAND_V], first[EXPAND_V];
  __shared__ float share[EXPAND_V];
  unsigned i = expand_vertex(nv), v = i < nv ? vf[i] : 0, degree = 0;
  if (i < nv) {
    float r = atomicExch(&residual[v], 0.0f);
    rank[v] += r;
    degree = r == 0.0f ? 0 : row[v + 1] - row[v];
    share[threadIdx.x] = degree ? D * r / degree : 0.0f;
    first[threadIdx.x] = row[v];
  }
  unsigned total, base = expand_scan(scan, degree, ne, &total);
  for (unsigned k = threadIdx.x; k < total; k += blockDim.x) {
    unsigned o = expand_owner(scan, k), e = first[o] + k - (o ? scan[o - 1] : 0);
    ef[base + k] = col[e];
    wf[base + k] = share[o];
  }
}

// Figure 11: with the IRU's add filter, duplicates arrive merged (their contributions summed) and
// the threads they freed do nothing.
extern "C" __global__ void pr_contract(const unsigned* ef, const float* wf, unsigned ne, float* residual) {
  unsigned pos = blockDim.x * blockIdx.x + threadIdx.x;
  if (pos < ne) {
    unsigned edge;
    float weight;
    bool active_thread = true;
#ifdef USE_IRU
    active_thread = load_iru(edge, weight);
#else
    edge = ef[pos];
    weight = wf[pos];
#endif
    if (active_thread) atomicAdd(&residual[edge], weight);  // irregular access (Fig. 14)
  }
}

// The next frontier: the vertices reached whose residual is at least eps, each once.
extern "C" __global__ void pr_frontier(const unsigned* ef, unsigned ne, const float* residual, unsigned* flag,
                                       unsigned* vf, unsigned* nv, float eps) {
  unsigned pos = blockDim.x * blockIdx.x + threadIdx.x;
  if (pos >= ne) return;
  unsigned v = ef[pos];
  if (residual[v] >= eps && atomicExch(&flag[v], 1u) == 0) vf[atomicAdd(nv, 1u)] = v;
}

extern "C" __global__ void pr_clear(const unsigned* vf, unsigned nv, unsigned* flag) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nv) flag[vf[i]] = 0;
}

// The contraction with the next frontier built in it (variants frontier_fused and iru_fused): the
// thread whose add takes a vertex's residual from below eps to at least eps pushes the vertex. A
// residual only grows during a contraction and every vertex outside the frontier starts it below
// eps (the expansion zeroed the frontier's), so each such vertex is pushed once — the set
// pr_frontier finds, without its second pass over the edge frontier (duplicates included) and its
// flags; threads the IRU merged out do nothing at all.
extern "C" __global__ void pr_contract_fused(const unsigned* ef, const float* wf, unsigned ne, float* residual,
                                             unsigned* vf, unsigned* nv, float eps) {
  unsigned pos = blockDim.x * blockIdx.x + threadIdx.x;
  if (pos < ne) {
    unsigned edge;
    float weight;
    bool active_thread = true;
#ifdef USE_IRU
    active_thread = load_iru(edge, weight);
#else
    edge = ef[pos];
    weight = wf[pos];
#endif
    if (!active_thread) return;
    float old = atomicAdd(&residual[edge], weight);  // irregular access (Fig. 14)
    if (old < eps && old + weight >= eps) vf[atomicAdd(nv, 1u)] = edge;
  }
}

// The next frontier from a pass over every vertex (variants frontier_vertices and iru_vertices), as
// a vertex-centric filter does: each vertex whose residual is at least eps, in vertex order — the
// set pr_frontier finds (a vertex outside the frontier starts a contraction below eps), in an order
// the contraction's does not decide.
extern "C" __global__ void pr_frontier_vertices(const float* residual, unsigned n, unsigned* vf, unsigned* nv, float eps) {
  unsigned v = blockDim.x * blockIdx.x + threadIdx.x;
  if (v < n && residual[v] >= eps) vf[atomicAdd(nv, 1u)] = v;
}
