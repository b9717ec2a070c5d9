// SPDX-License-Identifier: Apache-2.0
// The graph-memory thesis's kernels (seed 004 Table 4/9 [G L549-L566, L890-L912], chapter V):
// Harish and Narayanan's BFS, SSSP and STCON over frontier flag arrays, warp-centric BFS (BFS-WC,
// Hong et al.), data-driven BFS with a block queue in shared memory (BFS-DD, SHOC), Pannotia-style
// colouring (CLR), Luby's MIS, LonestarGPU's unrolled drelax (LS-BFS, LS-SSSP), Boruvka's MST
// (H-MST, LS-MST), chapter V's SSSP strategies and H-BFS edge loops (docs/workloads.md). Flags
// are bytes, as the originals' bool arrays.
#define INF 0xffffffffu

// H-BFS: each frontier vertex's thread visits its neighbours (Load-A: the edge, Load-B: its
// neighbour's visited flag [G L369-L371]).
extern "C" __global__ void hbfs_kernel(const unsigned* row, const unsigned* col, unsigned char* mask,
                                       unsigned char* updating, const unsigned char* visited, unsigned* cost, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
  for (unsigned i = row[v]; i < row[v + 1]; ++i) {
    unsigned id = col[i];
    if (!visited[id]) {
      cost[id] = cost[v] + 1;
      updating[id] = 1;
    }
  }
}

extern "C" __global__ void hbfs_kernel2(unsigned char* mask, unsigned char* updating, unsigned char* visited, int* over,
                                        unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !updating[v]) return;
  mask[v] = 1;
  visited[v] = 1;
  *over = 1;
  updating[v] = 0;
}

// H-SSSP: the neighbour's tentative cost lowered by an atomic (the thesis's H-SSSP has its
// dependent access as an atomic [G L646]).
extern "C" __global__ void hsssp_kernel1(const unsigned* row, const unsigned* col, const unsigned* w, unsigned char* mask,
                                         const unsigned* cost, unsigned* updating_cost, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
  for (unsigned i = row[v]; i < row[v + 1]; ++i) atomicMin(&updating_cost[col[i]], cost[v] + w[i]);
}

extern "C" __global__ void hsssp_kernel2(unsigned char* mask, unsigned* cost, unsigned* updating_cost, int* over, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  if (cost[v] > updating_cost[v]) {
    cost[v] = updating_cost[v];
    mask[v] = 1;
    *over = 1;
  }
  updating_cost[v] = cost[v];
}

// BFS-WC: warp w takes vertices 32w .. 32w+31 one after another; for each on the level, lane k
// visits its edges k, k+32, ... (coalesced edge reads) [G L1371-L1391].
extern "C" __global__ void bfs_wc(const unsigned* row, const unsigned* col, unsigned* level, unsigned cur, unsigned n,
                                  int* changed) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, first = t - lane;
  for (unsigned v = first; v < first + 32 && v < n; ++v) {
    if (level[v] != cur) continue;
    unsigned beg = row[v], len = row[v + 1] - beg;
    for (unsigned i = lane; i < len; i += 32) {
      unsigned id = col[beg + i];
      if (level[id] == INF) {
        level[id] = cur + 1;
        *changed = 1;
      }
    }
  }
}

// BFS-DD: a thread per frontier vertex; a newly reached vertex goes to the block's queue in
// shared memory (a shared atomic), or to the global queue when that is full; at the block's end
// the local queue is copied out with one global atomic [G L1435-L1437].
#define LOCAL_QUEUE 512
// A block's queue of new frontier vertices in shared memory, copied out to the global frontier
// with one atomic at the block's end (to the global queue directly once full). Every thread of
// the block calls start() and flush(). (bfs_dd below writes the same inline: kept as it was, so
// that its instructions, and the BFS-DD results measured with them, stand.)
struct BlockQueue {
  unsigned items[LOCAL_QUEUE], count, base;
  __device__ void start() {
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
  }
  __device__ void push(unsigned v, unsigned* out, unsigned* out_count) {
    unsigned slot = atomicAdd(&count, 1u);
    if (slot < LOCAL_QUEUE) items[slot] = v;
    else out[atomicAdd(out_count, 1u)] = v;
  }
  __device__ void flush(unsigned* out, unsigned* out_count) {
    __syncthreads();
    unsigned local = min(count, (unsigned)LOCAL_QUEUE);
    if (threadIdx.x == 0) base = atomicAdd(out_count, local);
    __syncthreads();
    for (unsigned k = threadIdx.x; k < local; k += blockDim.x) out[base + k] = items[k];
  }
};
extern "C" __global__ void bfs_dd(const unsigned* row, const unsigned* col, unsigned* level, const unsigned* in,
                                  unsigned in_count, unsigned* out, unsigned* out_count) {
  __shared__ unsigned queue[LOCAL_QUEUE];
  __shared__ unsigned count, base;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < in_count) {
    unsigned v = in[i], next = level[v] + 1;
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      unsigned u = col[e];
      if (atomicCAS(&level[u], INF, next) == INF) {
        unsigned slot = atomicAdd(&count, 1u);
        if (slot < LOCAL_QUEUE) queue[slot] = u;
        else out[atomicAdd(out_count, 1u)] = u;
      }
    }
  }
  __syncthreads();
  unsigned local = min(count, (unsigned)LOCAL_QUEUE);
  if (threadIdx.x == 0) base = atomicAdd(out_count, local);
  __syncthreads();
  for (unsigned k = threadIdx.x; k < local; k += blockDim.x) out[base + k] = queue[k];
}

// CLR: in round `color`, an uncoloured vertex whose priority beats every neighbour still
// uncoloured at the round's start takes the colour (ties by the larger id); one still short of
// it sets *more.
extern "C" __global__ void clr_kernel(const unsigned* row, const unsigned* col, const unsigned* priority, int* colors,
                                      int color, unsigned n, int* more) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || colors[v] != -1) return;
  bool maximum = true;
  unsigned p = priority[v];
  for (unsigned i = row[v]; i < row[v + 1]; ++i) {
    unsigned u = col[i];
    int c = colors[u];
    if (u == v || (c != -1 && c != color)) continue;  // coloured in an earlier round
    unsigned q = priority[u];
    if (q > p || (q == p && u > v)) {
      maximum = false;
      break;
    }
  }
  if (maximum) colors[v] = color;
  else *more = 1;
}

// MIS (Luby): an undecided vertex whose priority is below every undecided neighbour's joins the
// set (state 1); then every undecided neighbour of a member leaves (state 0). 2: undecided.
extern "C" __global__ void mis_select(const unsigned* row, const unsigned* col, const unsigned* priority, int* state,
                                      unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || state[v] != 2) return;
  unsigned p = priority[v];
  for (unsigned i = row[v]; i < row[v + 1]; ++i) {
    unsigned u = col[i];
    if (u == v || (state[u] != 2 && state[u] != 3)) continue;  // 3: undecided at the round's start
    unsigned q = priority[u];
    if (q < p || (q == p && u < v)) return;
  }
  state[v] = 3;  // joins this round; the next kernel makes it a member
}

extern "C" __global__ void mis_remove(const unsigned* row, const unsigned* col, int* state, unsigned n, int* more) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || state[v] != 2) return;
  for (unsigned i = row[v]; i < row[v + 1]; ++i)
    if (state[col[i]] == 3) {
      state[v] = 0;
      return;
    }
  *more = 1;
}

extern "C" __global__ void mis_commit(int* state, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && state[v] == 3) state[v] = 1;
}

// STCON (Harish): breadth-first searches from s and from t at once, each vertex coloured by the
// side that reached it (1: s, 2: t); a frontier vertex finding a neighbour of the other colour
// has joined them. On an undirected graph every edge between the two sides is seen by whichever
// end is expanded later, so `found` is set exactly when s and t are connected.
extern "C" __global__ void stcon_kernel(const unsigned* row, const unsigned* col, unsigned char* mask,
                                        unsigned char* updating, unsigned char* colour, int* found, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
  unsigned char c = colour[v];
  for (unsigned i = row[v]; i < row[v + 1]; ++i) {
    unsigned id = col[i];
    unsigned char other = colour[id];
    if (!other) {
      colour[id] = c;
      updating[id] = 1;
    } else if (other != c) {
      *found = 1;
    }
  }
}

extern "C" __global__ void stcon_kernel2(unsigned char* mask, unsigned char* updating, int* over, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !updating[v]) return;
  mask[v] = 1;
  *over = 1;
  updating[v] = 0;
}

// LS-BFS / LS-SSSP (LonestarGPU's drelax with kernel unrolling [G L1395-L1418]): a thread per
// vertex, every vertex expanded in every launch; a neighbour whose distance the thread lowered
// goes on the thread's queue in shared memory while fewer than LS_LIMIT have, so one launch runs
// several levels. Launches repeat until one lowers nothing. LS_LIMIT: 48 KB of shared memory
// over the 1,024 threads an SM holds at 32 registers (the thesis's Table 4), 12 entries a thread.
#define LS_LIMIT 12
#define LS_BLOCK 256
template <bool Weighted>
__device__ void ls_drelax(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist, unsigned n,
                          int* changed) {
  __shared__ unsigned queue[LS_LIMIT * LS_BLOCK];
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned* q = queue + threadIdx.x;  // entry k at q[k * LS_BLOCK]: a warp's lanes in 32 banks
  q[0] = v;
  unsigned head = 0, tail = 1;
  bool lowered = false;
  while (head < tail) {
    unsigned u = q[head++ * LS_BLOCK], du = dist[u];
    if (du == INF) continue;
    for (unsigned e = row[u]; e < row[u + 1]; ++e) {
      unsigned x = col[e], alt = du + (Weighted ? w[e] : 1u);
      if (alt < dist[x] && atomicMin(&dist[x], alt) > alt) {
        lowered = true;
        if (tail < LS_LIMIT) q[tail++ * LS_BLOCK] = x;
      }
    }
  }
  if (lowered) *changed = 1;
}

extern "C" __global__ void ls_bfs_drelax(const unsigned* row, const unsigned* col, unsigned* dist, unsigned n, int* changed) {
  ls_drelax<false>(row, col, nullptr, dist, n, changed);
}

extern "C" __global__ void ls_sssp_drelax(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                          unsigned n, int* changed) {
  ls_drelax<true>(row, col, w, dist, n, changed);
}

// MST by Boruvka's rounds on the undirected input. An edge's key is (weight << 32 | its
// undirected id), the same from both ends, so every component's lightest edge is unique and the
// tree is Kruskal's under the same order. ends[2i], ends[2i+1]: undirected edge i's endpoints.
#define NO_EDGE 0xffffffffffffffffull

// H-MST (Harish, Vineet and Narayanan; the thesis's "Find_Min_Edge_Weight"): a colour per vertex
// names its component; each vertex offers its lightest edge to another colour to its colour's
// minimum (Load-A: the edge, Load-B: the neighbour's colour).
extern "C" __global__ void hmst_find_min(const unsigned* row, const unsigned* col, const unsigned* w, const unsigned* eid,
                                         const unsigned* colour, unsigned long long* cmin, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned c = colour[v];
  unsigned long long best = NO_EDGE;
  for (unsigned e = row[v]; e < row[v + 1]; ++e)
    if (colour[col[e]] != c) {
      unsigned long long key = (unsigned long long)w[e] << 32 | eid[e];
      if (key < best) best = key;
    }
  if (best != NO_EDGE && best < cmin[c]) atomicMin(&cmin[c], best);
}

// A component's root takes its lightest edge and links under the other end's component; of two
// components that chose the same edge, the lower stays a root. next[] holds the links.
extern "C" __global__ void hmst_link(const unsigned* ends, const unsigned* colour, const unsigned long long* cmin,
                                     unsigned* next, unsigned char* in_tree, unsigned n, int* linked) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || colour[c] != c || cmin[c] == NO_EDGE) return;
  unsigned e = (unsigned)cmin[c], a = colour[ends[2 * e]], b = colour[ends[2 * e + 1]];
  unsigned other = a == c ? b : a;
  if (cmin[other] == cmin[c] && c < other) return;
  next[c] = other;
  in_tree[e] = 1;
  *linked = 1;
}

// Every vertex follows the links from its colour to the new root; the minima are reset.
extern "C" __global__ void hmst_recolour(unsigned* colour, const unsigned* next, unsigned long long* cmin, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned c = colour[v];
  while (next[c] != c) c = next[c];
  colour[v] = c;
  cmin[v] = NO_EDGE;
}

// LS-MST (LonestarGPU's Boruvka, the thesis's "boruvkaone"): components as a union-find forest
// (comp[] parent links, a root its own parent). Each vertex finds its lightest edge to another
// component, testing the weight first (Load-A) and chasing the neighbour's links only for a
// lighter one (Load-B), and offers it to its component's root.
__device__ unsigned ls_find(const unsigned* comp, unsigned v) {
  while (comp[v] != v) v = comp[v];
  return v;
}

extern "C" __global__ void lsmst_find_min(const unsigned* row, const unsigned* col, const unsigned* w, const unsigned* eid,
                                          const unsigned* comp, unsigned long long* cmin, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned boss = ls_find(comp, v);
  unsigned long long best = NO_EDGE;
  for (unsigned e = row[v]; e < row[v + 1]; ++e) {
    unsigned wt = w[e];
    if (wt > (unsigned)(best >> 32)) continue;
    if (ls_find(comp, col[e]) != boss) {
      unsigned long long key = (unsigned long long)wt << 32 | eid[e];
      if (key < best) best = key;
    }
  }
  if (best != NO_EDGE && best < cmin[boss]) atomicMin(&cmin[boss], best);
}

// Each root with an edge learns the root at its far end (comp[] unchanged during this kernel)...
extern "C" __global__ void lsmst_partner(const unsigned* ends, const unsigned* comp, const unsigned long long* cmin,
                                         unsigned* partner, unsigned n) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c || cmin[c] == NO_EDGE) return;
  unsigned e = (unsigned)cmin[c], a = ls_find(comp, ends[2 * e]), b = ls_find(comp, ends[2 * e + 1]);
  partner[c] = a == c ? b : a;
}

// ... then links under it (of two that chose the same edge, the lower stays a root).
extern "C" __global__ void lsmst_link(unsigned* comp, const unsigned long long* cmin, const unsigned* partner,
                                      unsigned char* in_tree, unsigned n, int* linked) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || comp[c] != c || cmin[c] == NO_EDGE) return;
  unsigned other = partner[c];
  if (cmin[other] == cmin[c] && c < other) return;
  comp[c] = other;
  in_tree[(unsigned)cmin[c]] = 1;
  *linked = 1;
}

// Paths compressed to the roots (roots do not change here), the minima reset.
extern "C" __global__ void lsmst_compress(unsigned* comp, unsigned long long* cmin, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  comp[v] = ls_find(comp, v);
  cmin[v] = NO_EDGE;
}

// Chapter V's software prefetching and unrolling of H-BFS's edge loop (seed 004 section 5.5,
// Figures 75-78 [G L1616-L1693]); hbfs_kernel is their Base. Each variant visits the same
// neighbours with the same flag reads (visited is written only by hbfs_kernel2), so results are
// Base's. `#pragma unroll 1`: the loops stay as written (nvcc does not unroll Base's either).
__device__ __forceinline__ void hbfs_visit(unsigned id, unsigned char seen, unsigned next, unsigned* cost,
                                           unsigned char* updating) {
  if (!seen) {
    cost[id] = next;
    updating[id] = 1;
  }
}

// The frontier test shared by every variant: v's edges [*start, *end) when v is on the frontier.
__device__ __forceinline__ bool hbfs_frontier(const unsigned* row, unsigned char* mask, unsigned n, unsigned* v,
                                              unsigned* start, unsigned* end) {
  *v = blockIdx.x * blockDim.x + threadIdx.x;
  if (*v >= n || !mask[*v]) return false;
  mask[*v] = 0;
  *start = row[*v];
  *end = row[*v + 1];
  return true;
}

// SWP (Figure 76): the next neighbour's id and visited flag loaded into registers an iteration
// ahead, the first before the loop, under an in-loop bound check; SWPNC (Figure 77): the same
// without the check, the loop one short and the last neighbour after it.
template <bool Check>
__device__ void hbfs_prefetch(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                              const unsigned char* visited, unsigned* cost, unsigned n) {
  unsigned v, start, end;
  if (!hbfs_frontier(row, mask, n, &v, &start, &end) || start >= end) return;
  unsigned next = cost[v] + 1, id = col[start];
  unsigned char seen = visited[id];
#pragma unroll 1
  for (unsigned i = start; i < (Check ? end : end - 1); ++i) {
    unsigned cur = id;
    unsigned char cur_seen = seen;
    if (!Check || i < end - 1) {
      id = col[i + 1];
      seen = visited[id];
    }
    hbfs_visit(cur, cur_seen, next, cost, updating);
  }
  if (!Check) hbfs_visit(id, seen, next, cost, updating);
}

extern "C" __global__ void hbfs_swp(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                                    const unsigned char* visited, unsigned* cost, unsigned n) {
  hbfs_prefetch<true>(row, col, mask, updating, visited, cost, n);
}

extern "C" __global__ void hbfs_swpnc(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                                      const unsigned char* visited, unsigned* cost, unsigned n) {
  hbfs_prefetch<false>(row, col, mask, updating, visited, cost, n);
}

// UNR2 / UNR3 (Figure 78): K edges an iteration, their ids loaded, then their flags, then
// visited; the remainder one at a time after the loop.
template <unsigned K>
__device__ void hbfs_unrolled(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                              const unsigned char* visited, unsigned* cost, unsigned n) {
  unsigned v, start, end;
  if (!hbfs_frontier(row, mask, n, &v, &start, &end)) return;
  unsigned next = cost[v] + 1, unroll_end = start + (end - start) / K * K, i = start;
#pragma unroll 1
  for (; i < unroll_end; i += K) {
    unsigned id[K];
    unsigned char seen[K];
#pragma unroll
    for (unsigned k = 0; k < K; ++k) id[k] = col[i + k];
#pragma unroll
    for (unsigned k = 0; k < K; ++k) seen[k] = visited[id[k]];
#pragma unroll
    for (unsigned k = 0; k < K; ++k) hbfs_visit(id[k], seen[k], next, cost, updating);
  }
#pragma unroll 1
  for (; i < end; ++i) {
    unsigned id = col[i];
    hbfs_visit(id, visited[id], next, cost, updating);
  }
}

extern "C" __global__ void hbfs_unr2(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                                     const unsigned char* visited, unsigned* cost, unsigned n) {
  hbfs_unrolled<2>(row, col, mask, updating, visited, cost, n);
}

extern "C" __global__ void hbfs_unr3(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                                     const unsigned char* visited, unsigned* cost, unsigned n) {
  hbfs_unrolled<3>(row, col, mask, updating, visited, cost, n);
}

// UNR2_SWP / UNR2_SWPNC: unrolled by two, the next pair prefetched an iteration ahead (with the
// bound check, or without it and the last pair after the loop); the odd edge after both.
template <bool Check>
__device__ void hbfs_unr2_prefetch(const unsigned* row, const unsigned* col, unsigned char* mask, unsigned char* updating,
                                   const unsigned char* visited, unsigned* cost, unsigned n) {
  unsigned v, start, end;
  if (!hbfs_frontier(row, mask, n, &v, &start, &end)) return;
  unsigned next = cost[v] + 1, unroll_end = start + (end - start) / 2 * 2;
  if (unroll_end > start) {
    unsigned id0 = col[start], id1 = col[start + 1];
    unsigned char s0 = visited[id0], s1 = visited[id1];
    unsigned last = Check ? unroll_end : unroll_end - 2;
#pragma unroll 1
    for (unsigned i = start; i < last; i += 2) {
      unsigned c0 = id0, c1 = id1;
      unsigned char cs0 = s0, cs1 = s1;
      if (!Check || i + 2 < unroll_end) {
        id0 = col[i + 2];
        id1 = col[i + 3];
        s0 = visited[id0];
        s1 = visited[id1];
      }
      hbfs_visit(c0, cs0, next, cost, updating);
      hbfs_visit(c1, cs1, next, cost, updating);
    }
    if (!Check) {
      hbfs_visit(id0, s0, next, cost, updating);
      hbfs_visit(id1, s1, next, cost, updating);
    }
  }
  if (unroll_end < end) {
    unsigned id = col[unroll_end];
    hbfs_visit(id, visited[id], next, cost, updating);
  }
}

extern "C" __global__ void hbfs_unr2_swp(const unsigned* row, const unsigned* col, unsigned char* mask,
                                         unsigned char* updating, const unsigned char* visited, unsigned* cost, unsigned n) {
  hbfs_unr2_prefetch<true>(row, col, mask, updating, visited, cost, n);
}

extern "C" __global__ void hbfs_unr2_swpnc(const unsigned* row, const unsigned* col, unsigned char* mask,
                                           unsigned char* updating, const unsigned char* visited, unsigned* cost, unsigned n) {
  hbfs_unr2_prefetch<false>(row, col, mask, updating, visited, cost, n);
}

// Chapter V's CLR strategies beside the topology-driven clr_kernel (the thesis wrote all three
// [G L1462]). A neighbour u keeps v from this round's colour when it was uncoloured at the round's
// start (coloured this round counts as uncoloured) and its priority is higher (ties to the larger
// id): the same rule as clr_kernel's, so every strategy colours alike. (clr_kernel keeps its own
// copy of the rule: written through this helper, nvcc emits other instructions for it, and the
// study's CLR results are its.)
__device__ __forceinline__ bool clr_beaten(unsigned v, unsigned p, unsigned u, const unsigned* priority, const int* colors,
                                           int color) {
  int c = colors[u];
  if (u == v || (c != -1 && c != color)) return false;
  unsigned q = priority[u];
  return q > p || (q == p && u > v);
}

// Warp-centric: a warp per 32 vertices, its lanes over each uncoloured one's neighbours 32 at a
// time, the warp stopping at the first 32 in which some lane found v beaten.
extern "C" __global__ void clr_wc(const unsigned* row, const unsigned* col, const unsigned* priority, int* colors,
                                  int color, unsigned n, int* more) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, first = t - lane;
  for (unsigned v = first; v < first + 32 && v < n; ++v) {
    if (colors[v] != -1) continue;
    unsigned beg = row[v], len = row[v + 1] - beg, p = priority[v];
    bool beaten = false;
    for (unsigned base = 0; base < len && !beaten; base += 32) {
      unsigned i = base + lane;
      beaten = __any_sync(0xffffffffu, i < len && clr_beaten(v, p, col[beg + i], priority, colors, color));
    }
    if (lane == 0) {
      if (beaten) *more = 1;
      else colors[v] = color;
    }
    __syncwarp();
  }
}

// Data-driven: a thread per vertex still uncoloured; one beaten this round joins the next round's
// list through the block's queue in shared memory.
extern "C" __global__ void clr_dd(const unsigned* row, const unsigned* col, const unsigned* priority, int* colors,
                                  int color, const unsigned* in, unsigned in_count, unsigned* out, unsigned* out_count) {
  __shared__ BlockQueue q;
  q.start();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < in_count) {
    unsigned v = in[i], p = priority[v];
    bool beaten = false;
    for (unsigned e = row[v]; e < row[v + 1] && !beaten; ++e) beaten = clr_beaten(v, p, col[e], priority, colors, color);
    if (beaten) q.push(v, out, out_count);
    else colors[v] = color;
  }
  q.flush(out, out_count);
}

// Figure 75's loop as the edge loops above have it: the edge range and the new cost computed once,
// in registers. hbfs_kernel reloads row[v + 1] (its loop bound) and cost[v] after every store,
// since the stores to cost may alias them.
extern "C" __global__ void hbfs_hoisted(const unsigned* row, const unsigned* col, unsigned char* mask,
                                        unsigned char* updating, const unsigned char* visited, unsigned* cost, unsigned n) {
  unsigned v, start, end;
  if (!hbfs_frontier(row, mask, n, &v, &start, &end)) return;
  const unsigned next = cost[v] + 1;
#pragma unroll 1
  for (unsigned i = start; i < end; ++i) {
    const unsigned id = col[i];
    hbfs_visit(id, visited[id], next, cost, updating);
  }
}

// Chapter V's SSSP strategies beside H-SSSP (topology-driven, seed 004 section 5.2 [G L1460]):
// warp-centric, H-SSSP's relaxation with a warp per 32 vertices (its lanes over each frontier
// vertex's edges, as BFS-WC), settled by hsssp_kernel2...
extern "C" __global__ void sssp_wc(const unsigned* row, const unsigned* col, const unsigned* w, unsigned char* mask,
                                   const unsigned* cost, unsigned* updating_cost, unsigned n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, first = t - lane;
  for (unsigned v = first; v < first + 32 && v < n; ++v) {
    if (!mask[v]) continue;
    unsigned beg = row[v], len = row[v + 1] - beg, cv = cost[v];
    for (unsigned i = lane; i < len; i += 32) atomicMin(&updating_cost[col[beg + i]], cv + w[beg + i]);
  }
  __syncwarp();
  if (t < n) mask[t] = 0;  // each lane clears its own vertex once the warp is past it
}

// ... and data-driven, as BFS-DD: a thread per frontier vertex; a neighbour it lowers joins the
// next frontier once a round (queued[] holds the round it last joined), through the block's
// queue in shared memory.
extern "C" __global__ void sssp_dd(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                   unsigned* queued, unsigned round, const unsigned* in, unsigned in_count, unsigned* out,
                                   unsigned* out_count) {
  __shared__ BlockQueue q;
  q.start();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < in_count) {
    unsigned v = in[i], dv = dist[v];
    for (unsigned e = row[v]; e < row[v + 1]; ++e) {
      unsigned u = col[e], alt = dv + w[e];
      if (alt < dist[u] && atomicMin(&dist[u], alt) > alt && atomicExch(&queued[u], round) != round) q.push(u, out, out_count);
    }
  }
  q.flush(out, out_count);
}

// Spare-register prefetching's kernels (SPREF, seed 004 chapter III): H-BFS, H-SSSP and LS-BFS with
// their arrays `__restrict__`, so that nvcc gives the loads of the arrays the kernel only reads
// ld.global.nc — the "special load opcode" of `const __restrict` arrays whose loads alone SPREF
// may prefetch into registers [G L427, L437]. Otherwise as hbfs_kernel, hsssp_kernel1 and
// ls_bfs_drelax (whose loop bounds the restrict lets nvcc keep in registers); not unrolled, so
// that each edge loop has one load pair an iteration, as the thesis's loops [G L718-L742].
extern "C" __global__ void hbfs_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                         unsigned char* __restrict__ mask, unsigned char* __restrict__ updating,
                                         const unsigned char* __restrict__ visited, unsigned* __restrict__ cost, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
#pragma unroll 1
  for (unsigned i = row[v]; i < row[v + 1]; ++i) {
    unsigned id = col[i];
    if (!visited[id]) {
      cost[id] = cost[v] + 1;
      updating[id] = 1;
    }
  }
}

extern "C" __global__ void hsssp_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                          const unsigned* __restrict__ w, unsigned char* __restrict__ mask,
                                          const unsigned* __restrict__ cost, unsigned* __restrict__ updating_cost, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
#pragma unroll 1
  for (unsigned i = row[v]; i < row[v + 1]; ++i) atomicMin(&updating_cost[col[i]], cost[v] + w[i]);
}

template <bool Weighted>
__device__ void ls_drelax_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                   const unsigned* __restrict__ w, unsigned* __restrict__ dist, unsigned n,
                                   int* __restrict__ changed) {
  __shared__ unsigned queue[LS_LIMIT * LS_BLOCK];
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned* q = queue + threadIdx.x;
  q[0] = v;
  unsigned head = 0, tail = 1;
  bool lowered = false;
  while (head < tail) {
    unsigned u = q[head++ * LS_BLOCK], du = dist[u];
    if (du == INF) continue;
#pragma unroll 1
    for (unsigned e = row[u]; e < row[u + 1]; ++e) {
      unsigned x = col[e], alt = du + (Weighted ? w[e] : 1u);
      if (alt < dist[x] && atomicMin(&dist[x], alt) > alt) {
        lowered = true;
        if (tail < LS_LIMIT) q[tail++ * LS_BLOCK] = x;
      }
    }
  }
  if (lowered) *changed = 1;
}

extern "C" __global__ void ls_bfs_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                           unsigned* __restrict__ dist, unsigned n, int* __restrict__ changed) {
  ls_drelax_restrict<false>(row, col, nullptr, dist, n, changed);
}

// ... and LS-SSSP, STCON, H-MST and LS-MST the same way (STCON writes colour[] in its loop and
// LS-SSSP dist[] by atomics: those stay ordinary loads, their edge loads heads alone [G L646]).
extern "C" __global__ void ls_sssp_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                            const unsigned* __restrict__ w, unsigned* __restrict__ dist, unsigned n,
                                            int* __restrict__ changed) {
  ls_drelax_restrict<true>(row, col, w, dist, n, changed);
}

extern "C" __global__ void stcon_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                          unsigned char* __restrict__ mask, unsigned char* __restrict__ updating,
                                          unsigned char* __restrict__ colour, int* __restrict__ found, unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !mask[v]) return;
  mask[v] = 0;
  unsigned char c = colour[v];
#pragma unroll 1
  for (unsigned i = row[v]; i < row[v + 1]; ++i) {
    unsigned id = col[i];
    unsigned char other = colour[id];
    if (!other) {
      colour[id] = c;
      updating[id] = 1;
    } else if (other != c) {
      *found = 1;
    }
  }
}

extern "C" __global__ void hmst_find_min_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                                  const unsigned* __restrict__ w, const unsigned* __restrict__ eid,
                                                  const unsigned* __restrict__ colour, unsigned long long* __restrict__ cmin,
                                                  unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned c = colour[v];
  unsigned long long best = NO_EDGE;
#pragma unroll 1
  for (unsigned e = row[v]; e < row[v + 1]; ++e)
    if (colour[col[e]] != c) {
      unsigned long long key = (unsigned long long)w[e] << 32 | eid[e];
      if (key < best) best = key;
    }
  if (best != NO_EDGE && best < cmin[c]) atomicMin(&cmin[c], best);
}

extern "C" __global__ void lsmst_find_min_restrict(const unsigned* __restrict__ row, const unsigned* __restrict__ col,
                                                   const unsigned* __restrict__ w, const unsigned* __restrict__ eid,
                                                   const unsigned* __restrict__ comp, unsigned long long* __restrict__ cmin,
                                                   unsigned n) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  unsigned boss = ls_find(comp, v);
  unsigned long long best = NO_EDGE;
#pragma unroll 1
  for (unsigned e = row[v]; e < row[v + 1]; ++e) {
    unsigned wt = w[e];
    if (wt > (unsigned)(best >> 32)) continue;
    if (ls_find(comp, col[e]) != boss) {
      unsigned long long key = (unsigned long long)wt << 32 | eid[e];
      if (key < best) best = key;
    }
  }
  if (best != NO_EDGE && best < cmin[boss]) atomicMin(&cmin[boss], best);
}
