// SPDX-License-Identifier: Apache-2.0
// Fine-grained locks on the GPU, two ways (seed 001 chapter 4; docs/workloads.md "Locks"):
// global-memory spin locks (Listing 4.1) and lock delegation (Listing 4.2), where client thread
// blocks send each critical section as a message to the server thread block that owns its data
// (server = data id % servers), whose threads take scratchpad locks instead.
//
// The benchmark is HT: a hash table of linked lists, one lock per entry; item i goes into entry
// key[i] (keys drawn from `collisions` entries: fewer entries, more conflicts).
//
// Servers and clients are one launch (blocks [0, servers) serve, the rest are clients): the
// simulator runs one kernel at a time, and the servers, launched first, stay resident.

#define CAP 4096u              // message slots per server (the dissertation's default, 4K)
#define LOCKS 4096u            // scratchpad locks per server block (4K), one bit each
#define WARPS_PER_BLOCK 8u     // the server's block: a leader warp and 7 followers

// The critical section: item i goes to the front of entry k's list.
__device__ __forceinline__ void ht_insert(volatile int* heads, int* next, int k, int i) {
  next[i] = heads[k];
  heads[k] = i;
}

// Listing 4.1: try the entry's global lock until it is taken; the critical section, a fence,
// then the unlock. The loop's shape lets the lane that wins run the section while the others of
// its warp wait at the loop's end (pre-Volta SIMT).
extern "C" __global__ void ht_global(const int* keys, int n, volatile int* heads, int* next, int* locks) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = keys[i];
  bool done = false;
  do {
    if (atomicCAS(&locks[k], 0, 1) == 0) {
      ht_insert(heads, next, k, i);
      __threadfence();
      atomicExch(&locks[k], 0);
      done = true;
    }
  } while (!done);
}

// One server's message buffer (§3.3.1): a circular array of CAP (data id, argument) messages, the
// senders' reservation counter, the slots read so far (advanced by the server in order) and a bit
// a slot, set by its sender once the message is in memory.
struct Mailboxes {
  int2* msgs;               // [servers * CAP]
  unsigned* write_idx;      // [servers]
  volatile unsigned* read_idx;  // [servers]
  unsigned* bits;           // [servers * CAP / 32]
  unsigned* clients_done;   // client blocks finished sending
};

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

// The lanes of a warp sending to one server reserve consecutive slots with one atomic, and their
// leader sets their bits (one or two words) once all have written: a warp's share of the
// optimised sender's aggregation (§3.3.2), without the block-wide scratchpad buffers.
__device__ void send_msg(const Mailboxes& m, unsigned dst, int data_id, int arg) {
  const unsigned lane = threadIdx.x % 32, peers = __match_any_sync(__activemask(), dst);
  const unsigned leader = __ffs(peers) - 1, count = __popc(peers), rank = __popc(peers & ((1u << lane) - 1));
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(&m.write_idx[dst], count);
  base = __shfl_sync(peers, base, leader);
  const unsigned slot = base + rank;
  while (slot - m.read_idx[dst] >= CAP) {
  }  // the slot is a whole lap ahead: wait until the server has read its previous message
  m.msgs[dst * CAP + slot % CAP] = make_int2(data_id, arg);
  __threadfence();  // the messages reach memory before their bits say so
  __syncwarp(peers);
  if (lane == leader) mark_slots(m.bits + dst * (CAP / 32), base % CAP, count, true);
}

// Listing 4.2's server block: the leader warp finds ready messages (32 bit words at once, in slot
// order) and hands runs of them to follower warps through scratchpad assignment slots (§3.3.2);
// a follower copies its run, frees its slot, and runs each critical section under the entry's
// scratchpad lock. The leader releases runs in order once copied (clears their bits, then
// advances read_idx), and stops when every client block has finished and every slot is read.
__device__ void ht_server(const Mailboxes& m, unsigned clients, volatile int* heads, int* next) {
  __shared__ unsigned locks[LOCKS / 32];
  __shared__ volatile unsigned a_start[WARPS_PER_BLOCK], a_count[WARPS_PER_BLOCK];
  __shared__ unsigned r_start[WARPS_PER_BLOCK], r_count[WARPS_PER_BLOCK];  // the leader's runs to release
  __shared__ volatile int stop;
  const unsigned me = blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (unsigned i = threadIdx.x; i < LOCKS / 32; i += blockDim.x) locks[i] = 0;
  if (threadIdx.x < WARPS_PER_BLOCK) a_count[threadIdx.x] = 0;
  if (threadIdx.x == 0) stop = 0;
  __syncthreads();
  volatile unsigned* bits = m.bits + me * (CAP / 32);
  if (warp == 0) {
    unsigned head = 0, next_f = 1, oldest = 1, outstanding = 0;
    for (;;) {
      // Release copied runs, oldest first: their bits cleared, then read_idx past them.
      while (outstanding > 0 && a_count[oldest] == 0) {
        if (lane == 0) mark_slots((unsigned*)bits, r_start[oldest] % CAP, r_count[oldest], false);
        __threadfence();
        if (lane == 0) *(m.read_idx + me) = r_start[oldest] + r_count[oldest];
        oldest = oldest + 1 == WARPS_PER_BLOCK ? 1 : oldest + 1;
        --outstanding;
      }
      // Lane l reads the bit word of slots head + 32l on: up to 1024 slots in one access. The
      // ready ones run from head to the first clear bit (slots before head count as set).
      unsigned w = bits[(head / 32 + lane) % (CAP / 32)];
      if (lane == 0) w |= (1u << head % 32) - 1;
      const unsigned whole = __ballot_sync(0xffffffffu, w == ~0u);
      const unsigned gap = whole == ~0u ? 32 : __ffs(~whole) - 1;  // the first word with a clear bit
      const unsigned ones = __shfl_sync(0xffffffffu, w == ~0u ? 32 : __ffs(~w) - 1, gap % 32);
      unsigned ready = gap * 32 + (gap < 32 ? ones : 0) - head % 32;
      if (ready > 0) {
        // Runs of up to 32 slots, one a free follower.
        while (ready > 0 && outstanding < WARPS_PER_BLOCK - 1) {
          const unsigned run = min(ready, 32u);
          r_start[next_f] = head;
          r_count[next_f] = run;
          a_start[next_f] = head;
          __threadfence_block();
          a_count[next_f] = run;
          next_f = next_f + 1 == WARPS_PER_BLOCK ? 1 : next_f + 1;
          ++outstanding;
          head += run;
          ready -= run;
        }
      } else if (outstanding == 0 && *(volatile unsigned*)m.clients_done == clients) {
        __threadfence();
        if (*(volatile unsigned*)&m.write_idx[me] == head) {
          stop = 1;
          return;
        }
      }
    }
  }
  for (;;) {
    unsigned count;
    while ((count = a_count[warp]) == 0)
      if (stop) return;
    const unsigned start = a_start[warp];
    int2 msg = make_int2(0, 0);
    if (lane < count) msg = m.msgs[me * CAP + (start + lane) % CAP];
    __threadfence_block();
    a_count[warp] = 0;  // copied: the leader may release the slots
    if (lane < count) {
      const unsigned l = (unsigned)msg.x % LOCKS, bit = 1u << (l % 32);
      bool done = false;
      do {
        if (!(atomicOr(&locks[l / 32], bit) & bit)) {
          ht_insert(heads, next, msg.x, msg.y);
          __threadfence_block();
          atomicAnd(&locks[l / 32], ~bit);
          done = true;
        }
      } while (!done);
    }
  }
}

// Listing 4.2's client: the non-critical section (reading the item's key) and a message to the
// entry's owner instead of the critical section.
__device__ void ht_client(const Mailboxes& m, unsigned servers, const int* keys, int n) {
  int i = (blockIdx.x - servers) * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = keys[i];
    send_msg(m, (unsigned)k % servers, k, i);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(m.clients_done, 1u);
  }
}

extern "C" __global__ void ht_delegated(const int* keys, int n, volatile int* heads, int* next, int2* msgs,
                                        unsigned* write_idx, unsigned* read_idx, unsigned* bits, unsigned* clients_done,
                                        unsigned servers) {
  const Mailboxes m{msgs, write_idx, read_idx, bits, clients_done};
  const unsigned clients = gridDim.x - servers;
  if (blockIdx.x < servers) ht_server(m, clients, heads, next);
  else ht_client(m, servers, keys, n);
}
