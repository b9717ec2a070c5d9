// SPDX-License-Identifier: Apache-2.0
// SSSP with a decoupled worklist (ADDS, seed 001 chapter 5; docs/workloads.md "ADDS") and the
// near-far baseline it is compared with (two buckets, super-steps).
//
// ADDS is one launch: block 0 is the manager thread block (MTB), every other block a worker
// (WTB). Workers push vertex ids into 32 buckets, circular FIFOs whose slots a writer reserves
// with one atomic and whose write-finished counters (WFC, one a segment of 256 slots) say when
// a run of slots is readable (§4.3); they never read the buckets' metadata. The MTB's probe
// warps (one a concurrent dequeue bucket, CDB) find readable runs, its assign warp hands them to
// idle workers through each worker's 64-bit assignment flag (AF), and the head's probe warp
// switches buckets and adapts the CDB count and delta (§4.4, §4.6). Both SSSPs relax a vertex's
// edges the same way (relax_chunk), so they differ only in how work is ordered and handed out.

#define INF 0xffffffffu
#define BUCKETS 32u
#define SEG 256u                          // slots a write-finished counter covers (N, §4.3)
#define TERM 0xffffffffffffull            // the termination command an AF carries (§4.4)
#define MAX_ASSIGN 1024u                  // vertex ids an assignment carries at most (1K, §4.3)
#define WARPS 8u                          // warps a block (256 threads)

// ---- Relaxation, shared by both ------------------------------------------------------------------

// Where a tentative distance goes: the bucket `nd >> shift` names, counted from the head bucket
// (global number h, physical slot hp) and clipped to the 31 after it; one below the head goes to
// the head.
__device__ __forceinline__ unsigned bucket_of(unsigned nd, unsigned long long head) {
  const unsigned h = (unsigned)head, hp = (unsigned)(head >> 32) & 31u, shift = (unsigned)(head >> 40) & 31u;
  const unsigned g = nd >> shift;
  return (hp + (g <= h ? 0u : min(g - h, BUCKETS - 1))) & 31u;
}

// A warp relaxes the edges of its `count` <= 32 vertices (lane i holds vertex v when i < count)
// together: a warp scan of their degrees, then 32 edges an iteration, each lane finding its
// edge's vertex by binary search over the scan, so a hub does not serialise on one lane. Each
// round the whole warp calls push(lowered, u, nd): `lowered` for the lanes whose edge lowered
// neighbour u's distance to nd.
template <typename Push>
__device__ void relax_chunk(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist, unsigned v,
                            unsigned count, Push push) {
  const unsigned lane = threadIdx.x % 32;
  const bool mine = lane < count;
  const unsigned first = mine ? row[v] : 0, degree = mine ? row[v + 1] - first : 0;
  const unsigned d = mine ? ((volatile unsigned*)dist)[v] : 0;
  unsigned scan = degree;
  for (unsigned off = 1; off < 32; off <<= 1) {
    const unsigned add = __shfl_up_sync(0xffffffffu, scan, off);
    if (lane >= off) scan += add;
  }
  const unsigned total = __shfl_sync(0xffffffffu, scan, 31);
  for (unsigned base = 0; base < total; base += 32) {
    const unsigned k = base + lane;
    unsigned lo = 0;  // the first vertex whose inclusive scan exceeds k
    for (unsigned step = 16; step; step >>= 1)
      if (__shfl_sync(0xffffffffu, scan, lo + step - 1) <= k) lo += step;
    const unsigned before = __shfl_sync(0xffffffffu, scan, lo ? lo - 1 : 0), e = __shfl_sync(0xffffffffu, first, lo) + k -
                                                                                  (lo ? before : 0);
    const unsigned dv = __shfl_sync(0xffffffffu, d, lo);
    bool lowered = false;
    unsigned u = 0, nd = 0;
    if (k < total) {
      u = col[e];
      nd = dv + w[e];
      lowered = nd < ((volatile unsigned*)dist)[u] && atomicMin(&dist[u], nd) > nd;
    }
    push(lowered, u, nd);
  }
}

// ---- ADDS ----------------------------------------------------------------------------------------

// The buckets' metadata in global memory, zeroed by the host: per bucket its reservation pointer,
// its done-work counter and the WFCs of its segments; then run-wide counters.
struct Buckets {
  unsigned* items;       // [BUCKETS << cap_log2] vertex ids
  unsigned* resv;        // [BUCKETS]
  unsigned* dwc;         // [BUCKETS]
  unsigned* wfc;         // [BUCKETS << (cap_log2 - 8)]
  unsigned* stats;       // [0] overflow, [1] vertices processed, [2] pushes, [3] delta changes, [4] final shift
  unsigned long long* head;  // h | hp << 32 | shift << 40, written by the head's probe warp
  unsigned cap_log2;         // slots a bucket: 1 << cap_log2
  unsigned slack;            // slots kept free for assigned work not yet read
};

__device__ Buckets buckets(unsigned* items, unsigned* meta, unsigned long long* head, unsigned cap_log2, unsigned slack) {
  Buckets b;
  b.items = items;
  b.resv = meta;
  b.dwc = meta + BUCKETS;
  b.wfc = meta + 2 * BUCKETS;
  b.stats = b.wfc + (BUCKETS << (cap_log2 - 8));
  b.head = head;
  b.cap_log2 = cap_log2;
  b.slack = slack;
  return b;
}

// §4.3's writer: reserve a slot, write the id, fence, count the write in the slot's segment. A
// slot still held by work not yet done (the bucket a lap ahead) sets the overflow flag: the host
// then fails the run rather than return distances that may be wrong.
__device__ void bucket_push(const Buckets& B, unsigned u, unsigned nd) {
  const unsigned b = bucket_of(nd, *(volatile unsigned long long*)B.head);
  const unsigned x = atomicAdd(&B.resv[b], 1u), mask = (1u << B.cap_log2) - 1;
  if (x - ((volatile unsigned*)B.dwc)[b] > mask - B.slack) atomicOr(&B.stats[0], 1u);
  B.items[(b << B.cap_log2) + (x & mask)] = u;
  __threadfence();
  atomicAdd(&B.wfc[(b << (B.cap_log2 - 8)) + ((x >> 8) & (mask >> 8))], 1u);
}

// An AF: start (32 bits), size (11), bucket (5), grain_shift (3).
__device__ __forceinline__ unsigned long long af_word(unsigned start, unsigned size, unsigned b, unsigned grain) {
  return start | (unsigned long long)size << 32 | (unsigned long long)b << 43 | (unsigned long long)grain << 48;
}

// A worker block: its warps take 1 << grain_shift ids at a time from the block's copy of its AF
// (two slots: the next assignment is copied in while the last one's warps finish), under a
// scratchpad lock; the last warp of an assignment adds its size to the bucket's DWC.
__device__ void worker(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist, const Buckets& B,
                       volatile unsigned long long* af, unsigned backoff_ns) {
  __shared__ unsigned s_start[2], s_size[2], s_taken[2], s_done[2], s_bucket[2], s_grain[2];
  __shared__ unsigned s_cur, s_lock, s_term, s_work;
  const unsigned lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 2; ++i) s_size[i] = s_taken[i] = s_done[i] = 0;
    s_cur = s_lock = s_term = s_work = 0;
  }
  __syncthreads();
  volatile unsigned* vs_size = s_size;
  volatile unsigned* vs_done = s_done;
  const unsigned mask = (1u << B.cap_log2) - 1;
  for (;;) {
    unsigned slot = 0, t = 0, count = 0;
    if (lane == 0 && atomicCAS(&s_lock, 0u, 1u) == 0) {  // one try: a warp that finds it taken backs off
      unsigned cur = *(volatile unsigned*)&s_cur;
      if (s_taken[cur] >= vs_size[cur]) {  // drained: copy the next assignment in when its slot is free
        const unsigned next = cur ^ 1;
        if (vs_done[next] == vs_size[next]) {
          const unsigned long long a = af[blockIdx.x - 1];
          if (a == TERM) {
            *(volatile unsigned*)&s_term = 1;
          } else if (a) {
            s_start[next] = (unsigned)a;
            s_bucket[next] = (unsigned)(a >> 43) & 31u;
            s_grain[next] = (unsigned)(a >> 48) & 7u;
            s_taken[next] = 0;
            vs_done[next] = 0;
            vs_size[next] = (unsigned)(a >> 32) & 0x7ffu;
            *(volatile unsigned*)&s_cur = cur = next;
            af[blockIdx.x - 1] = 0;
          }
        }
      }
      if (s_taken[cur] < vs_size[cur]) {
        slot = cur;
        t = s_taken[cur];
        count = min(1u << s_grain[cur], vs_size[cur] - t);
        s_taken[cur] = t + count;
      }
      __threadfence_block();
      atomicExch(&s_lock, 0u);
    }
    count = __shfl_sync(0xffffffffu, count, 0);
    if (!count) {
      if (*(volatile unsigned*)&s_term) break;
      if (backoff_ns) __nanosleep(backoff_ns);  // nothing to take: leave the issue slots to others a while
      continue;
    }
    slot = __shfl_sync(0xffffffffu, slot, 0);
    t = __shfl_sync(0xffffffffu, t, 0);
    const unsigned b = s_bucket[slot], size = vs_size[slot];
    const unsigned v = lane < count ? ((volatile unsigned*)B.items)[(b << B.cap_log2) + ((s_start[slot] + t + lane) & mask)] : 0;
    relax_chunk(row, col, w, dist, v, count, [&](bool lowered, unsigned u, unsigned nd) {
      if (lowered) bucket_push(B, u, nd);
    });
    __threadfence();  // the pushes are in memory before the DWC counts this work done
    if (lane == 0) {
      atomicAdd(&s_work, count);
      if (atomicAdd(&s_done[slot], count) + count == size) atomicAdd(&B.dwc[b], size);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&B.stats[1], s_work);
}

// The MTB's scratchpad: the head (global bucket number h, physical slot hp, delta = 1 << shift),
// the CDB count, per bucket how far its slots are probed readable and assigned, and what the
// assign warp measures for the head's probe warp.
struct Manager {
  unsigned h, hp, shift, min_shift, cdbs, term, activity, idle_switches;
  unsigned read[BUCKETS], assigned[BUCKETS], snapshot[BUCKETS];
  unsigned since_change, tail;
  unsigned long long assigned_total;
  float util_sum, util_samples, util_history[4];
};

struct Tuning {
  unsigned workers, grain_min, clip_min;  // worker blocks; log2 of the smallest per-warp chunk; pushes an epoch needs for clip detection
  float avg_degree, util_low, util_high, clip_share;
};

// The head's probe warp at a bucket switch: an epoch ends. Adjust the CDB count first on this
// epoch's utilisation; change delta only with the CDB count at a bound, on the average of the
// last four epochs, or when the tail bucket took more than clip_share of the epoch's pushes
// (delta clipped: grow it, and never go back below); wait three switches after a change (§4.6).
__device__ void epoch(volatile Manager& m, const Buckets& B, const Tuning& k) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned r = ((volatile unsigned*)B.resv)[lane], pushed = r - m.snapshot[lane];
  unsigned total = pushed, tail_pushed = __shfl_sync(0xffffffffu, pushed, m.tail);
  for (unsigned off = 16; off; off >>= 1) total += __shfl_xor_sync(0xffffffffu, total, off);
  __syncwarp();
  m.snapshot[lane] = r;
  __syncwarp();
  if (lane) return;
  const float util = m.util_samples > 0 ? m.util_sum / m.util_samples : 0.f;
  m.util_sum = m.util_samples = 0;
  float avg = util;
  for (int i = 3; i > 0; --i) {
    m.util_history[i] = m.util_history[i - 1];
    avg += m.util_history[i];
  }
  m.util_history[0] = util;
  avg /= 4;
  const unsigned old = m.shift;
  if (m.since_change < 3) {
    ++m.since_change;
  } else if (total >= k.clip_min && tail_pushed > k.clip_share * total) {
    if (m.shift < 31) m.shift = m.shift + 1;
    m.min_shift = m.shift;  // best-work point: one step above where delta clipped
  } else if (util < k.util_low) {
    if (m.cdbs < 4) m.cdbs = m.cdbs + 1;
    else if (avg < k.util_low && m.shift < 31) m.shift = m.shift + 1;
  } else if (util > k.util_high) {
    if (m.cdbs > 2) m.cdbs = m.cdbs - 1;
    else if (avg > k.util_high && m.shift > m.min_shift) m.shift = m.shift - 1;
  }
  if (m.shift != old) {  // the head keeps its slot; its number is its first distance at the new delta
    m.h = m.shift > old ? m.h >> 1 : m.h << 1;
    m.since_change = 0;
    atomicAdd(&B.stats[3], 1u);
  }
}

// Probe warp p watches CDB p: lane l reads the WFC of the l-th segment from its read pointer
// (32 x 256 = 8K slots an access), then the reservation pointer after a fence; the readable run
// ends at the first segment neither full nor complete (WFC == reserved) (§4.3). The head's probe
// warp switches the head when it holds nothing to probe or assign and its DWC equals its
// reservation pointer (§4.4), and ends the run after 64 switches with nothing probed or assigned.
__device__ void probe(volatile Manager& m, const Buckets& B, const Tuning& k, unsigned p) {
  const unsigned lane = threadIdx.x % 32, segs_log2 = B.cap_log2 - 8, seg_mask = (1u << segs_log2) - 1;
  while (!m.term) {
    if (p >= m.cdbs) continue;
    const unsigned b = (m.hp + p) & 31u, rp = m.read[b];
    const unsigned dwc = ((volatile unsigned*)B.dwc)[b];
    const unsigned seg = (rp >> 8) + lane;
    const unsigned wfc = ((volatile unsigned*)B.wfc)[(b << segs_log2) + (seg & seg_mask)];
    __threadfence();
    const unsigned resv = ((volatile unsigned*)B.resv)[b];
    const int reserved = (int)(resv - (seg << 8));
    const unsigned expect = reserved <= 0 ? 0u : min((unsigned)reserved, SEG);
    const unsigned full = __ballot_sync(0xffffffffu, wfc == SEG);
    const unsigned first = __ffs(~full) - 1;  // 31 + 1 when all 32 are full
    unsigned end = (seg - lane) << 8;
    if (full == 0xffffffffu) {
      end += 32 * SEG;
    } else {
      const unsigned w = __shfl_sync(0xffffffffu, wfc, first), e = __shfl_sync(0xffffffffu, expect, first);
      end += first * SEG + (w == e ? w : 0);
    }
    if ((int)(end - rp) > 0) {
      if (((seg + 1) << 8) <= end) ((volatile unsigned*)B.wfc)[(b << segs_log2) + (seg & seg_mask)] = 0;  // read whole: reusable
      __threadfence();
      if (lane == 0) {
        m.read[b] = end;
        m.activity = 1;
      }
    } else if (p == 0 && resv == rp && m.assigned[b] == rp && dwc == resv) {
      if (lane == 0) {
        m.idle_switches = m.activity ? 0 : m.idle_switches + 1;
        m.activity = 0;
        if (m.idle_switches >= 2 * BUCKETS) m.term = 1;
      }
      __syncwarp();
      if (m.term) break;
      epoch(m, B, k);
      if (lane == 0) {
        m.tail = m.hp;  // the old head becomes the tail
        m.h = m.h + 1;
        m.hp = (m.hp + 1) & 31u;
        *(volatile unsigned long long*)B.head = m.h | (unsigned long long)m.hp << 32 | (unsigned long long)m.shift << 40;
      }
    }
    __syncwarp();
  }
}

// The assign warp: lane l reads the AF of worker (next + l); each idle worker (AF 0) gets a run
// from the highest-priority CDB with readable ids, sized to spread what is readable over the idle
// workers within [warps << grain_min, 1K] (§4.3). It samples utilisation (ids in flight, as edges,
// per worker thread) for the epochs, and at the end writes TERM into every AF.
__device__ void assign(volatile Manager& m, const Buckets& B, const Tuning& k, volatile unsigned long long* af) {
  const unsigned lane = threadIdx.x % 32;
  unsigned next = 0;
  while (!m.term) {
    const unsigned wtb = (next + lane) % k.workers;
    const bool mine = lane < k.workers;
    unsigned idle = __ballot_sync(0xffffffffu, mine && af[wtb] == 0);
    while (idle) {
      const unsigned i = __ffs(idle) - 1, n_idle = __popc(idle);
      idle &= idle - 1;
      unsigned b = 0, avail = 0;
      for (unsigned p = 0; p < m.cdbs && !avail; ++p) {
        b = (m.hp + p) & 31u;
        avail = m.read[b] - m.assigned[b];
      }
      if (!avail) break;
      unsigned per = min((avail + n_idle - 1) / n_idle, MAX_ASSIGN);
      unsigned grain = k.grain_min;
      while (grain < 5 && (WARPS << grain) < per) ++grain;
      per = max(per, WARPS << k.grain_min);
      const unsigned size = min(avail, per), start = m.assigned[b];
      if (lane == i) af[wtb] = af_word(start, size, b, grain);
      __syncwarp();
      if (lane == 0) {
        m.assigned[b] = start + size;
        m.assigned_total = m.assigned_total + size;
        m.activity = 1;
      }
      __syncwarp();
    }
    next = (next + 32) % k.workers;
    // Utilisation: ids assigned and not yet done, as edges, per worker thread.
    unsigned done = ((volatile unsigned*)B.dwc)[lane];
    for (unsigned off = 16; off; off >>= 1) done += __shfl_xor_sync(0xffffffffu, done, off);
    if (lane == 0) {
      const float in_flight = (float)(m.assigned_total - done);
      m.util_sum = m.util_sum + in_flight * k.avg_degree / (k.workers * WARPS * 32);
      m.util_samples = m.util_samples + 1;
    }
    __syncwarp();
  }
  for (unsigned base = 0; base < k.workers; base += 32) {
    const unsigned wtb = base + lane;
    if (wtb < k.workers) {
      while (af[wtb] != 0) {
      }
      af[wtb] = TERM;
    }
  }
  if (lane == 0) B.stats[4] = m.shift;
}

// The run: block 0 manages (warps 0-3 probe CDBs 0-3, warp 4 assigns), the others work. The host
// puts the source in bucket 0 (resv 1, WFC 1) with the head word 0 | 0 | shift << 40.
extern "C" __global__ void adds_sssp(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                     unsigned* items, unsigned* meta, unsigned long long* head, unsigned long long* af,
                                     unsigned cap_log2, unsigned slack, unsigned shift, unsigned workers,
                                     unsigned grain_min, float avg_degree, float util_low, float util_high,
                                     float clip_share, unsigned clip_min, unsigned backoff_ns) {
  const Buckets B = buckets(items, meta, head, cap_log2, slack);
  if (blockIdx.x) {
    worker(row, col, w, dist, B, af, backoff_ns);
    return;
  }
  __shared__ Manager mgr;
  volatile Manager& m = mgr;
  if (threadIdx.x < BUCKETS) {
    m.read[threadIdx.x] = m.assigned[threadIdx.x] = 0;
    m.snapshot[threadIdx.x] = threadIdx.x == 0;
  }
  if (threadIdx.x == 0) {
    m.h = m.hp = m.term = m.activity = m.idle_switches = m.since_change = 0;
    m.shift = m.min_shift = shift;
    m.cdbs = 2;
    m.tail = BUCKETS - 1;
    m.assigned_total = 0;
    m.util_sum = m.util_samples = 0;
    for (int i = 0; i < 4; ++i) m.util_history[i] = 0;
  }
  __syncthreads();
  const Tuning k{workers, grain_min, clip_min, avg_degree, util_low, util_high, clip_share};
  const unsigned warp = threadIdx.x / 32;
  if (warp < 4) probe(m, B, k, warp);
  else if (warp == 4) assign(m, B, k, af);
}

// ---- Near-far (the baseline) ---------------------------------------------------------------------

// A list in global memory: ids, their count, its capacity and a flag set when a push finds it full
// (the host then fails the run).
struct List {
  unsigned* items;
  unsigned* count;
  unsigned cap;
  unsigned* overflow;
};

// A warp pushes its lanes' ids onto a list with one atomic.
__device__ void warp_push(bool want, unsigned u, const List& l) {
  const unsigned lane = threadIdx.x % 32, peers = __ballot_sync(0xffffffffu, want);
  if (!peers) return;
  unsigned base = 0;
  if (lane == __ffs(peers) - 1) base = atomicAdd(l.count, __popc(peers));
  base = __shfl_sync(0xffffffffu, base, __ffs(peers) - 1);
  const unsigned at = base + __popc(peers & ((1u << lane) - 1));
  if (want && at < l.cap) l.items[at] = u;
  if (want && at >= l.cap) atomicOr(l.overflow, 1u);
}

// One super-step over the near worklist: each warp relaxes 32 of its vertices; a lowered
// neighbour goes to the next near list when below the split, else to the far pile.
extern "C" __global__ void nf_relax(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                    const unsigned* in, unsigned n_in, unsigned split, unsigned* near_out,
                                    unsigned* near_count, unsigned* far, unsigned* far_count, unsigned near_cap,
                                    unsigned far_cap, unsigned* stats) {
  const unsigned base = (blockIdx.x * blockDim.x + threadIdx.x) & ~31u, lane = threadIdx.x % 32;
  if (base >= n_in) return;
  const unsigned count = min(32u, n_in - base);
  const unsigned v = lane < count ? in[base + lane] : 0;
  if (lane == 0) atomicAdd(&stats[1], count);
  relax_chunk(row, col, w, dist, v, count, [&](bool lowered, unsigned u, unsigned nd) {
    warp_push(lowered && nd < split, u, {near_out, near_count, near_cap, stats});
    warp_push(lowered && nd >= split, u, {far, far_count, far_cap, stats});
  });
}

// The split moves up from `lo` to `split`: far-pile vertices whose distance fell in between go to
// the near list (once each: `mark` holds the last phase that took a vertex), those at or above
// it to the next far pile; one below `lo` is dropped, as it went near when its distance fell.
extern "C" __global__ void nf_split(const unsigned* far, unsigned n_far, const unsigned* dist, unsigned lo,
                                    unsigned split, unsigned phase, unsigned* mark, unsigned* near_out,
                                    unsigned* near_count, unsigned* far_out, unsigned* far_count, unsigned near_cap,
                                    unsigned far_cap, unsigned* stats) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned u = i < n_far ? far[i] : 0, d = i < n_far ? dist[u] : 0;
  const bool near = i < n_far && d >= lo && d < split && atomicExch(&mark[u], phase) != phase;
  warp_push(near, u, {near_out, near_count, near_cap, stats});
  warp_push(i < n_far && d >= split, u, {far_out, far_count, far_cap, stats});
}

// A software barrier across a persistent grid (every block resident): the last block to arrive
// bumps the generation the others wait on.
__device__ void grid_barrier(unsigned* arrived, volatile unsigned* generation) {
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned g = *generation;
    __threadfence();
    if (atomicAdd(arrived, 1u) == gridDim.x - 1) {
      atomicExch(arrived, 0u);
      __threadfence();
      *generation = g + 1;
    } else {
      while (*generation == g) {
      }
    }
  }
  __syncthreads();
}

// NF-OPT as the chapter measured it (L1505): near-far in one persistent launch, a software global
// barrier between steps instead of a launch each. A step relaxes the near list (counts in a ring
// of three: read one, fill the next, clear the one after) or, when it is empty, splits the far
// pile (three far piles in turn: read, fill, clear); every thread reads the same counts after the
// barrier and so takes the same step. ctl: [0..2] near counts, [3..5] far counts, [6] barrier
// arrivals, [7] generation, [8] vertices processed, [9] overflow, [10] steps, [11] splits.
extern "C" __global__ void nf_persistent(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                         unsigned* near0, unsigned* near1, unsigned* far0, unsigned* far1, unsigned* far2,
                                         unsigned* mark, unsigned* ctl, unsigned delta, unsigned near_cap, unsigned far_cap) {
  unsigned* near[2] = {near0, near1};
  unsigned* far[3] = {far0, far1, far2};
  volatile unsigned* vctl = ctl;
  const unsigned warps = gridDim.x * blockDim.x / 32, warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned threads = gridDim.x * blockDim.x, tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned k = 0, f = 0, phase = 0, lo = 0, split = delta, processed = 0;
  for (;; ++k) {
    const unsigned n_in = vctl[k % 3], n_far = vctl[3 + f];
    if (!n_in && !n_far) break;
    unsigned* out_count = &ctl[(k + 1) % 3];
    if (tid == 0) vctl[(k + 2) % 3] = 0;
    if (n_in) {
      const unsigned* in = near[k % 2];
      for (unsigned base = warp * 32; base < n_in; base += warps * 32) {
        const unsigned count = min(32u, n_in - base), v = threadIdx.x % 32 < count ? in[base + threadIdx.x % 32] : 0;
        processed += threadIdx.x % 32 == 0 ? count : 0;
        relax_chunk(row, col, w, dist, v, count, [&](bool lowered, unsigned u, unsigned nd) {
          warp_push(lowered && nd < split, u, {near[(k + 1) % 2], out_count, near_cap, &ctl[9]});
          warp_push(lowered && nd >= split, u, {far[f], &ctl[3 + f], far_cap, &ctl[9]});
        });
      }
    } else {  // the near list is empty: move the split up by delta
      const unsigned next = (f + 1) % 3;
      if (tid == 0) vctl[3 + (f + 2) % 3] = 0;
      lo = split;
      split = split > INF - delta ? INF : split + delta;
      ++phase;
      for (unsigned base = tid - threadIdx.x % 32; base < n_far; base += threads) {
        const unsigned i = base + threadIdx.x % 32;
        const unsigned u = i < n_far ? far[f][i] : 0, d = i < n_far ? ((volatile unsigned*)dist)[u] : 0;
        warp_push(i < n_far && d >= lo && d < split && atomicExch(&mark[u], phase) != phase, u,
                  {near[(k + 1) % 2], out_count, near_cap, &ctl[9]});
        warp_push(i < n_far && d >= split, u, {far[next], &ctl[3 + next], far_cap, &ctl[9]});
      }
      f = next;
    }
    grid_barrier(&ctl[6], &vctl[7]);
  }
  if (processed) atomicAdd(&ctl[8], processed);
  if (tid == 0) {
    ctl[10] = k;
    ctl[11] = phase;
  }
}
