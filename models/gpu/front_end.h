// SPDX-License-Identifier: Apache-2.0
// The GPU front end's own path to memory: the one a CTA scheduler uses to read data that lives in
// device memory (Wireframe's dependency graph takes "an existing path from global memory to the
// kernel management/distribution unit" [W L292]). Reads go as line requests through the
// interconnect, on an input of their own beside the SMs', to the L2 partitions — no L1. One
// request enters the network per cycle at most.
#pragma once

#include <deque>
#include <functional>
#include <map>

#include "models/mem/address_map.h"
#include "sim/simulation.h"
#include "tlm_glue/at_ports.h"
#include "tlm_glue/gpu_payload.h"

namespace irr::gpu {

class FrontEndPort : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  tlm_glue::AtInitiator mem_side;

  // `source`: this port's interconnect input (its index among the crossbar's inputs).
  FrontEndPort(const sc_core::sc_module_name& name, sim::Simulation& sim, const mem::AddressMap& map,
               tlm_glue::PayloadPool& pool, std::uint32_t source);
  // Reads [address, address + bytes): one request per line touched; `done` once all are back.
  void read(std::uint64_t address, std::uint64_t bytes, std::function<void()> done);
  bool tick(sim::Cycle c) override;
  std::vector<std::string> outstanding() const override;

 private:
  struct Read {
    std::uint32_t lines;
    std::function<void()> done;
  };
  const mem::AddressMap& map_;
  tlm_glue::PayloadPool& pool_;
  const std::uint32_t source_, line_;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> queue_;  // (line, read id) waiting for the network
  std::map<std::uint64_t, Read> reads_;
  std::uint64_t next_id_ = 0;
  sim::Counter &requests_, &bytes_;
};

}  // namespace irr::gpu
