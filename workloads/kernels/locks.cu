// SPDX-License-Identifier: Apache-2.0
// Fine-grained locks on the GPU, two ways (seed 001 chapter 4; docs/workloads.md "Lock benchmarks"):
// global-memory spin locks (Listings 4.1, 4.3) and lock delegation (Listing 4.2, §3.4), where
// client thread blocks send each critical section as a message to the server thread block that
// owns its data (server = data id % servers), whose threads take scratchpad locks instead.
//
// HT: a hash table of linked lists, one lock per entry; item i goes into entry key[i].
// MST: Boruvka's minimum spanning tree, components joined under a lock on the component.
// MF: push-relabel maximum flow, each push under the locks of both its vertices (two nested locks).
// ATM: bank transfers, item i moving amount[i] from account from[i] to account to[i] under both
// accounts' locks (two nested locks).
// SGD: matrix factorisation by stochastic gradient descent, edge-locked (Kaleem et al.): rating i
// of user a for movie b updates both latent vectors under both vertices' locks (two nested locks).
//
// Servers and clients are one launch (blocks [0, servers) serve, the rest are clients): the
// simulator runs one kernel at a time, and the servers, launched first, stay resident.

#define CAP 4096u              // message slots per server and channel (the dissertation's default, 4K)
#define LOCKS 4096u            // scratchpad locks per server block (4K), one bit each
#define WARPS_PER_BLOCK 8u     // a server block's warps

// ---- Global spin locks -------------------------------------------------------------------------

// The critical section of HT: item i goes to the front of entry k's list.
struct HtSection {
  volatile int* heads;
  int* next;
  __device__ __forceinline__ void operator()(int k, int i) const {
    next[i] = heads[k];
    heads[k] = i;
  }
};

// The critical section of ATM: item i moves `amount` from account a to account b.
struct AtmSection {
  volatile int* balance;
  __device__ __forceinline__ void operator()(int a, int b, int amount, int) const {
    balance[a] -= amount;
    balance[b] += amount;
  }
};

// The critical section of SGD: rating i (`rating` stars) of user a for movie b (ids after the
// users') moves both latent vectors along the error's gradient, rounding as the host's replay does
// (explicit fma and mul); it notes the section's place among each vertex's sections (version[]),
// from which the host rebuilds a serial order and replays it bit for bit.
#define SGD_FEATURES 16u
struct SgdSection {
  volatile float* features;  // [vertices * SGD_FEATURES]
  volatile int* version;     // [vertices]: sections run on each vertex so far
  int2* order;               // [items]: item i's place in a's and in b's sequence
  float rate, lambda;
  __device__ __forceinline__ void operator()(int a, int b, int rating, int i) const {
    volatile float *x = features + a * SGD_FEATURES, *y = features + b * SGD_FEATURES;
    float predicted = 0.0f;
    for (unsigned k = 0; k < SGD_FEATURES; ++k) predicted = __fmaf_rn(x[k], y[k], predicted);
    const float error = __fsub_rn((float)rating, predicted);
    for (unsigned k = 0; k < SGD_FEATURES; ++k) {
      const float u = x[k], v = y[k];
      x[k] = __fmaf_rn(rate, __fmaf_rn(error, v, -__fmul_rn(lambda, u)), u);
      y[k] = __fmaf_rn(rate, __fmaf_rn(error, u, -__fmul_rn(lambda, v)), v);
    }
    const int va = version[a], vb = version[b];
    version[a] = va + 1;
    version[b] = vb + 1;
    order[i] = make_int2(va, vb);
  }
};

// Table 4.2's lock hand-off latency, in the _handoff kernels only: item i's critical section
// notes the cycle (%clock64: on the timed GPU the core cycle, one clock for every SM) it took its
// lock and the one it began to release it, in registers, and stores them after the unlock, so that
// the section is no longer; the host pairs each acquire with its entry's previous release.
struct Handoff {
  unsigned long long *acquired = nullptr, *released = nullptr;
};
template <bool kMeasure>
__device__ __forceinline__ unsigned long long stamp() {
  return kMeasure ? clock64() : 0;
}
template <bool kMeasure>
__device__ __forceinline__ void record(const Handoff& h, int i, unsigned long long acquired, unsigned long long released) {
  if (!kMeasure) return;
  h.acquired[i] = acquired;
  h.released[i] = released;
}

// Listing 4.1: try the lock of id keys[i] until it is taken; the critical section, a fence, then
// the unlock. The loop's shape lets the lane that wins run the section while the others of its
// warp wait at the loop's end (pre-Volta SIMT). The loop ends on the unlock's result (1, but the
// compiler cannot know it): else, with a branch in the section, nvcc moves the section after a
// bare spin loop, which deadlocks a warp whose lanes want one lock.
template <bool kMeasure, typename Section>
__device__ void single_global(const int* keys, int n, int* locks, const Section& section, const Handoff& h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = keys[i];
  bool done = false;
  do {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      const unsigned long long t = stamp<kMeasure>();
      section(k, i);
      const unsigned long long r = stamp<kMeasure>();
      __threadfence();
      done = atomicExch(&locks[k], 0) != 0;
      record<kMeasure>(h, i, t, r);
    }
  } while (!done);
}
extern "C" __global__ void ht_global(const int* keys, int n, volatile int* heads, int* next, int* locks) {
  single_global<false>(keys, n, locks, HtSection{heads, next}, Handoff{});
}
extern "C" __global__ void ht_global_handoff(const int* keys, int n, volatile int* heads, int* next, int* locks,
                                             unsigned long long* acquired, unsigned long long* released) {
  single_global<true>(keys, n, locks, HtSection{heads, next}, Handoff{acquired, released});
}

// Listing 4.3: two nested global locks, the lower id's first; the first is kept while the second
// is tried. Item i's section runs on ids from[i] and to[i] with payload[i].
template <bool kMeasure, typename Section>
__device__ void nested_global(const int* from, const int* to, const int* payload, int n, int* locks, const Section& section,
                              const Handoff& h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int a = from[i], b = to[i], id1 = min(a, b), id2 = max(a, b);
  bool success1 = false, success2 = false;
  do {
    if (!success1 && atomicCAS(&locks[id1], 0, 1) == 0) success1 = true;  // acquired the first lock
    if (success1 && atomicCAS(&locks[id2], 0, 1) == 0) {
      const unsigned long long t = stamp<kMeasure>();
      section(a, b, payload[i], i);
      const unsigned long long r = stamp<kMeasure>();
      __threadfence();
      atomicExch(&locks[id1], 0);
      atomicExch(&locks[id2], 0);
      record<kMeasure>(h, i, t, r);
      success2 = true;
    }
  } while (!(success1 && success2));
}
extern "C" __global__ void atm_global(const int* from, const int* to, const int* amount, int n, volatile int* balance,
                                      int* locks) {
  nested_global<false>(from, to, amount, n, locks, AtmSection{balance}, Handoff{});
}
extern "C" __global__ void atm_global_handoff(const int* from, const int* to, const int* amount, int n,
                                              volatile int* balance, int* locks, unsigned long long* acquired,
                                              unsigned long long* released) {
  nested_global<true>(from, to, amount, n, locks, AtmSection{balance}, Handoff{acquired, released});
}
extern "C" __global__ void sgd_global(const int* user, const int* movie, const int* rating, int n, volatile float* features,
                                      volatile int* version, int2* order, float rate, float lambda, int* locks) {
  nested_global<false>(user, movie, rating, n, locks, SgdSection{features, version, order, rate, lambda}, Handoff{});
}

// ---- Message passing (§3.3) --------------------------------------------------------------------

// A channel: per server a circular array of CAP messages, the senders' reservation counter, the
// slots read so far (advanced by the server in order) and a bit a slot, set by its sender once the
// message is in memory.
struct Ring {
  unsigned* write_idx;          // [servers]
  volatile unsigned* read_idx;  // [servers]
  unsigned* bits;               // [servers * CAP / 32]
};
template <typename Msg>
struct Channel : Ring {
  Msg* msgs;  // [servers * CAP]
};

// Ring k of `channels` in one zeroed metadata block: write_idx, read_idx, then the bit arrays.
__device__ Ring ring(unsigned* meta, unsigned k, unsigned channels, unsigned servers) {
  return {meta + k * servers, meta + (channels + k) * servers, meta + 2 * channels * servers + k * servers * (CAP / 32)};
}
template <typename Msg>
__device__ Channel<Msg> channel(Msg* msgs, unsigned* meta, unsigned k, unsigned channels, unsigned servers) {
  Channel<Msg> c;
  static_cast<Ring&>(c) = ring(meta, k, channels, servers);
  c.msgs = msgs;
  return c;
}

// Sets (or clears) the bits of `count` <= 32 consecutive slots from `first` in a server's bit array:
// one atomic per word touched (at most two).
__device__ void mark_slots(unsigned* bits, unsigned first, unsigned count, bool set) {
  const unsigned in_first = min(count, 32 - first % 32);
  const unsigned masks[2] = {(in_first == 32 ? ~0u : (1u << in_first) - 1) << (first % 32), (1u << (count - in_first)) - 1};
  const unsigned words[2] = {first / 32, ((first + in_first) % CAP) / 32};
  for (int w = 0; w < 1 + (count > in_first); ++w) {
    if (set) atomicOr(&bits[words[w]], masks[w]);
    else atomicAnd(&bits[words[w]], ~masks[w]);
  }
}

// A server's warp sending (lock requests, replies, unlocks): the lanes sending to one server reserve
// consecutive slots with one atomic, and their leader sets their bits (one or two words) once all
// have written. Clients send a block at a time (send_block).
template <typename Msg>
__device__ void send(const Channel<Msg>& c, unsigned dst, const Msg& msg) {
  const unsigned lane = threadIdx.x % 32, peers = __match_any_sync(__activemask(), dst);
  const unsigned leader = __ffs(peers) - 1, count = __popc(peers), rank = __popc(peers & ((1u << lane) - 1));
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(&c.write_idx[dst], count);
  base = __shfl_sync(peers, base, leader);
  const unsigned slot = base + rank;
  while (slot - c.read_idx[dst] >= CAP) {
  }  // the slot is a whole lap ahead: wait until the server has read its previous message
  c.msgs[dst * CAP + slot % CAP] = msg;
  __threadfence();  // the messages reach memory before their bits say so
  __syncwarp(peers);
  if (lane == leader) mark_slots(c.bits + dst * (CAP / 32), base % CAP, count, true);
}

__device__ unsigned set_from(const unsigned* bits, unsigned head);

// How many messages are ready in server `me`'s ring from slot `head` on (a whole warp calls it):
// lane l reads the bit word of slots head + 32l on, so up to 1,024 slots in one access (§3.3.2);
// the ready ones run from head to the first clear bit.
__device__ unsigned ready(const Ring& c, unsigned me, unsigned head) {
  return set_from(c.bits + me * (CAP / 32), head);
}

// The set bits from bit `head` on, up to the first clear one, in a circular array of CAP bits
// (a warp calls it; up to 1,024 bits in one access).
__device__ unsigned set_from(const unsigned* bits, unsigned head) {
  const unsigned lane = threadIdx.x % 32;
  unsigned w = ((const volatile unsigned*)bits)[(head / 32 + lane) % (CAP / 32)];
  if (lane == 0) w |= (1u << head % 32) - 1;  // slots before head count as set
  const unsigned whole = __ballot_sync(0xffffffffu, w == ~0u);
  const unsigned gap = whole == ~0u ? 32 : __ffs(~whole) - 1;  // the first word with a clear bit
  const unsigned ones = __shfl_sync(0xffffffffu, w == ~0u ? 32 : __ffs(~w) - 1, gap % 32);
  return gap * 32 + (gap < 32 ? ones : 0) - head % 32;
}

// Frees `count` <= 32 slots from `start`, read already: their bits cleared, then read_idx past
// them (a warp calls it; the server frees its slots in order).
__device__ void release(const Ring& c, unsigned me, unsigned start, unsigned count) {
  if (threadIdx.x % 32 == 0) mark_slots(c.bits + me * (CAP / 32), start % CAP, count, false);
  __threadfence();
  if (threadIdx.x % 32 == 0) c.read_idx[me] = start + count;
}

// A data id's lock: its owner server, and the lock's place among the owner's (ids spread over the
// servers first). The lock hierarchy of §3.4 orders locks by global id = owner * LOCKS + local.
__device__ __forceinline__ unsigned owner(int id, unsigned servers) { return (unsigned)id % servers; }
// Neighbouring ids fall in different words (banks) of the lock bits: locks in one word serialise.
__device__ __forceinline__ unsigned local_lock(int id, unsigned servers) {
  const unsigned q = (unsigned)id / servers;
  return q % (LOCKS / 32) * 32 + q / (LOCKS / 32) % 32;
}
__device__ __forceinline__ unsigned global_lock(int id, unsigned servers) {
  return owner(id, servers) * LOCKS + local_lock(id, servers);
}
__device__ __forceinline__ bool try_lock_local(unsigned* locks, unsigned l) {
  return !(atomicOr(&locks[l / 32], 1u << l % 32) & (1u << l % 32));
}
// Whether it was held (always: the callers hold it; single_delegated's loop ends on it).
__device__ __forceinline__ bool unlock_local(unsigned* locks, unsigned l) {
  return atomicAnd(&locks[l / 32], ~(1u << l % 32)) & (1u << l % 32);
}

// A server block's shared state: scratchpad locks, the leader's assignments to follower warps
// (start and count, 0 when free), the runs it releases once copied, and the stop flag.
struct ServerState {
  unsigned locks[LOCKS / 32];
  volatile unsigned a_start[WARPS_PER_BLOCK], a_count[WARPS_PER_BLOCK];
  unsigned r_start[WARPS_PER_BLOCK], r_count[WARPS_PER_BLOCK];
  volatile int stop;
  volatile int granted[WARPS_PER_BLOCK * 32];  // ATM: a remote lock granted to this follower lane
  unsigned granting[CAP / 32];                  // ATM: request slots granted, not yet released
};

__device__ void init(ServerState& s) {
  for (unsigned i = threadIdx.x; i < LOCKS / 32; i += blockDim.x) s.locks[i] = 0;
  for (unsigned i = threadIdx.x; i < WARPS_PER_BLOCK * 32; i += blockDim.x) s.granted[i] = 0;
  for (unsigned i = threadIdx.x; i < CAP / 32; i += blockDim.x) s.granting[i] = 0;
  if (threadIdx.x < WARPS_PER_BLOCK) s.a_count[threadIdx.x] = 0;
  if (threadIdx.x == 0) s.stop = 0;
  __syncthreads();
}

// The leader warp (Listing 4.2's receiver, §3.3.2): finds the ready messages of its channel and
// hands runs of up to 32 to the follower warps [first, WARPS_PER_BLOCK) through the assignment
// slots; releases runs in order once copied; stops when every client block has finished and every
// slot is read.
template <typename Msg>
__device__ void lead(ServerState& s, const Channel<Msg>& c, unsigned first, const unsigned* clients_done, unsigned clients) {
  const unsigned me = blockIdx.x, followers = WARPS_PER_BLOCK - first;
  unsigned head = 0, next_f = first, oldest = first, outstanding = 0;
  auto after = [&](unsigned f) { return f + 1 == WARPS_PER_BLOCK ? first : f + 1; };
  for (;;) {
    while (outstanding > 0 && s.a_count[oldest] == 0) {
      release(c, me, s.r_start[oldest], s.r_count[oldest]);
      oldest = after(oldest);
      --outstanding;
    }
    unsigned n = ready(c, me, head);
    if (n > 0) {
      while (n > 0 && outstanding < followers) {
        const unsigned run = min(n, 32u);
        s.r_start[next_f] = head;
        s.r_count[next_f] = run;
        s.a_start[next_f] = head;
        __threadfence_block();
        s.a_count[next_f] = run;
        next_f = after(next_f);
        ++outstanding;
        head += run;
        n -= run;
      }
    } else if (outstanding == 0 && *(volatile const unsigned*)clients_done == clients) {
      __threadfence();
      if (*(volatile unsigned*)&c.write_idx[me] == head) {
        s.stop = 1;
        return;
      }
    }
  }
}

// A follower warp's next run: its messages copied (lane l the l-th), the slot freed; false once
// the leader has stopped and nothing is assigned.
template <typename Msg>
__device__ bool follow(ServerState& s, const Channel<Msg>& c, Msg& msg, unsigned& count) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  while ((count = s.a_count[warp]) == 0)
    if (s.stop) return false;
  if (lane < count) msg = c.msgs[blockIdx.x * CAP + (s.a_start[warp] + lane) % CAP];
  __threadfence_block();
  s.a_count[warp] = 0;  // copied: the leader may release the slots
  return true;
}

// §3.3.2's optimised sender, a client block's: its threads' messages (a thread's when `has`) are
// gathered in scratchpad by receiver (a counting sort); each receiver's run is reserved with one
// atomic, written from the scratchpad in order (consecutive threads, consecutive slots), and its
// bits set a word at a time once all are fenced. At most SENDER_SERVERS servers and 256 threads a
// block. (Servers' requests, replies and unlocks go warp by warp, send().)
#define SENDER_SERVERS 64u
struct ClientState {
  unsigned count[SENDER_SERVERS], offset[SENDER_SERVERS], base[SENDER_SERVERS];
  unsigned char dst[256];
  int4 msgs[256];  // a message of up to 16 bytes each
};
template <typename Msg>
__device__ void send_block(ClientState& cs, const Channel<Msg>& c, unsigned servers, bool has, unsigned dst, const Msg& msg) {
  for (unsigned j = threadIdx.x; j < servers; j += blockDim.x) cs.count[j] = 0;
  __syncthreads();
  const unsigned rank = has ? atomicAdd(&cs.count[dst], 1u) : 0;
  __syncthreads();
  if (threadIdx.x == 0) {  // each receiver's run in the scratchpad buffer
    unsigned sum = 0;
    for (unsigned j = 0; j < servers; ++j) {
      cs.offset[j] = sum;
      sum += cs.count[j];
    }
  }
  if (threadIdx.x < servers && cs.count[threadIdx.x] > 0)
    cs.base[threadIdx.x] = atomicAdd(&c.write_idx[threadIdx.x], cs.count[threadIdx.x]);
  __syncthreads();
  if (has) {
    const unsigned k = cs.offset[dst] + rank;
    cs.dst[k] = (unsigned char)dst;
    *reinterpret_cast<Msg*>(&cs.msgs[k]) = msg;
  }
  __syncthreads();
  const unsigned total = cs.offset[servers - 1] + cs.count[servers - 1];
  for (unsigned k = threadIdx.x; k < total; k += blockDim.x) {
    const unsigned j = cs.dst[k], slot = cs.base[j] + (k - cs.offset[j]);
    while (slot - c.read_idx[j] >= CAP) {
    }  // the slot is a whole lap ahead: wait until the server has read its previous message
    c.msgs[j * CAP + slot % CAP] = *reinterpret_cast<const Msg*>(&cs.msgs[k]);
  }
  __threadfence();  // the messages reach memory before their bits say so
  __syncthreads();
  if (threadIdx.x < servers)
    for (unsigned x = 0; x < cs.count[threadIdx.x]; x += 32)
      mark_slots(c.bits + threadIdx.x * (CAP / 32), (cs.base[threadIdx.x] + x) % CAP, min(32u, cs.count[threadIdx.x] - x), true);
}

// A block is a server or a client: they share the scratchpad.
union BlockState {
  ServerState server;
  ClientState client;
};

// A client block has sent everything.
__device__ void client_done(unsigned* clients_done) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(clients_done, 1u);
  }
}

// ---- One lock, delegated (Listing 4.2): HT and MST ----------------------------------------------

// Messages (id, item) to the id's owner. Metadata: 1 channel (write_idx, read_idx, bits), then
// clients_done.
template <bool kMeasure, typename Section>
__device__ void single_delegated(const int* keys, int n, int2* msgs, unsigned* meta, unsigned servers,
                                 const Section& section, const Handoff& h) {
  __shared__ BlockState shared;
  ServerState& s = shared.server;
  const Channel<int2> c = channel(msgs, meta, 0, 1, servers);
  unsigned* clients_done = meta + 2 * servers + servers * (CAP / 32);
  if (blockIdx.x >= servers) {  // a client: the non-critical section, then a message to the id's owner
    int i = (blockIdx.x - servers) * blockDim.x + threadIdx.x;
    const int k = i < n ? keys[i] : 0;
    send_block(shared.client, c, servers, i < n, owner(k, servers), make_int2(k, i));
    client_done(clients_done);
    return;
  }
  init(s);
  if (threadIdx.x / 32 == 0) return lead(s, c, 1, clients_done, gridDim.x - servers);
  int2 msg = make_int2(0, 0);
  unsigned count;
  while (follow(s, c, msg, count)) {
    if (threadIdx.x % 32 >= count) continue;
    const unsigned l = local_lock(msg.x, servers);
    bool done = false;
    do {
      if (try_lock_local(s.locks, l)) {
        const unsigned long long t = stamp<kMeasure>();
        section(msg.x, msg.y);
        const unsigned long long r = stamp<kMeasure>();
        __threadfence_block();
        done = unlock_local(s.locks, l);  // as single_global's loop
        record<kMeasure>(h, msg.y, t, r);
      }
    } while (!done);
  }
}
extern "C" __global__ void ht_delegated(const int* keys, int n, volatile int* heads, int* next, int2* msgs,
                                        unsigned* meta, unsigned servers) {
  single_delegated<false>(keys, n, msgs, meta, servers, HtSection{heads, next}, Handoff{});
}
extern "C" __global__ void ht_delegated_handoff(const int* keys, int n, volatile int* heads, int* next, int2* msgs,
                                                unsigned* meta, unsigned servers, unsigned long long* acquired,
                                                unsigned long long* released) {
  single_delegated<true>(keys, n, msgs, meta, servers, HtSection{heads, next}, Handoff{acquired, released});
}

// ---- Two nested locks, delegated (§3.4): ATM and SGD ----------------------------------------------
//
// Four channels a server, one a message type (against buffer deadlock, §3.4): offloads from the
// clients (from, to, payload, item), lock requests (id, requester's lane tag), replies (tag) and
// unlocks (id). A client sends the item to the owner of its lower lock in the hierarchy;
// a follower lane takes that lock, then the other: locally, or by a request to its owner, whose
// request warp takes it (retrying while it is held, without blocking the requests behind) and
// replies; the reply warp marks the lane granted; after the section the lane unlocks its locks,
// the remote one by an unlock message to the owner's unlock warp. Warps: 0 leads the offloads,
// 1 requests, 2 replies, 3 unlocks, 4-7 follow.

enum : unsigned { kOffload, kRequest, kReply, kUnlock, kChannels };  // channel k's handler is warp k

// Metadata: 4 channels, then clients_done and completed (sections done, for the handlers' stop).
template <bool kMeasure, typename Section>
__device__ void nested_delegated(const int* from, const int* to, const int* payload, int n, const Section& section,
                                 int4* offloads, int2* requests, int* replies, int* unlocks, unsigned* meta,
                                 unsigned servers, const Handoff& h) {
  __shared__ BlockState shared;
  ServerState& s = shared.server;
  const Channel<int4> off = channel(offloads, meta, kOffload, kChannels, servers);
  const Channel<int2> req = channel(requests, meta, kRequest, kChannels, servers);
  const Channel<int> rep = channel(replies, meta, kReply, kChannels, servers);
  const Channel<int> unl = channel(unlocks, meta, kUnlock, kChannels, servers);
  unsigned* clients_done = meta + 2 * kChannels * servers + kChannels * servers * (CAP / 32);
  unsigned* completed = clients_done + 1;
  const unsigned me = blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (blockIdx.x >= servers) {
    int i = (blockIdx.x - servers) * blockDim.x + threadIdx.x;
    const int a = i < n ? from[i] : 0, b = i < n ? to[i] : 0;
    const int first = global_lock(a, servers) <= global_lock(b, servers) ? a : b;
    send_block(shared.client, off, servers, i < n, owner(first, servers), make_int4(a, b, i < n ? payload[i] : 0, i));
    client_done(clients_done);
    return;
  }
  init(s);
  if (warp == kOffload) return lead(s, off, kChannels, clients_done, gridDim.x - servers);
  if (warp == kRequest) {
    // Requests are granted out of order: each pass tries every ready one not granted yet, so a
    // request for a held lock never stands in front of the others (the ring holds more than the
    // requests that can be outstanding: one a follower lane of every server, 128 x servers <=
    // CAP). Granted slots are released in order.
    unsigned head = 0;
    for (;;) {
      const unsigned n_ready = ready(req, me, head);
      for (unsigned c = 0; c < n_ready; c += 32) {
        const unsigned slot = (head + c + lane) % CAP;
        if (c + lane < n_ready && !((s.granting[slot / 32] >> slot % 32) & 1)) {
          const int2 m = requests[me * CAP + slot];
          if (try_lock_local(s.locks, local_lock(m.x, servers))) {
            send(rep, (unsigned)m.y / (WARPS_PER_BLOCK * 32), (int)((unsigned)m.y % (WARPS_PER_BLOCK * 32)));
            atomicOr(&s.granting[slot / 32], 1u << slot % 32);
          }
        }
      }
      for (unsigned k; (k = min(set_from(s.granting, head), 32u)) > 0; head += k) {
        if (lane == 0) mark_slots(s.granting, head % CAP, k, false);
        release(req, me, head, k);
      }
      if (n_ready == 0 && *(volatile unsigned*)completed == (unsigned)n) {
        __threadfence();
        if (*(volatile unsigned*)&req.write_idx[me] == head) return;
      }
    }
  }
  if (warp == kReply || warp == kUnlock) {
    // Replies mark the requesting lane granted; unlocks free a lock granted to another server.
    const Channel<int> c = warp == kReply ? rep : unl;
    unsigned head = 0;
    for (;;) {
      const unsigned take = min(ready(c, me, head), 32u);
      if (lane < take) {
        const int m = c.msgs[me * CAP + (head + lane) % CAP];
        if (warp == kReply) s.granted[m] = 1;
        else unlock_local(s.locks, local_lock(m, servers));
      }
      if (take > 0) {
        release(c, me, head, take);
        head += take;
      } else if (*(volatile unsigned*)completed == (unsigned)n) {
        __threadfence();
        if (*(volatile unsigned*)&c.write_idx[me] == head) return;
      }
    }
  }
  int4 msg = make_int4(0, 0, 0, 0);
  unsigned count;
  while (follow(s, off, msg, count)) {
    if (lane < count) {
      const int a = msg.x, b = msg.y;
      const int x = global_lock(a, servers) <= global_lock(b, servers) ? a : b, y = x == a ? b : a;
      const unsigned lx = local_lock(x, servers), tag = warp * 32 + lane;
      const bool same = global_lock(x, servers) == global_lock(y, servers), remote = owner(y, servers) != me;
      // §3.4's order: the remote lock first (asked of its owner), then the local one(s), so that a
      // hot local lock is held for the section alone. A lane never waits for a lock while it holds
      // a local one (a local pair lets x go when y is taken), and a granted lock is higher than the
      // local one its lane waits for: no cycle of waits. Listing 4.3's shape: the section runs
      // inside the loop, so a lane holding a lock never waits at the loop's end for a lane of its
      // warp that wants that lock.
      int state = remote ? 0 : 2;  // 0: asking for y, 1: waiting for y's grant, 2: taking the local lock(s), 3: done
      do {
        if (state == 0) {
          send(req, owner(y, servers), make_int2(y, (int)(me * WARPS_PER_BLOCK * 32 + tag)));
          state = 1;
        }
        if (state == 1 && s.granted[tag]) {
          s.granted[tag] = 0;
          state = 2;
        }
        if (state == 2 && try_lock_local(s.locks, lx)) {
          if (same || remote || try_lock_local(s.locks, local_lock(y, servers))) {
            const unsigned long long t = stamp<kMeasure>();
            section(a, b, msg.z, msg.w);
            const unsigned long long r = stamp<kMeasure>();
            __threadfence();
            if (!same) {
              if (remote) send(unl, owner(y, servers), (int)y);
              else unlock_local(s.locks, local_lock(y, servers));
            }
            unlock_local(s.locks, lx);
            record<kMeasure>(h, msg.w, t, r);
            state = 3;
          } else {
            unlock_local(s.locks, lx);  // y is held: let x go, then try both again
          }
        }
      } while (state != 3);
    }
    __syncwarp();
    if (lane == 0) atomicAdd(completed, count);
  }
}
extern "C" __global__ void atm_delegated(const int* from, const int* to, const int* amount, int n,
                                         volatile int* balance, int4* offloads, int2* requests, int* replies,
                                         int* unlocks, unsigned* meta, unsigned servers) {
  nested_delegated<false>(from, to, amount, n, AtmSection{balance}, offloads, requests, replies, unlocks, meta, servers,
                          Handoff{});
}
extern "C" __global__ void atm_delegated_handoff(const int* from, const int* to, const int* amount, int n,
                                                 volatile int* balance, int4* offloads, int2* requests, int* replies,
                                                 int* unlocks, unsigned* meta, unsigned servers,
                                                 unsigned long long* acquired, unsigned long long* released) {
  nested_delegated<true>(from, to, amount, n, AtmSection{balance}, offloads, requests, replies, unlocks, meta, servers,
                         Handoff{acquired, released});
}
extern "C" __global__ void sgd_delegated(const int* user, const int* movie, const int* rating, int n,
                                         volatile float* features, volatile int* version, int2* order, float rate,
                                         float lambda, int4* offloads, int2* requests, int* replies, int* unlocks,
                                         unsigned* meta, unsigned servers) {
  nested_delegated<false>(user, movie, rating, n, SgdSection{features, version, order, rate, lambda}, offloads,
                          requests, replies, unlocks, meta, servers, Handoff{});
}

// ---- MST: Boruvka with component locks (LonestarGPU's MST, §3.5) ---------------------------------
//
// A round: every component finds its lightest edge out (ties broken by the undirected edge's id, so
// that the chosen edges form a forest); then each component's edge joins its endpoints' components:
// under the lock of the higher root, if that is still a root, it links to the lower root
// (mst_merge: the one-lock kernels with MstSection). Links go to lower ids, so the lower side need
// not be locked: were it joined meanwhile, its tree's root is lower still. A merge whose higher
// root was joined meanwhile is retried in the round's next pass; last, every vertex points at its
// component's root. Rounds end when no component has an edge out.

#define MST_NONE 0xffffffffffffffffull  // a component without an edge chosen (or pending)

__device__ __forceinline__ int mst_find(volatile int* parent, int v) {
  int p;
  while ((p = parent[v]) != v) v = p;
  return v;
}

// Each vertex's lightest edge to another component, atomically into its component's minimum as
// (weight << 32 | undirected edge id): canon[e] is the id of edge e's lower-to-higher direction.
extern "C" __global__ void mst_min(const int* row, const int* col, const int* weight, const int* canon, int n,
                                   const int* parent, unsigned long long* minedge) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  const int c = parent[v];  // a root: mst_compress ran last
  unsigned long long best = MST_NONE;
  for (int e = row[v]; e < row[v + 1]; ++e)
    if (parent[col[e]] != c)
      best = min(best, (unsigned long long)(unsigned)weight[e] << 32 | (unsigned)canon[e]);
  if (best != MST_NONE) atomicMin(&minedge[c], best);
}

// The merges still to make: component c's chosen edge (from src to col), between the roots of its
// endpoints now (hi the higher, lo the lower); one whose endpoints are joined already (by the same
// edge chosen from the other side) is done.
extern "C" __global__ void mst_items(const int* src, const int* col, int n, volatile int* parent,
                                     unsigned long long* minedge, int* hi, int* lo, int* comp, unsigned* items) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n || minedge[c] == MST_NONE) return;
  const int e = (int)(minedge[c] & 0xffffffffu), a = mst_find(parent, src[e]), b = mst_find(parent, col[e]);
  if (a == b) {
    minedge[c] = MST_NONE;
    return;
  }
  const unsigned i = atomicAdd(items, 1u);
  hi[i] = max(a, b);
  lo[i] = min(a, b);
  comp[i] = c;
}

// The critical section, under root hi's lock: if hi is still a root, it joins lo and component
// comp[i]'s edge is taken; else the merge stays pending.
struct MstSection {
  const int *lo, *comp;
  volatile int* parent;
  volatile unsigned long long* minedge;
  int* taken;
  __device__ __forceinline__ void operator()(int hi, int i) const {
    if (parent[hi] != hi) return;
    parent[hi] = lo[i];
    const int c = comp[i];
    taken[(unsigned)(minedge[c] & 0xffffffffu)] = 1;
    minedge[c] = MST_NONE;
  }
};
extern "C" __global__ void mst_merge_global(const int* hi, int n, const int* lo, const int* comp, volatile int* parent,
                                            volatile unsigned long long* minedge, int* taken, int* locks) {
  single_global<false>(hi, n, locks, MstSection{lo, comp, parent, minedge, taken}, Handoff{});
}
extern "C" __global__ void mst_merge_global_handoff(const int* hi, int n, const int* lo, const int* comp,
                                                    volatile int* parent, volatile unsigned long long* minedge,
                                                    int* taken, int* locks, unsigned long long* acquired,
                                                    unsigned long long* released) {
  single_global<true>(hi, n, locks, MstSection{lo, comp, parent, minedge, taken}, Handoff{acquired, released});
}
extern "C" __global__ void mst_merge_delegated(const int* hi, int n, const int* lo, const int* comp,
                                               volatile int* parent, volatile unsigned long long* minedge, int* taken,
                                               int2* msgs, unsigned* meta, unsigned servers) {
  single_delegated<false>(hi, n, msgs, meta, servers, MstSection{lo, comp, parent, minedge, taken}, Handoff{});
}
extern "C" __global__ void mst_merge_delegated_handoff(const int* hi, int n, const int* lo, const int* comp,
                                                       volatile int* parent, volatile unsigned long long* minedge,
                                                       int* taken, int2* msgs, unsigned* meta, unsigned servers,
                                                       unsigned long long* acquired, unsigned long long* released) {
  single_delegated<true>(hi, n, msgs, meta, servers, MstSection{lo, comp, parent, minedge, taken},
                         Handoff{acquired, released});
}

// Every vertex straight to its component's root.
extern "C" __global__ void mst_compress(int n, volatile int* parent) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) parent[v] = mst_find(parent, v);
}

// ---- MF: push-relabel maximum flow with node locks (§3.5) ----------------------------------------
//
// Residual arcs in CSR (head, cap; rev[e] the opposite arc). A round: every so many rounds exact
// heights by a global relabel (mf_relabel, one block); every active vertex (excess > 0, not s or t)
// lists its admissible arcs (mf_items; an active vertex without one is relabelled there, to one
// above its lowest residual neighbour: a valid height, as heights only grow); then each listed arc
// pushes under the locks of both its ends (mf_push: the nested-lock kernels with MfSection), as
// much as the tail's excess and the arc's capacity allow then. Rounds end when no vertex is active.

#define MF_UNREACHED 0x7fffffff

// Heights by breadth-first search over residual arcs: distance to t, or n + distance to s for a
// vertex that cannot reach t. One block of threads; levels separated by barriers.
extern "C" __global__ void mf_relabel(const int* row, const int* head, const int* cap, int n, int s, int t,
                                      volatile int* height) {
  __shared__ int changed;
  for (int v = threadIdx.x; v < n; v += blockDim.x) height[v] = v == t ? 0 : v == s ? n : MF_UNREACHED;
  __syncthreads();
  for (int phase = 0; phase < 2; ++phase)
    for (int level = phase ? n : 0;; ++level) {
      if (threadIdx.x == 0) changed = 0;
      __syncthreads();
      for (int v = threadIdx.x; v < n; v += blockDim.x) {
        if (height[v] != MF_UNREACHED) continue;
        for (int e = row[v]; e < row[v + 1]; ++e)
          if (cap[e] > 0 && height[head[e]] == level) {
            height[v] = level + 1;
            changed = 1;
            break;
          }
      }
      __syncthreads();
      const int more = changed;
      __syncthreads();
      if (!more) break;
    }
}

// Each active vertex's admissible arcs (capacity left, height one above the head's) as items; an
// active vertex with none is relabelled to one above its lowest residual neighbour.
extern "C" __global__ void mf_items(const int* row, const int* head, const int* cap, const int* excess, int n, int s,
                                    int t, int* height, int* from, int* to, int* arc, unsigned* counts) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || u == s || u == t || excess[u] <= 0) return;
  atomicAdd(&counts[1], 1u);  // active vertices
  const int h = height[u];
  int lowest = MF_UNREACHED;
  bool admissible = false;
  for (int e = row[u]; e < row[u + 1]; ++e) {
    if (cap[e] <= 0) continue;
    const int hv = height[head[e]];
    lowest = min(lowest, hv);
    if (h == hv + 1) {
      const unsigned i = atomicAdd(&counts[0], 1u);
      from[i] = u;
      to[i] = head[e];
      arc[i] = e;
      admissible = true;
    }
  }
  if (!admissible && lowest != MF_UNREACHED) height[u] = lowest + 1;
}

// The critical section, under the locks of u and v: push along arc e what u's excess and e's
// capacity allow now.
struct MfSection {
  volatile int *cap, *excess;
  const int* rev;
  __device__ __forceinline__ void operator()(int u, int v, int e, int) const {
    const int d = min(excess[u], cap[e]);
    if (d <= 0) return;
    cap[e] -= d;
    cap[rev[e]] += d;
    excess[u] -= d;
    excess[v] += d;
  }
};
extern "C" __global__ void mf_push_global(const int* from, const int* to, const int* arc, int n, volatile int* cap,
                                          volatile int* excess, const int* rev, int* locks) {
  nested_global<false>(from, to, arc, n, locks, MfSection{cap, excess, rev}, Handoff{});
}
extern "C" __global__ void mf_push_delegated(const int* from, const int* to, const int* arc, int n, volatile int* cap,
                                             volatile int* excess, const int* rev, int4* offloads, int2* requests,
                                             int* replies, int* unlocks, unsigned* meta, unsigned servers) {
  nested_delegated<false>(from, to, arc, n, MfSection{cap, excess, rev}, offloads, requests, replies, unlocks, meta,
                          servers, Handoff{});
}
