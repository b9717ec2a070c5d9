// SPDX-License-Identifier: Apache-2.0
// A memory partition: an L2 slice (the shared cache machinery, its own MSHRs, write-back by
// default), an atomic unit, and a DRAM channel, behind a TLM target socket from the request
// network; replies go back on the same socket's backward path. A unit (the reorder unit) attaches
// beside the L2 through PartitionUnit without models/mem knowing it.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "models/mem/address_map.h"
#include "models/mem/cache.h"
#include "models/mem/cache_profile.h"
#include "models/mem/dram.h"
#include "sim/fifo.h"
#include "sim/simulation.h"
#include "tlm_glue/at_ports.h"
#include "tlm_glue/gpu_payload.h"

namespace irr::mem {

class MemoryPartition;

// A unit beside the L2. It sees every memory request arriving at the partition first and may take
// it (intercept), answering it later through MemoryPartition::reply; it receives the requests
// addressed to it (MemAccess::unit_partition) through accept; and it may read through the L2
// (MemoryPartition::issue), its replies coming back through response.
class PartitionUnit {
 public:
  virtual ~PartitionUnit() = default;
  virtual bool intercept(tlm::tlm_generic_payload& /*request*/, MemoryPartition& /*partition*/) { return false; }
  // A request for the unit; false: no room now (the partition retries it next cycle). It answers
  // with MemoryPartition::reply, setting the reply's data bytes (GpuRequest::bytes).
  virtual bool accept(tlm::tlm_generic_payload& request, MemoryPartition& partition);
  virtual void response(tlm::tlm_generic_payload& /*reply*/, MemoryPartition& /*partition*/) {}
};

class MemoryPartition : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  tlm_glue::AtTarget target;

  MemoryPartition(const sc_core::sc_module_name& name, sim::Simulation& sim, std::uint32_t index, const AddressMap& map);
  bool tick(sim::Cycle cycle) override;
  void catch_up(sim::Cycle edge) override;
  std::vector<std::string> outstanding() const override;
  void attach(PartitionUnit* unit) { unit_ = unit; }
  // Sends a reply now (used by an attached unit for requests it took). A unit that spans the
  // partitions (joined by a ring) answers a request taken here from another partition's reply
  // port: `port` names it. The response still goes back on the hop its request came by (IEEE
  // 1666-2011 15.2.11), and the crossbar queues it at that port (GpuRequest::reply_port).
  void reply(tlm::tlm_generic_payload& p, std::int32_t port = -1) {
    tlm_glue::gpu(p).reply_port = port;
    target.respond(p);
  }
  // The attached unit's own request into this L2 (a load, or with GpuRequest::no_allocate one that
  // bypasses it): taken in cycles without a network request; answered to the unit's response().
  void issue(tlm::tlm_generic_payload& p);
  std::uint32_t index() const { return index_; }
  CacheArray& l2() { return l2_; }
  // Bypass, insertion and fill-granularity policies (models/mem/policy/, from l2.* keys).
  CachePolicies& policies() { return policies_; }
  void set_profile(CacheProfile* p) { profile_ = p; }  // --profile: its loads counted by PC and region

 private:
  struct Ready {
    sim::Cycle at;
    std::uint64_t order;
    tlm::tlm_generic_payload* p;
    bool operator>(const Ready& o) const { return at != o.at ? at > o.at : order > o.order; }
  };
  bool handle(tlm::tlm_generic_payload& p, sim::Cycle c);
  bool load(tlm::tlm_generic_payload& p, sim::Cycle c, std::uint32_t lat);
  void copy_back(const tlm_glue::GpuRequest& g, sim::Cycle at);
  void left(const std::optional<CacheArray::Evicted>& ev, sim::Cycle at);
  CacheRequest request(const tlm_glue::GpuRequest& g) const;  // what the policies see of it
  static bool to_l1(const tlm_glue::GpuRequest& g);           // a load whose line an L1 installs
  void to_dram(std::uint64_t line, bool write, sim::Cycle at, std::uint32_t bytes, std::uint32_t sectors = kWholeLine);

  void schedule_reply(tlm::tlm_generic_payload& p, sim::Cycle at);
  void add_atomic(sim::Cycle at, tlm::tlm_generic_payload* p);
  void run_atomics(sim::Cycle c);
  sim::Cycle next_work(sim::Cycle c) const;
  void fill(std::uint64_t line, std::uint32_t sectors, sim::Cycle c);
  void respond(tlm::tlm_generic_payload& p);

  sim::Simulation& sim_;
  std::uint32_t index_;
  AddressMap map_;
  CacheArray l2_;
  Mshr<tlm::tlm_generic_payload*> mshr_;
  std::vector<tlm::tlm_generic_payload*> released_;  // a fill's completed requests (kept: its capacity)
  CachePolicies policies_;
  CacheProfile* profile_ = nullptr;
  PartitionUnit* unit_ = nullptr;
  const std::uint32_t latency_, unit_latency_, line_, sector_;
  const std::uint32_t all_sectors_;  // sector_mask(line_ / sector_), asked at every request
  const bool write_back_;
  const std::uint32_t atomic_throughput_, atomic_latency_;
  DramTiming dram_timing_;
  sim::TimedQueue<DramRequest> dram_done_;
  std::unique_ptr<DramChannel> dram_;
  sim::Fifo<std::pair<sim::Cycle, DramRequest>> dram_out_;  // (ready cycle, request)
  bool wants_mshr_ = false;  // the input's head failed for want of an MSHR or merge slot alone, since the last fill
  // The last cycle that head was retried, while it waits so: the partition sleeps until a fill (or
  // other work) wakes it and counts the retries it skipped as failed. kNever: none waits.
  sim::Cycle blocked_at_ = sim::kNever;
  std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> replies_;  // earliest (then first scheduled) on top
  sim::Fifo<tlm::tlm_generic_payload*> from_unit_;                       // the unit's own requests
  std::deque<std::pair<sim::Cycle, tlm::tlm_generic_payload*>> atomics_;  // waiting for the unit
  sim::Cycle atomics_due_ = sim::kNever;  // the earliest of their cycles
  // (address, free at) of the operations in the unit: at most throughput x latency, so a vector.
  std::vector<std::pair<std::uint64_t, sim::Cycle>> atomic_busy_;
  std::uint64_t order_ = 0;
  sim::Counter &accesses_, &hits_, &misses_, &mshr_merges_, &reservation_fails_, &writebacks_, &atomics_done_,
      &atomic_stall_cycles_;
  sim::Probe& mshr_probe_;
  sim::Probe& queue_probe_;
  sim::TxnTrace* trace_;
  sim::TxnTrace::Track track_ = 0;
  std::optional<sim::TxnTrace::Track> unit_track_;  // made at its first use: a run without a unit has none
};

}  // namespace irr::mem
