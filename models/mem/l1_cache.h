// SPDX-License-Identifier: Apache-2.0
// The L1 data cache of one SM, in the core clock domain. It takes line accesses from the SM's
// LD/ST unit (after the coalescer) through an input of l1.port_accesses entries, at most that many
// in every l1.port_cycles cycles (by default one; the LD/ST unit refills the input the cycle after,
// so one every other cycle from a single stream): a load hit completes l1.latency cycles later;
// a miss allocates an MSHR (or merges into the one for its line) and goes, after the tag lookup,
// through the miss queue to the request network; a full MSHR table or miss queue is a
// reservation failure: the access waits and retries. Policies (models/mem/policy/) may fetch
// only some sectors of a line and decide at each fill whether to install it. With l1.victim_cache
// the clean lines it replaces wait in a victim buffer, whose hits swap back in l1.victim_latency
// cycles after the lookup. Global stores write-evict with no write
// allocate (Fermi) or, with l1.write_policy: write_back, dirty a line they hit; either way a store
// that goes to L2 completes when its acknowledgement returns. Atomics bypass the L1. With
// l1.prefetcher, a prefetcher trained on the demand loads names lines, fetched in cycles the input
// leaves free when an MSHR and a miss-queue slot are, into the array or (l1.prefetch_buffer) a
// fully associative buffer beside it whose hits move into the array. A unit may fetch lines on a
// path of its own (fetch(): DAC's DMA engine, seed 001 Fig. 3.1 ③): l1.fetch_lookups tag lookups a
// cycle beside the input, a miss taking an MSHR and the miss path as a load's does; its fill is
// any fill.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "models/mem/address_map.h"
#include "models/mem/cache.h"
#include "models/mem/cache_profile.h"
#include "models/mem/prefetch.h"
#include "sim/fifo.h"
#include "sim/simulation.h"
#include "tlm_glue/at_ports.h"
#include "tlm_glue/gpu_payload.h"

namespace irr::mem {

struct MemAccess {
  std::uint64_t id = 0;      // the requester's
  std::uint32_t warp = 0;
  std::uint64_t pc = 0;
  tlm_glue::Access access = tlm_glue::Access::load;
  tlm_glue::AtomicOp atomic = tlm_glue::AtomicOp::none;
  std::uint64_t line = 0;
  std::uint32_t sectors = 0;
  std::uint32_t bytes = 0;   // data bytes (stores, atomics)
  std::uint64_t address = 0; // first byte (atomics serialise per address)
  tlm_glue::Served served = tlm_glue::Served::l1;  // on completion: the level that answered
  // >= 0: a request for the unit beside that partition's L2 (PartitionUnit::accept), not a memory
  // access: it bypasses the L1 (no lookup, no allocation, not counted) and carries `tag` to it.
  std::int32_t unit_partition = -1;
  std::uint32_t tag = 0;
  bool uncached = false;  // a load the L1 passes to the L2 without a lookup or an allocation
  bool copyback = false;  // a clean line the L1 evicted, going back to the L2 (GpuRequest::copyback)
  std::uint8_t hint = 0;  // a miss: the policies' bits for the L2's (GpuRequest::hint)
};

class L1Client {
 public:
  virtual ~L1Client() = default;
  virtual void completed(const MemAccess& a) = 0;
  // The L1 took an access from its input: one more fits after now (a client that found it full
  // and slept may go again).
  virtual void input_freed() {}
};

class L1Cache : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  tlm_glue::AtInitiator mem_side;

  L1Cache(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t sm, const AddressMap& map,
          tlm_glue::PayloadPool& pool, L1Client& client);
  bool can_accept(sim::Picoseconds now) const { return input_.can_push(now); }
  void accept(const MemAccess& a, sim::Picoseconds now);
  // The units' fetch path (SmPort::fetch_line): enable_fetches() before the run declares its
  // statistics (l1.fetches...; only caches that may fetch have them); fetch() queues a whole line,
  // completed (client.completed(a)) once it is in the L1 — after a lookup that finds it, or with
  // its fill. It takes no slot of the input and counts in none of the input's statistics.
  void enable_fetches();
  void fetch(const MemAccess& a);
  bool tick(sim::Cycle cycle) override;
  void catch_up(sim::Cycle edge) override;
  std::vector<std::string> outstanding() const override;
  // Bypass, insertion and fill-granularity policies (models/mem/policy/, from l1.* keys).
  CachePolicies& policies() { return policies_; }
  void set_profile(CacheProfile* p) { profile_ = p; }  // --profile: its loads counted by PC and region
  const CacheArray& array() const { return array_; }
  CacheArray& array() { return array_; }
  void invalidate_all() {
    array_.clear();
    victims_.clear();
    prefetch_buffer_.clear();
    locks_.clear();
    head_fails_ = nullptr;
  }
  // Counted line locks (DAC's lock counters in the tag array [seed 001 L621]): a lock held for
  // warp `warp` keeps `line` from being replaced — once it is in the cache, or as soon as its fill
  // arrives — until that warp's next load of the line releases it. Refused (false) when the
  // line's set already has ways − 1 other lines locked: one way stays free for every other access.
  bool lock(std::uint64_t line, std::uint32_t warp);
  void unlock_warp(std::uint32_t warp);  // every lock held for the warp (its CTA retired)
  std::size_t locked_lines() const { return locks_.size(); }

 private:
  bool handle(const MemAccess& a, sim::Cycle c);
  bool load(const MemAccess& a, sim::Cycle c);
  bool fail(sim::Counter& why);  // the input's head waits: counted, and not retried until something changes
  void filled(const tlm_glue::GpuRequest& g, sim::Cycle c);
  // A hit in the victim or the prefetch buffer, `extra` cycles after an array hit's.
  bool from_buffer(VictimBuffer& buffer, const MemAccess& a, const CacheRequest& r, sim::Cycle c, std::uint32_t extra);
  void replaced(const std::optional<CacheArray::Evicted>& ev, sim::Cycle c);  // a line the array gave up
  void leave(const CacheArray::Evicted& e, sim::Cycle c);  // a line leaving the L1: written or copied back
  void to_network(const MemAccess& a, sim::Cycle ready, std::uint32_t fetch);
  void complete(const MemAccess& a) { done_.push_back(a); }
  void release(const MemAccess& a);  // a load of a's warp releases that warp's lock on its line
  void train(const MemAccess& a, bool miss);  // the prefetcher sees a demand load
  void prefetch(sim::Cycle c);                // the next prefetch, if one can go
  void fetch_lines(sim::Cycle c);             // this cycle's lookups of the units' fetch path
  bool fetch_can_go() const { return !fetch_queue_.empty() && !fetch_waits_; }

  sim::Simulation& sim_;
  const std::uint32_t sm_;
  const AddressMap map_;
  tlm_glue::PayloadPool& pool_;
  L1Client& client_;
  CacheArray array_;
  Mshr<MemAccess> mshr_;
  std::vector<MemAccess> released_;  // a fill's completed requests (kept: its capacity)
  CachePolicies policies_;
  CacheProfile* profile_ = nullptr;
  VictimBuffer victims_;
  VictimBuffer prefetch_buffer_;  // l1.prefetch_buffer: where prefetched lines wait (else the array)
  const std::uint32_t latency_, victim_latency_, line_, sector_, miss_queue_size_;
  // The input port: port_accesses_ line accesses in every window of port_cycles_ cycles.
  const std::uint32_t port_accesses_, port_cycles_;
  sim::Cycle window_ = ~sim::Cycle{0};  // the window (cycle / port_cycles_) taken_ counts in
  std::uint32_t taken_ = 0;
  sim::Counter* port_waits_ = nullptr;  // with a port wider or slower than one a cycle
  void take_inputs(sim::Cycle c, sim::Picoseconds now);  // this cycle's accesses from the input
  const std::uint32_t all_sectors_;  // sector_mask(line_ / sector_)
  const bool write_back_, perfect_, copybacks_first_;
  sim::TimedQueue<MemAccess> input_;
  struct Outgoing {
    sim::Cycle ready;
    MemAccess access;
    std::uint32_t fetch;  // a fill of these sectors (the reply carries them); 0: the access itself goes
  };
  sim::Fifo<Outgoing> miss_queue_;
  sim::Fifo<MemAccess> copybacks_;  // clean lines going back to the L2 (exclusion), l1.copyback_order
  sim::Fifo<std::pair<sim::Cycle, MemAccess>> hits_;  // completing after the hit latency, in order
  std::vector<MemAccess> done_;                        // completed this cycle
  std::uint64_t pending_network_ = 0;                  // requests sent, reply not yet back
  // The cycle the input's head last failed for want of an MSHR, with nothing else to do: the cache
  // sleeps until a fill (or a new access) wakes it, and counts the retries it skipped as failed.
  std::optional<sim::Cycle> blocked_at_;
  bool wants_mshr_ = false;  // the input's head failed for want of an MSHR or merge slot alone, since the last fill
  sim::Counter* head_fails_ = nullptr;  // the input's head failed for this reason, nothing changed since
  std::map<std::uint64_t, std::vector<std::uint32_t>> locks_;  // line -> the warps holding a lock on it
  sim::Counter &accesses_, &hits_stat_, &misses_, &mshr_merges_, &reservation_fails_, &fails_mshr_, &fails_queue_, &stores_,
      &atomics_;
  sim::Counter* victim_hits_ = nullptr;  // with a victim buffer
  std::unique_ptr<Prefetcher> prefetcher_;  // l1.prefetcher
  std::deque<std::uint64_t> prefetch_queue_;
  std::vector<std::uint64_t> candidates_;
  std::set<std::uint64_t> prefetched_;  // lines fetched by prefetch, not yet loaded or evicted
  void unused(std::uint64_t line);      // a prefetched line left without a load
  sim::Counter *prefetches_ = nullptr, *prefetch_useful_ = nullptr, *prefetch_dropped_ = nullptr;
  const std::uint32_t fetch_lookups_;  // l1.fetch_lookups
  const bool fetch_first_;             // l1.fetch_priority: fetch (its lookups before the input's in a cycle)
  std::deque<MemAccess> fetch_queue_;  // the units' lines, in order; bounded by what the units hold
  bool fetch_waits_ = false;           // its head waits for an MSHR or a merge slot (a fill wakes the cache)
  sim::Counter *fetches_ = nullptr, *fetch_misses_ = nullptr, *fetch_merges_ = nullptr;
  sim::Distribution& miss_latency_;
  sim::Probe& mshr_probe_;
  sim::Probe& miss_queue_probe_;
  sim::TxnTrace* trace_;
  sim::TxnTrace::Track track_ = 0;
};

}  // namespace irr::mem
