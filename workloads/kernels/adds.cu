// SPDX-License-Identifier: Apache-2.0
// SSSP with a decoupled worklist (ADDS, seed 001 chapter 5; docs/workloads.md "ADDS") and the
// near-far baseline it is compared with (two buckets, super-steps).
//
// ADDS is one launch: block 0 is the manager thread block (MTB), every other block a worker
// (WTB). Workers push vertex ids into 32 buckets, circular FIFOs whose slots a writer reserves
// with one atomic and whose write-finished counters (WFC, one a segment of 256 slots) say when
// a run of slots is readable (§4.3); they never read the buckets' metadata. A bucket's slots live
// in data blocks of one pool, mapped and freed by the MTB's mm-warp (§4.5). The MTB's probe
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

// The buckets (§4.3, §4.5). A bucket is a circular FIFO of (nvb << blk_log2) slots addressed by a
// virtual index; its bk_ptr array maps each of its nvb virtual blocks to a data block of the pool
// (1 << blk_log2 ids, with a WFC a segment of 256 and a read-done counter, RDC), allocated ahead
// of the writers by the mm-warp and freed once read whole. A bk_ptr entry is
// FREE | (virtual block & 0x7fff) << 16 | (data block + 1); 0: none.
#define FREE 0x80000000u
struct Buckets {
  unsigned* pool;            // [blocks << blk_log2] vertex ids
  unsigned* wfc;             // [blocks << (blk_log2 - 8)]
  unsigned* rdc;             // [blocks]
  unsigned* bk;              // [BUCKETS << nvb_log2]
  unsigned* resv;            // [BUCKETS]
  unsigned* dwc;             // [BUCKETS]
  unsigned* stats;           // [0] overflow (1: a bucket, 2: the pool), [1] vertices processed, [3] delta changes,
                             // [4] final shift, [5] data blocks mapped, [6] freed
  unsigned long long* head;  // h | hp << 32 | shift << 40, written by the head's probe warp
  unsigned blk_log2, nvb_log2, blocks, slack;  // slack: slots kept free for assigned work not yet read
};

__device__ Buckets buckets(unsigned* pool, unsigned* meta, unsigned long long* head, unsigned blk_log2, unsigned nvb_log2,
                           unsigned blocks, unsigned slack) {
  Buckets b;
  b.pool = pool;
  b.resv = meta;
  b.dwc = meta + BUCKETS;
  b.stats = meta + 2 * BUCKETS;
  b.bk = meta + 3 * BUCKETS;
  b.rdc = b.bk + (BUCKETS << nvb_log2);
  b.wfc = b.rdc + blocks;
  b.head = head;
  b.blk_log2 = blk_log2;
  b.nvb_log2 = nvb_log2;
  b.blocks = blocks;
  b.slack = slack;
  return b;
}

// The data block holding virtual block `vblock` of bucket b, or INF while none is mapped to it.
__device__ __forceinline__ unsigned translate(const Buckets& B, unsigned b, unsigned vblock) {
  const unsigned e = ((volatile unsigned*)B.bk)[(b << B.nvb_log2) + (vblock & ((1u << B.nvb_log2) - 1))];
  return (e & 0xffffu) && ((e >> 16) & 0x7fffu) == (vblock & 0x7fffu) ? (e & 0xffffu) - 1 : INF;
}

// §4.3's writer: reserve a slot, find its data block (the worker block's translation cache: per
// bucket 4 entries, direct-mapped, tag << 16 | block + 1; bk_ptr on a miss, waiting for the
// mm-warp if the block is not there yet), write the id, fence, count the write in the slot's
// segment. A slot a lap ahead of work not yet done, or no block to be had, sets the overflow flag:
// the run ends and the host fails it rather than return distances that may be wrong.
__device__ void bucket_push(const Buckets& B, unsigned* cache, unsigned u, unsigned nd) {
  const unsigned b = bucket_of(nd, *(volatile unsigned long long*)B.head);
  const unsigned x = atomicAdd(&B.resv[b], 1u), vblock = x >> B.blk_log2, blk_mask = (1u << B.blk_log2) - 1;
  if (x - ((volatile unsigned*)B.dwc)[b] > (((1u << B.nvb_log2) << B.blk_log2) - 1) - B.slack) atomicOr(&B.stats[0], 1u);
  volatile unsigned* entry = cache + b * 4 + (vblock & 3);
  const unsigned c = *entry;
  unsigned block = (c >> 16) == (vblock & 0xffffu) && (c & 0xffffu) ? (c & 0xffffu) - 1 : INF;
  while (block == INF) {
    block = translate(B, b, vblock);
    if (block != INF) *entry = (vblock & 0xffffu) << 16 | (block + 1);
    else if (((volatile unsigned*)B.stats)[0]) return;  // the run is failing: drop it
  }
  B.pool[(block << B.blk_log2) + (x & blk_mask)] = u;
  __threadfence();
  atomicAdd(&B.wfc[(block << (B.blk_log2 - 8)) + ((x & blk_mask) >> 8)], 1u);
}

// An AF: the run's first slot in the pool (32 bits), size (11), bucket (5), grain_shift (3), and
// the bk_ptr entry of its data block (13): a run never crosses a data block (§4.5).
__device__ __forceinline__ unsigned long long af_word(unsigned start, unsigned size, unsigned b, unsigned grain, unsigned entry) {
  return start | (unsigned long long)size << 32 | (unsigned long long)b << 43 | (unsigned long long)grain << 48 |
         (unsigned long long)entry << 51;
}

// A worker block: its warps take 1 << grain_shift ids at a time from the block's copy of its AF
// (two slots: the next assignment is copied in while the last one's warps finish) under a
// scratchpad lock; a warp that finds the lock taken, or nothing to take, backs off. The last warp
// of an assignment adds its size to the bucket's DWC and the data block's RDC; the one that makes
// the RDC a whole block clears the block's counters and marks its bk_ptr entry free (§4.5).
__device__ void worker(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist, const Buckets& B,
                       volatile unsigned long long* af, unsigned backoff_ns) {
  __shared__ unsigned s_start[2], s_size[2], s_taken[2], s_done[2], s_bucket[2], s_grain[2], s_entry[2];
  __shared__ unsigned s_cur, s_lock, s_term, s_work;
  __shared__ unsigned cache[BUCKETS * 4];
  const unsigned lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int i = 0; i < 2; ++i) s_size[i] = s_taken[i] = s_done[i] = 0;
    s_cur = s_lock = s_term = s_work = 0;
  }
  if (threadIdx.x < BUCKETS * 4) cache[threadIdx.x] = 0;
  __syncthreads();
  volatile unsigned* vs_size = s_size;
  volatile unsigned* vs_done = s_done;
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
            s_entry[next] = (unsigned)(a >> 51);
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
    const unsigned b = s_bucket[slot], size = vs_size[slot], start = s_start[slot], entry = s_entry[slot];
    const unsigned v = lane < count ? ((volatile unsigned*)B.pool)[start + t + lane] : 0;
    relax_chunk(row, col, w, dist, v, count, [&](bool lowered, unsigned u, unsigned nd) {
      if (lowered) bucket_push(B, cache, u, nd);
    });
    __threadfence();  // the pushes are in memory before the DWC counts this work done
    bool whole = false;
    if (lane == 0) {
      atomicAdd(&s_work, count);
      if (atomicAdd(&s_done[slot], count) + count == size) {
        atomicAdd(&B.dwc[b], size);
        whole = atomicAdd(&B.rdc[start >> B.blk_log2], size) + size == (1u << B.blk_log2);
      }
    }
    if (__shfl_sync(0xffffffffu, whole, 0)) {  // every slot of the data block read and done: free it
      const unsigned block = start >> B.blk_log2, segs = 1u << (B.blk_log2 - 8);
      for (unsigned i = lane; i < segs; i += 32) B.wfc[(block << (B.blk_log2 - 8)) + i] = 0;
      if (lane == 0) B.rdc[block] = 0;
      __threadfence();
      if (lane == 0) atomicOr(&B.bk[(b << B.nvb_log2) + entry], FREE);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&B.stats[1], s_work);
}

// The MTB's scratchpad: the head (global bucket number h, physical slot hp, delta = 1 << shift),
// the CDB count, per bucket how far its slots are probed readable and assigned, what the assign
// warp measures for the head's probe warp, and the mm-warp's allocation state.
#define MAX_BLOCKS 4096u  // data blocks the mm-warp's free mask covers
struct Manager {
  unsigned h, hp, shift, min_shift, cdbs, term, activity, idle_switches;
  unsigned read[BUCKETS], assigned[BUCKETS], snapshot[BUCKETS];
  unsigned alloc[BUCKETS], dealloc[BUCKETS];  // the mm-warp's: virtual blocks mapped, and freed, a bucket
  unsigned free_mask[MAX_BLOCKS / 32];        // data blocks not mapped
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
// (32 x 256 = 8K slots an access; each through bk_ptr to its data block), then the reservation
// pointer after a fence; the readable run ends at the first segment neither full nor complete
// (WFC == reserved) (§4.3). The head's probe
// warp switches the head when it holds nothing to probe or assign and its DWC equals its
// reservation pointer (§4.4), and ends the run after 64 switches with nothing probed or assigned.
__device__ void probe(volatile Manager& m, const Buckets& B, const Tuning& k, unsigned p) {
  const unsigned lane = threadIdx.x % 32, seg_log2 = B.blk_log2 - 8, seg_mask = (1u << seg_log2) - 1;
  while (!m.term) {
    if (p >= m.cdbs) continue;
    const unsigned b = (m.hp + p) & 31u, rp = m.read[b];
    const unsigned dwc = ((volatile unsigned*)B.dwc)[b];
    const unsigned seg = (rp >> 8) + lane;
    const unsigned block = translate(B, b, seg >> seg_log2);  // none yet: nothing written there
    const unsigned wfc = block == INF ? 0 : ((volatile unsigned*)B.wfc)[(block << seg_log2) + (seg & seg_mask)];
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
      // Within one data block: translated here, so that workers read the pool directly (§4.5).
      const unsigned start = m.assigned[b], blk_mask = (1u << B.blk_log2) - 1;
      const unsigned size = min(min(avail, per), (blk_mask + 1) - (start & blk_mask));
      const unsigned block = translate(B, b, start >> B.blk_log2);
      if (lane == i)
        af[wtb] = af_word((block << B.blk_log2) + (start & blk_mask), size, b, grain,
                          (start >> B.blk_log2) & ((1u << B.nvb_log2) - 1));
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

// The mm-warp (§4.5): lane b keeps bucket b's data blocks two ahead of its reservation pointer,
// taking free blocks from the scratchpad mask, and returns, in order, the blocks workers marked
// free. No block to take (the pool too small) fails the run.
__device__ void memory_manager(volatile Manager& m, const Buckets& B) {
  const unsigned lane = threadIdx.x % 32, nvb = 1u << B.nvb_log2, words = (B.blocks + 31) / 32;
  while (!m.term) {
    const unsigned b = lane, gone = m.dealloc[b];
    volatile unsigned* freed = &((volatile unsigned*)B.bk)[(b << B.nvb_log2) + (gone & (nvb - 1))];
    const unsigned e = *freed;
    if (gone != m.alloc[b] && (e & FREE)) {
      const unsigned block = (e & 0xffffu) - 1;
      atomicOr((unsigned*)&m.free_mask[block / 32], 1u << (block % 32));
      *freed = 0;
      atomicAdd(&B.stats[6], 1u);
      m.dealloc[b] = gone + 1;
    }
    const unsigned ahead = (m.alloc[b] << B.blk_log2) - ((volatile unsigned*)B.resv)[b];
    unsigned want = __ballot_sync(0xffffffffu, (int)ahead < (2 << B.blk_log2) && m.alloc[b] - m.dealloc[b] < nvb);
    while (want) {  // one bucket at a time: the lanes search the mask together
      const unsigned nb = __ffs(want) - 1;
      want &= want - 1;
      unsigned found = INF;
      for (unsigned base = 0; base < words && found == INF; base += 32) {
        const unsigned word = base + lane < words ? m.free_mask[base + lane] : 0, has = __ballot_sync(0xffffffffu, word != 0);
        if (has) {
          const unsigned wi = base + __ffs(has) - 1;
          found = wi * 32 + __ffs(m.free_mask[wi]) - 1;
        }
      }
      if (found == INF || found >= B.blocks) {
        if (lane == 0) {
          atomicOr(&B.stats[0], 2u);
          m.term = 1;
        }
        break;
      }
      if (lane == 0) {
        m.free_mask[found / 32] = m.free_mask[found / 32] & ~(1u << (found % 32));
        const unsigned v = m.alloc[nb];
        ((volatile unsigned*)B.bk)[(nb << B.nvb_log2) + (v & (nvb - 1))] = (v & 0x7fffu) << 16 | (found + 1);
        __threadfence();
        m.alloc[nb] = v + 1;
        atomicAdd(&B.stats[5], 1u);
      }
      __syncwarp();
    }
    __syncwarp();
  }
}

// The run: block 0 manages (warps 0-3 probe CDBs 0-3, warp 4 assigns, warp 5 manages memory), the
// others work. The host puts the source in bucket 0 (resv 1, data block 0 mapped to its virtual
// block 0, WFC 1) with the head word 0 | 0 | shift << 40.
extern "C" __global__ void adds_sssp(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                     unsigned* pool, unsigned* meta, unsigned long long* head, unsigned long long* af,
                                     unsigned blk_log2, unsigned nvb_log2, unsigned blocks, unsigned slack, unsigned shift,
                                     unsigned workers, unsigned grain_min, float avg_degree, float util_low, float util_high,
                                     float clip_share, unsigned clip_min, unsigned backoff_ns) {
  const Buckets B = buckets(pool, meta, head, blk_log2, nvb_log2, blocks, slack);
  if (blockIdx.x) {
    worker(row, col, w, dist, B, af, backoff_ns);
    return;
  }
  __shared__ Manager mgr;
  volatile Manager& m = mgr;
  if (threadIdx.x < BUCKETS) {
    m.read[threadIdx.x] = m.assigned[threadIdx.x] = m.dealloc[threadIdx.x] = 0;
    m.snapshot[threadIdx.x] = m.alloc[threadIdx.x] = threadIdx.x == 0;
  }
  for (unsigned i = threadIdx.x; i < MAX_BLOCKS / 32; i += blockDim.x)  // every block free but bucket 0's first
    m.free_mask[i] = i * 32 >= blocks ? 0u : (i * 32 + 32 <= blocks ? ~0u : (1u << (blocks - i * 32)) - 1) & (i ? ~0u : ~1u);
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
  else if (warp == 5) memory_manager(m, B);
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

// One super-step over the near worklist: each warp relaxes 1 << grain of its vertices (the chunk
// rule of ADDS's lower bound: a lane an edge); a lowered neighbour goes to the next near list when
// below the split, else to the far pile.
extern "C" __global__ void nf_relax(const unsigned* row, const unsigned* col, const unsigned* w, unsigned* dist,
                                    const unsigned* in, unsigned n_in, unsigned split, unsigned* near_out,
                                    unsigned* near_count, unsigned* far, unsigned* far_count, unsigned near_cap,
                                    unsigned far_cap, unsigned* stats, unsigned grain) {
  const unsigned base = (blockIdx.x * blockDim.x + threadIdx.x) / 32 << grain, lane = threadIdx.x % 32;
  if (base >= n_in) return;
  const unsigned count = min(1u << grain, n_in - base);
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
                                         unsigned* mark, unsigned* ctl, unsigned delta, unsigned near_cap, unsigned far_cap,
                                         unsigned grain) {
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
      for (unsigned base = warp << grain; base < n_in; base += warps << grain) {
        const unsigned count = min(1u << grain, n_in - base), v = threadIdx.x % 32 < count ? in[base + threadIdx.x % 32] : 0;
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
