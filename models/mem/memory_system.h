// SPDX-License-Identifier: Apache-2.0
// The memory system on its own (`sim.top: memory`): gpu.num_sms traffic generators with their L1
// caches, the request and reply crossbars, and l2.partitions memory partitions (L2 slice, atomic
// unit, DRAM channel), assembled from the configuration. The GPU top will build the same parts
// with SMs in place of the generators.
#pragma once

#include <memory>
#include <vector>

#include "models/mem/backing_store.h"
#include "models/mem/crossbar.h"
#include "models/mem/l1_cache.h"
#include "models/mem/partition.h"
#include "models/mem/traffic.h"
#include "sim/simulation.h"
#include "tlm_glue/gpu_payload.h"
#include "tlm_glue/protocol_checker.h"

namespace irr::mem {

AddressMap address_map(const sim::Config& c);

class MemorySystem : public sc_core::sc_module, public sim::Outstanding {
 public:
  MemorySystem(const sc_core::sc_module_name& name, sim::Simulation& sim);
  std::vector<std::string> outstanding() const override;
  BackingStore& store() { return store_; }
  tlm_glue::PayloadPool& pool() { return pool_; }
  L1Cache& l1(std::size_t sm) { return *l1_[sm]; }
  MemoryPartition& partition(std::size_t p) { return *partitions_[p]; }
  TrafficGenerator& generator(std::size_t sm) { return *generators_[sm]; }

 private:
  void add_summary(sim::Simulation& sim);
  BackingStore store_;
  tlm_glue::PayloadPool pool_;
  AddressMap map_;
  std::vector<std::unique_ptr<TrafficGenerator>> generators_;
  std::vector<std::unique_ptr<L1Cache>> l1_;
  std::unique_ptr<Crossbar> crossbar_;
  std::vector<std::unique_ptr<MemoryPartition>> partitions_;
  std::vector<std::unique_ptr<tlm_glue::ProtocolChecker>> checkers_;  // one a hop when sim.check_protocol
};

}  // namespace irr::mem
