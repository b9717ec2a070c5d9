// SPDX-License-Identifier: Apache-2.0
// The graph-memory thesis's kernels (seed 004 Table 4/9 [G L549-L566, L890-L912]; docs/workloads.md):
// Harish and Narayanan's BFS (Kernel, Kernel2) and SSSP (DijkstraKernel1, 2) over frontier flag
// arrays, warp-centric BFS (BFS-WC, Hong et al.: a warp per 32 vertices, its lanes over each
// one's edges), data-driven BFS with a block queue in shared memory (BFS-DD, SHOC), and
// Pannotia-style graph colouring (CLR) and Luby's maximal independent set (MIS) with random
// priorities. Flags are bytes, as the originals' bool arrays.
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
